"""board_pico's sleep and board_power's clock and wait, against a recording stand-in for
machine (CPython only).

What the chip must see: each button pin's level-low wake enabled in IO_BANK0's
DORMANT_WAKE_INTE (through the set alias) before machine.lightsleep() with no argument,
the same bits cleared after; the boot clock back before sleeping; on USB power, short
light sleeps until a button is down instead of DORMANT; with the soft-power latch
(config.POWER_HOLD), its hold pin low before the sleep and high again after a wake."""

import importlib
import sys
import types

import pytest

BUTTON_GPIOS = (6, 9, 13, 16)  # words 0, 1, 1, 2 of DORMANT_WAKE_INTE


class Machine:
    def __init__(self, vbus=0, presses_after=1, vbus_pin=24, wl=True):
        self.log = []
        self.vbus_pin = vbus_pin  # where this board senses VBUS
        self.wl = wl or None  # the W build's radio pins exist
        self.hz = 125000000
        self.vbus = vbus
        self.naps = presses_after  # light sleeps before a button is down
        self.mem32 = self

    def __setitem__(self, addr, value):
        self.log.append(("mem32", addr, value))

    def lightsleep(self, *ms):
        self.log.append(("lightsleep",) + ms)
        self.naps -= 1

    def freq(self, hz=None):
        if hz is None:
            return self.hz
        self.log.append(("freq", hz))
        self.hz = hz


@pytest.fixture()
def board_pico():
    stub = types.ModuleType("machine")
    stub.Pin = object
    had = sys.modules.get("machine")
    sys.modules["machine"] = stub
    try:
        sys.modules.pop("picoyacht.board_pico", None)
        sys.modules.pop("picoyacht.board_power", None)  # bound to this stub, not a stale one
        board_pico = importlib.import_module("picoyacht.board_pico")
    finally:
        if had is None:
            del sys.modules["machine"]
        else:
            sys.modules["machine"] = had
    yield board_pico
    sys.modules.pop("picoyacht.board_pico", None)
    sys.modules.pop("picoyacht.board_power", None)


def make(board_pico, monkeypatch, chip, machine, hold=None):
    class Pin:
        IN, OUT = 0, 1

        def __init__(self, gpio, mode=None, value=None):
            self.gpio = gpio
            if value is not None:
                self.value(value)

        def value(self, *level):
            if level:
                machine.log.append(("pin", self.gpio, level[0]))
                return None
            if self.gpio == "WL_GPIO2" and machine.wl is None:
                raise ValueError("invalid pin")  # a build without the radio's pins
            if self.gpio == machine.vbus_pin:
                return machine.vbus
            return 1

    power = importlib.import_module("picoyacht.board_power")  # the one board_pico imported
    monkeypatch.setattr(power, "machine", machine)
    monkeypatch.setattr(power, "Pin", Pin)
    monkeypatch.setattr(board_pico, "time", types.SimpleNamespace(ticks_ms=lambda: 0))
    b = object.__new__(board_pico.PicoBoard)  # the board's state, without its hardware
    b.timer = b.wdt = None
    b.gpios = list(BUTTON_GPIOS)
    b.read = lambda: 0 if machine.naps > 0 else 1
    b.power = power.PicoPower(chip, False, hold)  # the boot clock: what machine.freq() said
    b.power.fast = False  # asleep after a dimmed spell at the slow clock
    return b


@pytest.mark.parametrize("chip, base", [("Raspberry Pi Pico with RP2040", 0x40014160),
                                        ("Raspberry Pi Pico 2 with RP2350", 0x400282D8)])
