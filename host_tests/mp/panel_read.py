"""Text read back off a 128x64 frame by PicoYacht's font: what a player sees, checked
without trusting the code that drew it (CPython and the MicroPython unix port)."""

from picoyacht import font


def char_at(buf, x, y):
    """The font's character drawn at pixel (x, y), or "?"."""
    cols = bytearray(font.WIDTH)
    for i in range(font.WIDTH):
        c = 0
        for r in range(8):
            yy = y + r
            if 0 <= yy < 64 and buf[(yy >> 3) * 128 + x + i] >> (yy & 7) & 1:
                c |= 1 << r
        cols[i] = c
    g = font.GLYPHS
    for code in range(32, 127):
        if g[code * font.WIDTH:(code + 1) * font.WIDTH] == cols:
            return chr(code)
    return "?"


def panel_lines(buf):
    """The message screen's lines and its hint, as text (menus.Message's places): five
    lines, for a sixth would run into the hint."""
    out = []
    for y in (10, 18, 26, 34, 42, 56):
        out.append("".join(char_at(buf, 1 + font.CELL * k, y) for k in range(21)).rstrip())
    return out
