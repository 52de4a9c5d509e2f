"""Loads tools/tables/turn_kernel.c (the builder's in-turn search), compiled with gcc on first use.

The shared library is cached in build/ under the source's hash, so an edit recompiles it
and nothing stale is ever loaded. Plain gcc, no other dependency.
"""

import ctypes
import hashlib
import os
import subprocess

from paths import BUILD, TOOLS

import numpy as np

SRC = TOOLS / "tables" / "turn_kernel.c"

_I = ctypes.POINTER(ctypes.c_int)
_D = ctypes.POINTER(ctypes.c_double)


class Dice(ctypes.Structure):
    _fields_ = [("n", ctypes.c_int), ("nk", ctypes.c_int), ("r0", ctypes.c_int),
                ("nb", ctypes.c_int), ("child", _I), ("parent", _I), ("start", _I),
                ("prob", _D), ("cnt", _I), ("sc", _I), ("dsc", _I), ("yroll", _I)]


def library():
    """The compiled kernel (compiling it when its source changed)."""
    src = SRC.read_bytes()
    lib = BUILD / ("turn_kernel-%s.so" % hashlib.sha256(src).hexdigest()[:12])
    if not lib.exists():
        BUILD.mkdir(exist_ok=True)
        tmp = lib.with_suffix(".%d.tmp" % os.getpid())  # test workers may compile at once
        subprocess.run(["gcc", "-O3", "-shared", "-fPIC", "-o", str(tmp), str(SRC), "-lm"],
                       check=True)
        tmp.replace(lib)
    dll = ctypes.CDLL(str(lib))
    dll.turns.restype = None
    return dll


def _ints(a):
    return np.ascontiguousarray(a, dtype=np.intc)


class Kernel:
    """The kernel bound to one game's dice and scores (arrays kept alive here)."""

    def __init__(self, n, nb, child, parent, start, prob, cnt, sc, dsc, yroll):
        self.keep = [_ints(child), _ints(parent), _ints(start),
                     np.ascontiguousarray(prob, dtype=np.float64), _ints(cnt), _ints(sc),
                     _ints(dsc), _ints(yroll)]
        ch, pa, st, pr, cn, s, ds, yr = self.keep
        self.nk, self.nr = len(ch) // 6, len(pr)
        self.dice = Dice(n, self.nk, self.nk - self.nr, nb,
                         *(a.ctypes.data_as(_D if a.dtype == np.float64 else _I)
                           for a in self.keep))
        self.dll = library()
        self.work = np.empty(2 * self.nk + 8 * self.nr)

    def turns(self, Wu, W, jok, jm, js):
        """Each position's expected points from this turn on (see turn_kernel.c)."""
        N = len(jok)
        arrs = [np.ascontiguousarray(a, dtype=np.float64) for a in (Wu, W)]
        jok = np.ascontiguousarray(jok, dtype=np.uint8)
        jm = np.ascontiguousarray(jm, dtype=np.float64)
        js = np.ascontiguousarray(js, dtype=np.float64)
        out = np.empty(N)
        self.dll.turns(ctypes.byref(self.dice), ctypes.c_int(N),
                       arrs[0].ctypes.data_as(_D), arrs[1].ctypes.data_as(_D),
                       jok.ctypes.data_as(ctypes.POINTER(ctypes.c_ubyte)),
                       jm.ctypes.data_as(_D), js.ctypes.data_as(_D),
                       self.work.ctypes.data_as(_D), out.ctypes.data_as(_D))
        return out

    def turns_served(self, q, t, jok):
        """Each position's true value when choices follow q = (Wu, W, jm, js) (another
        table's) and points follow t = (Wu, W, jm, js) (see turn_kernel.c)."""
        arrs = [np.ascontiguousarray(a, dtype=np.float64) for a in (
            q[0], q[1], t[0], t[1], q[2], q[3], t[2], t[3])]
        jok = np.ascontiguousarray(jok, dtype=np.uint8)
        out = np.empty(len(jok))
        ptr = [a.ctypes.data_as(_D) for a in arrs]
        self.dll.turns_served(ctypes.byref(self.dice), ctypes.c_int(len(jok)), *ptr[:4],
                              jok.ctypes.data_as(ctypes.POINTER(ctypes.c_ubyte)), *ptr[4:],
                              self.work.ctypes.data_as(_D), out.ctypes.data_as(_D))
        return out
