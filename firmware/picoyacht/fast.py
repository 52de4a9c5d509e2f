"""The byte loops of every frame: glyphs into the framebuffer, and the display driver's
page compare and copies.

Why a module of its own: on the Pico a Python loop costs about a microsecond per
bytecode, so drawing a glyph byte by byte took ~200 us and a card screen ~40 ms. Where
MicroPython has a native emitter (the rp2 firmware, the unix port) the same loops are
compiled with @micropython.viper at import, from the source below: a .mpy cannot carry
native code that every port and the unix-port tests could load. Elsewhere (CPython, a
port without the emitter) the Python definitions stay. Both give identical bytes: the
golden frames are rendered through the viper ones on the unix port, host_tests check the
Python ones against a per-pixel reference.

Arguments are bytearrays (bytes for the font) and offsets the caller has clipped.
"""

_CELL = 6  # font.CELL: a glyph's advance


def put_glyph(buf, g, code, at, sh, nxt, c):
    """Glyph `code` (5 column bytes at g[code * 5]) into buf[at..at + 4], shifted down sh
    rows; the rows pushed out go to buf[at + nxt..] when nxt (the next page) is not 0.
    Ink (c = 1) ORs, paper (c = 0) clears."""
    b = code * 5
    for i in range(5):
        v = g[b + i] << sh
        if c:
            buf[at + i] |= v & 0xFF
            if nxt:
                buf[at + nxt + i] |= v >> 8
        else:
            buf[at + i] &= ~v & 0xFF
            if nxt:
                buf[at + nxt + i] &= ~(v >> 8) & 0xFF


def put_text(buf, g, s, n, at, c):
    """The first n characters of s as page-aligned glyphs from buf[at]. Returns 1, or 0
    with nothing drawn when s has a non-ASCII character (the caller then draws it glyph
    by glyph: one "?" per character, not per UTF-8 byte)."""
    for i in range(n):
        code = ord(s[i])
        put_glyph(buf, g, code if code < 128 else 63, at, 0, 0, c)
        at += _CELL
    return 1


def span(a, b, start, n):
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


def copy(dst, at, src, start, n):
    """dst[at:at + n] = src[start:start + n], without a slice object or a view."""
    for i in range(n):
        dst[at + i] = src[start + i]


_VIPER = """
@micropython.viper
def put_glyph(buf: ptr8, g: ptr8, code: int, at: int, sh: int, nxt: int, c: int):
    b = code * 5
    end = at + 5
    while at < end:
        v = int(g[b]) << sh
        if c:
            buf[at] = int(buf[at]) | (v & 0xFF)
            if nxt:
                buf[at + nxt] = int(buf[at + nxt]) | (v >> 8)
        else:
            buf[at] = int(buf[at]) & ~v
            if nxt:
                buf[at + nxt] = int(buf[at + nxt]) & ~(v >> 8)
        at += 1
        b += 1

@micropython.viper
def put_text(buf: ptr8, g: ptr8, s: ptr8, n: int, at: int, c: int) -> int:
    i = 0
    while i < n:
        if int(s[i]) > 127:
            return 0
        i += 1
    i = 0
    while i < n:
        b = int(s[i]) * 5
        if c:
            buf[at] = int(buf[at]) | int(g[b])
            buf[at + 1] = int(buf[at + 1]) | int(g[b + 1])
            buf[at + 2] = int(buf[at + 2]) | int(g[b + 2])
            buf[at + 3] = int(buf[at + 3]) | int(g[b + 3])
            buf[at + 4] = int(buf[at + 4]) | int(g[b + 4])
        else:
            buf[at] = int(buf[at]) & ~int(g[b])
            buf[at + 1] = int(buf[at + 1]) & ~int(g[b + 1])
            buf[at + 2] = int(buf[at + 2]) & ~int(g[b + 2])
            buf[at + 3] = int(buf[at + 3]) & ~int(g[b + 3])
            buf[at + 4] = int(buf[at + 4]) & ~int(g[b + 4])
        at += 6
        i += 1
    return 1

@micropython.viper
def span(a: ptr8, b: ptr8, start: int, n: int) -> int:
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
def copy(dst: ptr8, at: int, src: ptr8, start: int, n: int):
    end = start + n
    while start < end:
        dst[at] = src[start]
        at += 1
        start += 1
"""

try:
    import micropython

    _ns = {"micropython": micropython}
    exec(_VIPER, _ns)
    put_glyph = _ns["put_glyph"]
    put_text = _ns["put_text"]
    span = _ns["span"]
    copy = _ns["copy"]
    del _ns
except Exception:  # CPython, or a port without the native emitter: the Python ones
    pass
