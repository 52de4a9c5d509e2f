"""The byte loops of fast.py compiled to machine code with @micropython.viper.

Why a module of its own: the viper emitter is not in every MicroPython (the WebAssembly
port has none: there the decorator is a compile error), and one module that does not
compile must not take the package with it. fast.py imports these where they compile (the
Pico, whose .mpy carries them as armv6m code from tools/mpy/mpy_build, and the unix port the
golden frames are rendered on) and falls back to its Python loops elsewhere (CPython,
the browser). Both give identical bytes: host_tests/test_fast.py runs each against the
same pixel references.

Every value stored is kept in 0..255 (viper would truncate), and arguments are bytearrays
(bytes for the font, str for text: viper reads its UTF-8 bytes) and offsets the caller
has clipped.
"""

import micropython

# ruff: noqa: F821 - ptr8 is a viper type: only the viper compiler knows the name


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
