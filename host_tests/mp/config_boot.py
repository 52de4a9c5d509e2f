"""The boot with a builder's config.py (host_tests/test_config.py): board_pico.load_config
on a real file, the real PicoBoard on stress_wdt's stand-in machine (its clock, pins,
Timer and watchdog), the real app and loop; then the panel as a player sees it.

For each config file path in argv, lines:
  CASE <path>
  SCREEN <the screen the boot shows>
  PANEL <line>       the note's lines and its hint, read back off the framebuffer
  AFTER <screen after OK> <screen after a second OK>   (the title, then New game's setup)
  CRASH <exception>  where the boot died instead
The console's "PicoYacht: ..." lines come out as the board prints them.
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
    cfg = board_pico.load_config(path)
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


if __name__ == "__main__":
    main(sys.argv[1:])
