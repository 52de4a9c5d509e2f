"""Diagnostics: the facts a builder needs to check a new handheld, and the screen showing them.

collect() reads them from the board (picoyacht.board: read, present, i2c, battery_mv,
sampling). A fact the board does not have (None) shows "n/a"; one whose call raises shows
"error": never a crash. The slow facts (I2C scan, battery, free heap) are refreshed once a
second; buttons on every call. draw() writes the screen into a screens.Canvas with the
project's own font; Diag is the screen the app opens (Menu held at boot). Golden-frame tests
can pin the interpreter-dependent facts by rebinding diag.heap_free, diag.versions and
diag.build.
"""

import sys

from micropython import const

from picoyacht.buttons import B_MENU, NBUTTONS
from picoyacht.debounce import LONG
from picoyacht.screens import CELL, Screen, W, header
from picoyacht.ticks import ticks_diff

NA = "n/a"
ERR = "error"
# Each button's letter: hold 1-6, Roll, Up, Down, then OK and Menu as the build calls
# them: O and M on the full build, A and B on the 4-button one.
KEY_LABELS = "123456RUDOM"
KEY_LABELS_FOUR = "123456RUDAB"
_SLOW_MS = const(1000)
# sys.implementation._mpy >> 10: the native code architecture.
ARCHS = ("", "x86", "x64", "armv6", "armv6m", "armv7m", "armv7em", "armv7emsp", "armv7emdp",
         "xtensa", "xtensawin", "rv32imc", "rv64imc")


class Facts:
    """What the diagnostics screen shows. Fields hold a value, NA or ERR."""

    def __init__(self):
        self.at = 0
        self.fresh = False  # slow facts read at least once
        self.buttons = NA
        self.present = (1 << NBUTTONS) - 1
        self.i2c = NA
        self.heap = NA
        self.battery_mv = NA
        self.seed = NA
        self.version = NA
        self.mpy = NA
        self.sampling = NA
        self.build = NA  # PicoYacht's git describe, frozen into a `make uf2` firmware
        self.changed = True  # something shown differs from the last collect()


def _call(f, instead=NA):
    """f(), `instead` for None, ERR if it raises."""
    try:
        v = f()
    except Exception:  # OSError from a bus, or anything a half-wired board does
        return ERR
    return instead if v is None else v


def heap_free():
    try:
        import gc

        return gc.mem_free()
    except Exception:  # no gc.mem_free on this interpreter (CPython)
        return NA


def versions():
    """(MicroPython version "1.23.0", .mpy version "6.3 armv6m"), NA where unknown."""
    impl = getattr(sys, "implementation", None)
    v = getattr(impl, "version", None)
    ver = NA if v is None else str(v[0]) + "." + str(v[1]) + "." + str(v[2])
    m = getattr(impl, "_mpy", None)
    if m is None:
        return ver, NA
    mpy = str(m & 0xFF) + "." + str(m >> 8 & 3)
    arch = m >> 10
    if 0 < arch < len(ARCHS):
        mpy += " " + ARCHS[arch]
    return ver, mpy


def build():
    """The PicoYacht version a `make uf2` firmware has frozen in, else NA (files copied by
    `make flash`, the simulator: their .mpy version is what matters there)."""
    try:
        from picoyacht.version import VERSION

        return VERSION
    except ImportError:
        return NA


def collect(board, now_ms, seed=None, prev=None, buttons=None):
    """The facts now. Pass the last result as `prev` to update it in place (no new object,
    and the slow facts only once per _SLOW_MS); its .changed says whether to redraw.
    `buttons` (a mask, e.g. the debouncer's state) stands in for a board.read() of None."""
    f = prev if prev is not None else Facts()
    old = (f.buttons, f.i2c, f.heap, f.battery_mv, f.seed)
    f.buttons = _call(board.read, NA if buttons is None else buttons)
    f.present = board.present
    f.seed = NA if seed is None else seed
    waited = ticks_diff(now_ms, f.at)  # (negative: a jump of half the tick period or more)
    if not f.fresh or waited >= _SLOW_MS or waited < 0:
        f.fresh = True
        f.at = now_ms
        f.i2c = NA if board.i2c is None else _call(board.i2c.scan)
        f.battery_mv = _call(board.battery_mv)
        f.heap = heap_free()
        f.version, f.mpy = versions()
        f.sampling = board.sampling or NA
        f.build = build()
    f.changed = prev is None or old != (f.buttons, f.i2c, f.heap, f.battery_mv, f.seed)
    return f


