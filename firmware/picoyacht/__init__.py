"""PicoYacht's package. One job at import: make the built-in modules it uses quick to import.
And one helper, forget(): a module of the package leaves the heap once its work is done.

MicroPython looks for a built-in module that a file may extend (os, time, array, ...) on the
filesystem first, at every import of it: slow on the Pico's littlefs, where the game
imports six of them at boot and more later. Its u-name is the built-in itself, found at once; under
its plain name in sys.modules, every later import of it is a dict lookup.
"""

import sys

try:
    for _name in ("os", "time", "array", "struct", "binascii", "machine"):
        sys.modules.setdefault(_name, __import__("u" + _name))  # (a test's fake stays)
except ImportError:  # CPython (or a port without one of them): imports as usual
    pass


def forget(name):
    """Takes the package's module `name` out of the heap (if imported): a screen nobody
    can reach, a table once read. As .mpy its code is in RAM; frozen, its globals are."""
    module = globals().pop(name, None)
    if module is not None:
        sys.modules.pop(module.__name__, None)
