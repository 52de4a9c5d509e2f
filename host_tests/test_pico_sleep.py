"""Sleep on the emulated Pico: the real rp2 firmware, board and app (host_tests/mp/pico_sleep.py)
go to sleep on "Power off", with one stand-in: machine.lightsleep(), which rp2040js cannot
wake from, records the chip's state and returns as a wake would.

Checked there, on the emulated RP2040: the move's save is on the flash, the SSD1306 took
its display-off command over I2C, the clock is back at the boot clock, the watchdog's
ENABLE bit is clear, the soft-power latch's pin is low, and DORMANT_WAKE_INTE has the
level-low wake of exactly the button pins; after the "wake" the bits are cleared, the
latch is held again, the sampling Timer sees presses, the first press only wakes the
display and the next one plays.

Not testable on the emulator: that DORMANT really stops the crystal and a low button pin
really restarts it (rp2040js models neither), the RP2350's registers (it emulates an
RP2040 only), the USB nap path (its VBUS pin reads low), the current drawn, and the
latch's hardware (power really gone, its RC time against the boot time). Needs node.
"""

import pytest

pico = pytest.importorskip("emulator")

from conftest import HOST_TESTS, emulated_pico  # noqa: E402

BUTTON_GPIOS = "6 7 8 9 10 11 12 13 14 15 16"  # config.py's full build


@pytest.fixture(scope="module")
def slept():
    emulated_pico(pico)
    out, err = pico.run_code("import pico_sleep", extra=(HOST_TESTS / "mp" / "pico_sleep.py",))
    keys = dict(ln.split(" ", 2)[1:] for ln in out.splitlines() if ln.startswith("K "))
    assert keys.get("done") == "1", out + err
    return keys


def test_power_off_saves_blanks_and_sleeps_dormant_with_the_button_wakes(slept):
    """Breaks if the save comes after the sleep (or not at all), the display is left on,
    the call is a timed light sleep, the wake bits miss a button or wake on another pin,
    or the slow clock is kept into DORMANT."""
    assert slept["save_due"] == "1" and slept["saved_changed"] == "1"
    assert slept["panel_sleeps"] == "1" and slept["app_power"] != slept["awake"]
    assert slept["sleeps"] == "1" and slept["sleep_args"] == "()"
    assert slept["wake_gpios"] == BUTTON_GPIOS
    assert slept["freq_resting"] == "48000000" and slept["freq"] == "125000000"


def test_the_watchdog_is_stopped_and_the_latch_let_go_for_the_sleep(slept):
    """Breaks if the watchdog still counts in DORMANT (it would reset the sleeping game) or
    the latch's pin stays high (the power would never be cut)."""
    assert slept["wdt_running"] == "1" and slept["wdt_enable"] == "1"
    assert slept["wdt"] == "None" and slept["wdt_enable_asleep"] == "0"
    assert slept["hold_at_boot"] == "1" and slept["hold_level"] == "0"


def test_after_the_wake_play_resumes_and_the_waking_press_does_nothing_else(slept):
    """Breaks if the wake bits are left set, the latch is not taken back, the sampling
    Timer is not restarted (no press is seen), or the waking press also rolls."""
    assert slept["wake_left"] == "0" and slept["hold_after_wake"] == "1"
    assert slept["power_after_press"] == slept["awake"]
    assert slept["rolled_by_wake"] == "0" and slept["rolled_after"] == "1"