def volts(mv):
    """4123 -> "4.12 V" (integers only)."""
    cents = (mv + 5) // 10
    return str(cents // 100) + "." + str(cents // 10 % 10) + str(cents % 10) + " V"


def i2c_text(found):
    if isinstance(found, str):
        return found
    if not found:
        return "none found"
    s = ""
    for i in range(len(found)):
        if i == 4:
            return s + "+" + str(len(found) - 4)
        n = found[i]  # as two hex digits
        s += "0123456789ABCDEF"[n >> 4 & 15] + "0123456789ABCDEF"[n & 15] + " "
    return s.strip()


def draw(cv, f, hint="hold Menu", labels=KEY_LABELS):
    """The diagnostics screen: eight text rows on page boundaries; hint and labels in the
    build's key names."""
    cv.clear()
    header(cv, "Diagnostics")
    cv.rtext(hint, W, 0, 0)
    # Row 1: every button; held = inverted, fitted = its letter, not fitted = a dot.
    x = cv.text("Keys", 1, 8)
    x += 4
    raw = f.buttons
    if isinstance(raw, str):
        cv.text(raw, x, 8)
    else:
        for i in range(NBUTTONS):
            xx = x + i * 8
            if not f.present >> i & 1:
                cv.glyph(13, xx, 8)  # font.DOT
            elif raw >> i & 1:
                cv.fb.fill_rect(xx - 1, 8, CELL + 1, 8, 1)
                cv.glyph(ord(labels[i]), xx, 8, 0)
            else:
                cv.glyph(ord(labels[i]), xx, 8)
    x = cv.text("I2C ", 1, 16)
    cv.text(i2c_text(f.i2c), x, 16, 1, 17)
    x = cv.text("Free heap ", 1, 24)
    if isinstance(f.heap, str):
        cv.text(f.heap, x, 24)
    else:
        cv.num(f.heap, x, 24)
    x = cv.text("MicroPython ", 1, 32)
    cv.text(f.version, x, 32, 1, 9)
    if f.build == NA:
        x = cv.text(".mpy ", 1, 40)
        cv.text(f.mpy, x, 40, 1, 16)
    else:
        x = cv.text("Build ", 1, 40)
        cv.text(f.build, x, 40, 1, 15)
    x = cv.text("Seed ", 1, 48)
    if isinstance(f.seed, str):
        cv.text(f.seed, x, 48)
    else:
        cv.num(f.seed, x, 48)
    # The button sampling really running, by its first word: hard, soft (Timer) or loop.
    n = min(len(f.sampling), 4)
    cv.text(f.sampling, W - n * CELL + 1, 48, 1, n)
    x = cv.text("Battery ", 1, 56)
    mv = f.battery_mv
    cv.text(mv if isinstance(mv, str) else volts(mv), x, 56)


class Diag(Screen):
    """Every key press counts (and is shown); a long Menu press leaves."""

    NAME = "diag"
    facts = None
    presses = 0

    def event(self, btn, kind):
        self.presses += 1
        self.app.redraw()
        if kind == LONG and btn == B_MENU:
            self.app.home()

    def update(self, board, now, seed, buttons):
        """The loop feeds the facts in (the app never sees the board)."""
        self.facts = collect(board, now, seed, self.facts, buttons)
        if self.facts.changed:
            self.app.redraw()

    def draw(self, cv):
        if self.facts is None:
            self.facts = Facts()
        full = self.app.full
        keys = KEY_LABELS if full else KEY_LABELS_FOUR
        draw(cv, self.facts, "hold Menu" if full else "hold B", keys)


SCREENS = (Diag,)  # what App.find opens by NAME
