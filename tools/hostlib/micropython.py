"""CPython stand-in for MicroPython's `micropython` module: just `const`, as the identity.

The firmware writes `from micropython import const` plainly, the form mpy-cross folds into
the bytecode; off the device (tests, the simulator, the table builder) this module answers
that import instead of a try/except fallback in every firmware module. MicroPython's own
built-in module always wins over this file, so putting tools/hostlib on its path is harmless.
"""


def const(x):
    return x
