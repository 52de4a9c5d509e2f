"""The byte loops of every frame: glyphs into the framebuffer, and the display driver's
page compare and copies.

Why a module of its own: on the Pico a Python loop pays for every bytecode, so drawing
glyphs byte by byte made a card screen slow to draw, and so did copying a page into the
driver's shadow by framebuf.blit. So where MicroPython has the viper emitter, the loops
come compiled to machine code from fast_viper (see there); the Python loops below run
where it has none (the WebAssembly port) and under CPython. Both give identical bytes:
host_tests/test_fast.py checks each against pixel references.

Arguments are bytearrays (bytes for the font, str for text) and offsets the caller has
clipped; every value stored stays in 0..255.
"""


def _ink(buf, i, bits, c):
    """Set (c = 1) or clear (c = 0) the bits of buf[i]."""
    buf[i] = buf[i] | bits if c else buf[i] & ~bits & 0xFF


def put_glyph(buf, g, code, at, sh, nxt, c):
    """Glyph `code` (5 column bytes at g[code * 5]) into buf[at..at + 4], shifted down sh
    rows; the rows pushed out go to buf[at + nxt..] when nxt (the next page) is not 0.
    Ink (c = 1) ORs, paper (c = 0) clears."""
    for col in range(5):
        v = g[code * 5 + col] << sh
        _ink(buf, at + col, v & 0xFF, c)
        if nxt:
            _ink(buf, at + col + nxt, v >> 8, c)


def put_text(buf, g, s, n, at, c):
    """The first n characters of s as page-aligned glyphs from buf[at]. Returns 1, or 0
    with nothing drawn when s has a non-ASCII character (the caller then draws it glyph
    by glyph: one "?" per character)."""
    for i in range(n):
        if ord(s[i]) > 127:
            return 0
    for i in range(n):
        put_glyph(buf, g, ord(s[i]), at + 6 * i, 0, 0, c)  # 6: the glyph and a blank column
    return 1


def put_scaled(buf, g, code, x, y, scale, c):
    """Glyph `code` with every pixel a scale x scale square, top-left at (x, y), clipped
    to the 128x64 buffer: what one fill_rect per pixel draws, without the calls."""
    for col in range(5):
        bits = g[code * 5 + col]
        left = x + col * scale
        for row in range(8):
            if not bits >> row & 1:
                continue
            top = y + row * scale
            for py in range(max(top, 0), min(top + scale, 64)):
                for px in range(max(left, 0), min(left + scale, 128)):
                    _ink(buf, (py >> 3) * 128 + px, 1 << (py & 7), c)


def span(a, b, start, n):
    """The columns where a and b differ in [start, start + n): lo | hi << 8 relative to
    start, or -1 when they are equal."""
    diff = [i for i in range(n) if a[start + i] != b[start + i]]
    return diff[0] | diff[-1] << 8 if diff else -1


def gap(a, b, at, n, lo, hi, least):
    """The first run of at least `least` columns in [lo, hi] where a and b are equal on
    each of the n pages from offset `at` (128 bytes a page): first | last << 8, or -1.
    A run must end before hi, at a column that differs."""
    run = 0
    for col in range(lo, hi + 1):
        same = True
        for p in range(at + col, at + col + (n << 7), 128):
            if a[p] != b[p]:
                same = False
                break
        if same:
            run += 1
        elif run >= least:
            return (col - run) | (col - 1) << 8
        else:
            run = 0
    return -1


def copy(dst, at, src, start, n):
    """dst[at:at + n] = src[start:start + n]."""
    dst[at:at + n] = src[start:start + n]


try:  # machine code where the port compiles it; else the loops above
    from picoyacht.fast_viper import copy, gap, put_glyph, put_scaled, put_text, span  # noqa: F401, F811
except (ImportError, SyntaxError, AttributeError):  # no viper emitter: the WebAssembly
    pass  # port refuses it; CPython's micropython shim (tools/hostlib) has const only
