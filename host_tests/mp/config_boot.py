"""The boot with a builder's config.py (host_tests/test_config.py): board_pico.load_config
on a real file, the real PicoBoard on stress_wdt's stand-in machine (its clock, pins,
Timer and watchdog), the real app and loop; then the panel as a player sees it.

For each config file path in argv, lines:
  CASE <path>
  SCREEN <the screen the boot shows>
  PANEL <line>       the note's lines and its hint, read back off the framebuffer
  AFTER <screen after OK> <screen after a second OK>   (the title, then New game's setup)
  RESETS <n>         the watchdog's resets before the boot that reached the game
  ARMED <n>          watchdogs still running once config.py is done (must be 0)
  CRASH <exception>  where the boot died instead
The console's "PicoYacht: ..." lines come out as the board prints them; REBOOT follows
those of a boot the watchdog reset. Each case starts from a power-on; config.py runs as on an RP2040
(config_check.Guard on the stand-in's watchdog and scratch registers), the game as before. A
file that never ends can only do so on the stand-in clock here (time.sleep, which the
watchdog counts): the unix port has no way to reset out of `while True: pass`.
"""

import sys

import stress_wdt as W  # first: it puts the stand-in machine and time in sys.modules
from panel_read import panel_lines

from picoyacht import board_pico
from picoyacht import buttons as K

from fakefs import FakeFs


def main(paths):
    for path in paths:
        print("CASE", path)
        try:
            boot(path)
        except BaseException as e:  # noqa: BLE001  (a dead boot is this case's result)
            print("CRASH", repr(e))


def boot(path):
    """One power-on with the file as /config.py; the lines in the module docstring."""
    W.power_on()
    resets = 0
    cfg = load(path)
    while W.MACHINE.mem32.dead and resets < 3:  # the watchdog reset that boot: boot again
        resets += 1
        print("REBOOT")  # what that run printed after the reset never was
        W.reset_hw()
        cfg = load(path)
    print("RESETS", resets)
    print("ARMED", len([w for w in W.CLOCK.wdts if w.enabled]))  # what the game's boot met
    p = W.Pico(FakeFs(), cfg)
    p.run_ms(50)
    print("SCREEN", p.app.screen.NAME)
    for line in panel_lines(p.board.display.buffer):
        print("PANEL", line)
    p.press(K.B_OK)
    first = p.app.screen.NAME
    p.press(K.B_OK)
    print("AFTER", first, p.app.screen.NAME)
    p.board.restore()


def load(path):
    """board_pico.load_config as on an RP2040 (the board's sampling stays the rig's)."""
    chip = board_pico._chip
    board_pico._chip = lambda: "Raspberry Pi Pico with RP2040"
    W.CLOCK.limit = W.CLOCK.ms + 2 * 3600 * 1000  # a file no watchdog stops: not for good
    try:
        return board_pico.load_config(path)
    finally:
        board_pico._chip = chip
        W.CLOCK.limit = None


if __name__ == "__main__":
    main(sys.argv[1:])
