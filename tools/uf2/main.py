"""Entry point frozen into the PicoYacht .uf2.

MicroPython runs a frozen main.py in place of a /main.py on the drive, so this one hands
over to /main.py when the drive has one (a builder's own program; delete it to get the game
back), as on any MicroPython board. Otherwise it puts the frozen modules first on sys.path
(rp2's order is '', '.frozen', '/lib': an old copy of the package in / would shadow the
built-in one), prints the version and runs the game's entry point (firmware/main.py, frozen
as picoyacht_main).
"""

import os
import sys


def _exists(path, kind):
    try:
        return os.stat(path)[0] & 0xF000 == kind
    except OSError:
        return False


if _exists("/main.py", 0x8000):
    print("PicoYacht: running /main.py from the drive (delete it to play)")
    import main  # noqa: F401  ('' is first on sys.path: the drive's main.py, run as "main")
else:
    sys.path.remove(".frozen")
    sys.path.insert(0, ".frozen")
    from picoyacht.version import VERSION

    for old in ("/picoyacht", "/lib/picoyacht", "/tables"):
        if _exists(old, 0x4000):
            print("PicoYacht: %s is an old copy, not used: delete it to free flash" % old)
    print("PicoYacht", VERSION)
    import picoyacht_main  # noqa: F401
