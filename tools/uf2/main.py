"""Entry point frozen into the PicoYacht .uf2.

MicroPython runs a frozen main.py in place of a /main.py on the drive, so this one hands
over to /main.py when the drive has one (a builder's own program; delete it to get the game
back), as on any MicroPython board. Otherwise it prints the version and runs the game's
entry point (firmware/main.py, frozen as picoyacht_main).
"""

import os

from picoyacht.version import VERSION


def _drive_main():
    try:
        return os.stat("/main.py")[0] & 0x8000 != 0
    except OSError:
        return False


if _drive_main():
    print("PicoYacht %s: running /main.py from the drive (delete it to play)" % VERSION)
    import main  # noqa: F401  ('' is first on sys.path: the drive's main.py, run as "main")
else:
    print("PicoYacht", VERSION)
    import picoyacht_main  # noqa: F401
