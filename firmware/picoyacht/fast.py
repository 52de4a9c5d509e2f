"""The byte loops of every frame: glyphs into the framebuffer, and the display driver's
page compare and copies; and `locked`, which runs the hot paths' calls off the heap.

Why a module of its own: on the Pico a Python loop pays for every bytecode, so drawing
glyphs byte by byte made a card screen slow to draw, and so did copying a page into the
driver's shadow by framebuf.blit. These functions are
compiled to machine code with @micropython.viper: the .mpy carries it (tools/mpy_build
compiles with mpy-cross -march, armv6m for the Pico), and a source install compiles it
on the board. Under CPython the same functions run as plain Python (the stub below), so
both give identical bytes; host_tests/test_fast.py checks both against pixel references,
and the golden frames are rendered through the viper ones on the unix port.

Every value stored is kept in 0..255 (Python's bytearray insists; viper would truncate),
and arguments are bytearrays (bytes for the font, str for text) and offsets the caller
has clipped.
"""

import sys

_PYTHON = sys.implementation.name != "micropython"  # (tools/hostlib has const only)
if _PYTHON:  # CPython: the viper functions below run as Python

    class micropython:  # noqa: N801 - stands in for the module
        @staticmethod
        def viper(f):
            return f

    ptr8 = bytes
else:
    import micropython

try:
    from micropython import heap_lock, heap_unlock
except ImportError:  # CPython, or a build without them
    heap_lock = None


def locked(fn, a, b, c):
    """fn(a, b, c) with the heap locked. MicroPython gives a call frame of more than a few
    words from the heap and frees it on return, unless the heap is locked: then it is on
    the C stack. On a fragmented heap that search is the cost, of a frame's drawing and of
    an engine build's box scores alike.
    fn must not allocate: if it does (a MemoryError, or any error, which cannot be built
    while locked), it runs again unlocked, so it must be safe to repeat, and a real error
    then shows as itself. The one place the frames, the display driver and the CPU's
    search lock the heap."""
    if heap_lock is not None:
        heap_lock()
        try:
            return fn(a, b, c)
        except MemoryError:
            pass
        finally:
            heap_unlock()
    return fn(a, b, c)


@micropython.viper
def put_glyph(buf: ptr8, g: ptr8, code: int, at: int, sh: int, nxt: int, c: int):
    """Glyph `code` (5 column bytes at g[code * 5]) into buf[at..at + 4], shifted down sh
    rows; the rows pushed out go to buf[at + nxt..] when nxt (the next page) is not 0.
    Ink (c = 1) ORs, paper (c = 0) clears."""
    b = code * 5
    end = at + 5
    while at < end:
        v = int(g[b]) << sh
        if c:
            buf[at] = int(buf[at]) | (v & 0xFF)
            if nxt:
                buf[at + nxt] = int(buf[at + nxt]) | (v >> 8)
        else:
            buf[at] = int(buf[at]) & ~v & 0xFF
            if nxt:
                buf[at + nxt] = int(buf[at + nxt]) & ~(v >> 8) & 0xFF
        at += 1
        b += 1


@micropython.viper
def put_text(buf: ptr8, g: ptr8, s: ptr8, n: int, at: int, c: int) -> int:
    """The first n characters of s as page-aligned glyphs from buf[at]. Returns 1, or 0
    with nothing drawn when s has a non-ASCII character (the caller then draws it glyph
    by glyph: one "?" per character, not per UTF-8 byte)."""
    i = 0
    while i < n:
        if int(s[i]) > 127:
            return 0
        i += 1
    i = 0
    while i < n:
        b = int(s[i]) * 5
        end = at + 5
        while at < end:
            if c:
                buf[at] = int(buf[at]) | int(g[b])
            else:
                buf[at] = int(buf[at]) & ~int(g[b]) & 0xFF
            at += 1
            b += 1
        at += 1  # the cell's blank column
        i += 1
    return 1


@micropython.viper
def put_scaled(buf: ptr8, g: ptr8, code: int, x: int, y: int, scale: int, c: int):
    """Glyph `code` with every pixel a scale x scale square, top-left at (x, y), clipped
    to the 128x64 buffer: what one fill_rect per pixel draws, without the calls."""
    col = 0
    while col < 5:
        bits = int(g[code * 5 + col])
        y0 = y
        while bits:
            if bits & 1:
                py = y0
                while py < y0 + scale:
                    px = x + col * scale
                    while py >= 0 and py < 64 and px < x + col * scale + scale:
                        if px >= 0 and px < 128:
                            i = (py >> 3) * 128 + px
                            if c:
                                buf[i] = int(buf[i]) | (1 << (py & 7))
                            else:
                                buf[i] = int(buf[i]) & ~(1 << (py & 7)) & 0xFF
                        px += 1
                    py += 1
            bits >>= 1
            y0 += scale
        col += 1


@micropython.viper
def span(a: ptr8, b: ptr8, start: int, n: int) -> int:
    """The columns where a and b differ in [start, start + n): lo | hi << 8 relative to
    start, or -1 when they are equal."""
    lo = start
    end = start + n
    while lo < end and a[lo] == b[lo]:
        lo += 1
    if lo == end:
        return -1
    hi = end - 1
    while a[hi] == b[hi]:
        hi -= 1
    return (lo - start) | (hi - start) << 8


@micropython.viper
def gap(a: ptr8, b: ptr8, at: int, n: int, lo: int, hi: int, least: int) -> int:
    """The first run of at least `least` columns in [lo, hi] where a and b are equal on
    each of the n pages from offset `at` (128 bytes a page): first | last << 8, or -1.
    A run must end before hi, at a column that differs."""
    run = 0
    c = lo
    while c <= hi:
        p = at + c
        end = p + (n << 7)
        while p < end and a[p] == b[p]:
            p += 128
        if p < end:
            if run >= least:
                return (c - run) | (c - 1) << 8
            run = 0
        else:
            run += 1
        c += 1
    return -1


@micropython.viper
def copy(dst: ptr8, at: int, src: ptr8, start: int, n: int):
    """dst[at:at + n] = src[start:start + n], without a slice object or a view."""
    end = start + n
    while start < end:
        dst[at] = src[start]
        at += 1
        start += 1


if _PYTHON:
    _put_text = put_text

    def put_text(buf, g, s, n, at, c):  # noqa: F811 - the viper one reads s as bytes
        return _put_text(buf, g, s.encode(), n, at, c)
