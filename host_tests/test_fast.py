"""fast.py's byte loops against plain references: text through the Canvas pixel by pixel,
and the driver's span, gap and copy.

A twin module (host_tests/mp/README.md), and each test runs twice: with the loops fast.py
picked ("picked": on the MicroPython unix port the viper ones from fast_viper, which the
golden frames are rendered with) and with its Python loops ("python": what CPython and
the WebAssembly port, which has no viper emitter, run). All must give the same bytes.
"""

import sys

import framebuf  # CPython: tools/hostlib's stand-in (conftest puts it on the path)
import pytest

from picoyacht import fast, font, heap, screens
from picoyacht.roller import Roller
from picoyacht.screens import CELL, Canvas

from allocs import allocated

CHARS = "AZaz09 ?/-+!~\x01\x04\x0e\x7f"
DRAWN = ("put_glyph", "put_text", "put_scaled")


def python_loops():
    """fast.py imported as a port without the viper emitter imports it: its Python loops.
    (fast_viper is hidden, so fast's import of it fails; the modules are put back.)"""
    import picoyacht

    saved = sys.modules.pop("picoyacht.fast")
    viper = sys.modules.get("picoyacht.fast_viper")
    sys.modules["picoyacht.fast_viper"] = None
    try:
        import picoyacht.fast as loops
    finally:
        sys.modules["picoyacht.fast"] = saved
        picoyacht.fast = saved
        if viper is None:
            sys.modules.pop("picoyacht.fast_viper")
        else:
            sys.modules["picoyacht.fast_viper"] = viper
    return loops


LOOPS = {"picked": fast, "python": python_loops()}
WHICH = ("picked", "python")


def drawing_with(which, fn):
    """fn() with the Canvas drawing through LOOPS[which]."""
    saved = [getattr(screens, name) for name in DRAWN]
    for name in DRAWN:
        setattr(screens, name, getattr(LOOPS[which], name))
    try:
        return fn()
    finally:
        for i in range(len(DRAWN)):
            setattr(screens, DRAWN[i], saved[i])


def canvas():
    buf = bytearray(1024)
    return Canvas(framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB), buf), buf


def reference_text(buf, s, x, y, c):
    """Canvas.text's pixels, one at a time from the font's bits (a glyph whose top is
    off the screen is not drawn; a non-ASCII character is one "?")."""
    for ch in s:
        code = ord(ch)
        code = code if code < 128 else 63
        if 0 <= y < 64:
            for col in range(5):
                bits = font.GLYPHS[code * 5 + col]
                for row in range(8):
                    px, py = x + col, y + row
                    if bits >> row & 1 and 0 <= px < 128 and py < 64:
                        i = (py >> 3) * 128 + px
                        if c:
                            buf[i] |= 1 << (py & 7)
                        else:
                            buf[i] &= ~(1 << (py & 7)) & 0xFF
        x += CELL


def noise(r, n):
    return bytearray(r.rand15() & 0xFF for _ in range(n))


@pytest.mark.micropython
@pytest.mark.parametrize("which", WHICH)
def test_text_matches_the_pixel_reference(which):
    """Aligned and unaligned rows, clipped at every edge, ink and paper, over noise."""
    def check():
        r = Roller(7)
        cv, buf = canvas()
        want = bytearray(1024)
        background = noise(r, 2048)
        for case in range(200):
            n = r.rand15() % 22
            s = "".join(CHARS[r.rand15() % len(CHARS)] for _ in range(n))
            if case % 7 == 0:
                s += "\u00e9x"  # two bytes in UTF-8: the whole string goes glyph by glyph
            y = (r.rand15() % 9) * 8 if case % 2 else r.rand15() % 72 - 4
            x = r.rand15() % 140 - 8
            c = case % 3 != 0
            at = r.rand15() % 1024
            buf[:] = background[at:at + 1024]
            want[:] = buf
            end = cv.text(s, x, y, c)
            reference_text(want, s, x, y, c)
            assert buf == want, (s, x, y, c)
            assert end == x + len(s) * CELL

    drawing_with(which, check)


@pytest.mark.micropython
@pytest.mark.parametrize("which", WHICH)
def test_glyph_codes_out_of_range_draw_a_question_mark(which):
    def check():
        cv, buf = canvas()
        _, want = canvas()
        cv.glyph(200, 10, 8)
        cv.glyph(-1, 20, 13)
        reference_text(want, "?", 10, 8, 1)
        reference_text(want, "?", 20, 13, 1)
        assert buf == want

    drawing_with(which, check)