def test_on_cells_each_button_pin_wakes_the_dormant_chip(board_pico, monkeypatch, chip, base):
    m = Machine(vbus=0)
    b = make(board_pico, monkeypatch, chip, m)
    b.sleep()
    sets = [(base + 0x2000 + 4 * (g // 8), 1 << 4 * (g % 8)) for g in BUTTON_GPIOS]
    clears = [(base + 0x3000 + 4 * (g // 8), 1 << 4 * (g % 8)) for g in BUTTON_GPIOS]
    assert m.log == ([("freq", 125000000)] + [("mem32",) + s for s in sets]
                     + [("lightsleep",)] + [("mem32",) + c for c in clears])
    assert b.power.fast


def test_on_usb_power_it_naps_lightly_until_a_button(board_pico, monkeypatch):
    m = Machine(vbus=1, presses_after=3)
    b = make(board_pico, monkeypatch, "Raspberry Pi Pico with RP2040", m)
    b.sleep()
    assert [e for e in m.log if e[0] == "lightsleep"] == [("lightsleep", 20)] * 3
    assert not [e for e in m.log if e[0] == "mem32"]  # DORMANT would drop the USB link


W = "Raspberry Pi Pico W with RP2040"


def _slept_dormant(m):
    return ("lightsleep",) in m.log and not [e for e in m.log if e[:1] == ("lightsleep",)
                                             and len(e) > 1]


@pytest.mark.parametrize("chip", [W, "Raspberry Pi Pico 2 W with RP2350"])
def test_a_pico_w_on_cells_goes_dormant_by_its_radio_chips_vbus_sense(board_pico, monkeypatch,
                                                                       chip):
    """The W's VBUS sense is WL_GPIO2: low on cells, so DORMANT. Breaks if the W is taken
    for USB whatever it says (it used to be: light naps for ever, days instead of weeks)
    or if GP24, the radio's data line on a W, is read instead."""
    m = Machine(vbus=0, vbus_pin="WL_GPIO2")
    make(board_pico, monkeypatch, chip, m).sleep()
    assert _slept_dormant(m)
    m = Machine(vbus=1, vbus_pin="WL_GPIO2", presses_after=2)
    make(board_pico, monkeypatch, chip, m).sleep()
    assert [e for e in m.log if e[0] == "lightsleep"] == [("lightsleep", 20)] * 2


def test_a_w_build_without_its_radio_pins_keeps_the_usb_link(board_pico, monkeypatch):
    m = Machine(vbus=0, vbus_pin="WL_GPIO2", wl=False, presses_after=2)
    make(board_pico, monkeypatch, W, m).sleep()
    assert not _slept_dormant(m)


def test_the_clock_changes_only_when_asked_for_another(board_pico, monkeypatch):
    m = Machine()
    b = make(board_pico, monkeypatch, "Raspberry Pi Pico with RP2040", m)
    b.power.fast = True
    b.power.clock(True)
    b.power.clock(False)
    b.power.clock(False)
    b.power.clock(True)
    slow = importlib.import_module("picoyacht.board_power").SLOW_HZ
    assert m.log == [("freq", slow), ("freq", 125000000)]


@pytest.mark.parametrize("vbus", [0, 1])
def test_the_latch_is_held_from_boot_let_go_to_sleep_and_taken_back_on_a_wake(
        board_pico, monkeypatch, vbus):
    """Breaks if the hold pin is not driven high when the board is built, not low before
    the sleep (the power would never be cut), or not high again after a wake (on USB,
    unplugging it after that wake would cut the game off mid-play)."""
    m = Machine(vbus=vbus)
    b = make(board_pico, monkeypatch, "Raspberry Pi Pico with RP2040", m, hold=18)
    assert m.log == [("pin", 18, 1)]
    b.sleep()
    pins = [i for i, e in enumerate(m.log) if e[0] == "pin"]
    naps = [i for i, e in enumerate(m.log) if e[0] == "lightsleep"]
    assert [m.log[i] for i in pins] == [("pin", 18, 1), ("pin", 18, 0), ("pin", 18, 1)]
    assert pins[1] < naps[0] and naps[-1] < pins[2]
    assert m.log[pins[1] - 1] == ("freq", 125000000)  # the boot clock, then let go


def test_between_passes_the_core_waits_a_loop_period(board_pico, monkeypatch):
    """With a Timer sampling, the loop sleeps (WFE) to the next LOOP_MS, not to the next
    2 ms sample: five times fewer idle passes. Sampled by the loop, every sample still
    gets its pass. Breaks if idle() sleeps by SAMPLE_MS with a Timer running."""
    assert board_pico.loop_period(2, True) == board_pico.LOOP_MS > 2
    assert board_pico.loop_period(2, False) == 2
    assert board_pico.loop_period(25, True) == 25
    slept = []
    clock = types.SimpleNamespace(ticks_ms=lambda: 103, ticks_diff=lambda a, b: a - b,
                                  sleep_ms=slept.append)
    monkeypatch.setattr(board_pico, "time", clock)
    b = object.__new__(board_pico.PicoBoard)
    b.wdt, b.wdt_ms, b._last = None, 0, 100  # the pass began at 100 and took 3 ms
    b.loop_ms = board_pico.loop_period(2, True)
    b.idle()
    assert slept == [board_pico.LOOP_MS - 3]