@pytest.mark.micropython
@pytest.mark.parametrize("which", WHICH)
def test_span_and_copy_match_slices(which):
    loops = LOOPS[which]
    r = Roller(11)
    background = noise(r, 512)
    for _ in range(200):
        at = r.rand15() % 256
        a = background[at:at + 256]
        b = bytearray(a)
        start = r.rand15() % 128
        n = 1 + r.rand15() % 128
        for _ in range(r.rand15() % 4):
            i = r.rand15() % 256
            b[i] ^= 1 + r.rand15() % 255
        diff = [i - start for i in range(start, start + n) if a[i] != b[i]]
        got = loops.span(a, b, start, n)
        assert got == (diff[0] | diff[-1] << 8 if diff else -1)
        at = r.rand15() % 128
        want = bytearray(b)
        want[at:at + n] = a[start:start + n]
        loops.copy(b, at, a, start, n)
        assert b == want


def reference_gap(a, b, at, n, lo, hi, least):
    """The first run of >= least columns in lo..hi, equal on all n pages, that a differing
    column ends: first | last << 8, or -1."""
    run = 0
    for c in range(lo, hi + 1):
        if all(a[at + p * 128 + c] == b[at + p * 128 + c] for p in range(n)):
            run += 1
            continue
        if run >= least:
            return (c - run) | (c - 1) << 8
        run = 0
    return -1


@pytest.mark.micropython
@pytest.mark.parametrize("which", WHICH)
def test_gap_matches_a_column_by_column_reference(which):
    loops = LOOPS[which]
    r = Roller(5)
    found = 0
    for _ in range(300):
        a = bytearray(1024)
        b = bytearray(1024)
        for _ in range(r.rand15() % 12):
            i = r.rand15() % 1024
            b[i] = 1 + r.rand15() % 255
        p0 = r.rand15() % 8
        n = 1 + r.rand15() % (8 - p0)
        lo = r.rand15() % 128
        hi = lo + r.rand15() % (128 - lo)
        least = 1 + r.rand15() % 12
        want = reference_gap(a, b, p0 * 128, n, lo, hi, least)
        assert loops.gap(a, b, p0 * 128, n, lo, hi, least) == want, (p0, n, lo, hi, least)
        found += want >= 0
    assert found > 30


@pytest.mark.micropython
def test_text_allocates_nothing():
    cv, _ = canvas()
    name = "Player 1"
    assert allocated(lambda: cv.text(name, 1, 8, 0), 20, warmup=1) in (0, None)
    assert allocated(lambda: cv.rnum(1234, 128, 13), 20, warmup=1) in (0, None)


@pytest.mark.micropython
@pytest.mark.parametrize("which", WHICH)
def test_big_text_matches_one_fill_rect_per_pixel(which):
    def check():
        r = Roller(3)
        cv, buf = canvas()
        want_cv, want = canvas()
        for case in range(40):
            s = "".join(CHARS[r.rand15() % len(CHARS)] for _ in range(1 + r.rand15() % 6))
            x = r.rand15() % 150 - 20
            y = r.rand15() % 80 - 12
            scale = 2 + r.rand15() % 2
            c = case % 2
            for i in range(1024):
                buf[i] = want[i] = (i * 37 + case) & 0xFF
            assert cv.big(s, x, y, scale, c) == x + len(s) * CELL * scale
            for ch in s:
                code = ord(ch) if ord(ch) < 128 else 63
                for col in range(5):
                    bits = font.GLYPHS[code * 5 + col]
                    for row in range(8):
                        if bits >> row & 1:
                            want_cv.fb.fill_rect(x + col * scale, y + row * scale, scale, scale, c)
                x += CELL * scale
            assert buf == want, (s, x, y, scale, c)

    drawing_with(which, check)


@pytest.mark.micropython
def test_a_locked_call_gives_the_unlocked_result_and_error():
    """heap.locked runs the hot paths' calls with the heap locked (a frame's drawing, the
    display's flush planning, the engine's build: on MicroPython their call frames then go
    on the C stack). A function that does allocate runs again unlocked, and a real error
    comes out as itself, not as the MemoryError a locked heap makes of it."""

    def add(a, b, c):
        return a + b + c

    def listed(a, b, c):
        return [a, b, c]

    def fails(a, b, c):
        raise ValueError("not a multiset")

    assert heap.locked(add, 1, 2, 3) == 6
    assert heap.locked(listed, 1, 2, 3) == [1, 2, 3]
    with pytest.raises(ValueError):
        heap.locked(fails, 1, 2, 3)


@pytest.mark.micropython(only=True)
def test_micropython_with_the_viper_emitter_draws_with_the_compiled_loops():
    """The unix port (and the Pico) must keep the machine-code loops: the drawing budgets
    rest on them. The Python ones are the fallback for ports without viper only."""
    from picoyacht import fast_viper

    for name in DRAWN + ("span", "gap", "copy"):
        assert getattr(fast, name) is getattr(fast_viper, name), name
        assert getattr(LOOPS["python"], name) is not getattr(fast_viper, name), name
