"""Random drawing on a framebuf, shared by CPython (tools/hostlib's framebuf) and
MicroPython (the real one): test_ssd1306.py compares the buffers they produce.

As a script it prints "FB <step> <hex of the buffer>" after every few operations.
"""

import framebuf

from picoyacht.roller import Roller

SIZES = ((128, 64, 128), (37, 21, 40))  # width, height, stride (the second: odd sizes)
STEPS = 150


def _c(r, lo, hi):
    return lo + r.rand15() % (hi - lo + 1)


def draw_steps(emit, seed=777):
    """Apply STEPS random operations to each size; emit(tag, buffer) every 3."""
    r = Roller(seed)
    for w, h, stride in SIZES:
        buf = bytearray(((h + 7) // 8) * stride)
        fb = framebuf.FrameBuffer(buf, w, h, framebuf.MONO_VLSB, stride)
        sbuf = bytearray(2 * 11)
        src = framebuf.FrameBuffer(sbuf, 11, 13, framebuf.MONO_VLSB)
        for i in range(len(sbuf)):
            sbuf[i] = r.rand15() & 0xFF
        for step in range(STEPS):
            op = r.rand15() % 10
            x, y = _c(r, -20, w + 20), _c(r, -20, h + 20)
            a, b = _c(r, -20, w + 20), _c(r, -20, h + 20)
            c = r.rand15() & 1
            if op == 0:
                fb.line(x, y, a, b, c)
            elif op == 1:
                fb.line(x, y, x + _c(r, -3, 3), y + _c(r, -40, 40), c)
            elif op == 2:
                fb.rect(x, y, a - x, b - y, c)
            elif op == 3:
                fb.rect(x, y, _c(r, 0, 40), _c(r, 0, 30), c, True)
            elif op == 4:
                fb.fill_rect(x, y, _c(r, -2, 50), _c(r, -2, 30), c)
            elif op == 5:
                fb.hline(x, y, _c(r, -5, 60), c)
                fb.vline(a, b, _c(r, -5, 40), c)
            elif op == 6:
                for _ in range(8):
                    fb.pixel(_c(r, -2, w + 1), _c(r, -2, h + 1), c)
            elif op == 7:
                fb.blit(src, x, y, r.rand15() % 3 - 1)
            elif op == 8:
                fb.scroll(_c(r, -9, 9), _c(r, -9, 9))
            elif step % 20 == 9:
                fb.fill(c)
            else:
                fb.line(x, y, a, y + (a - x), c)  # 45 degrees
            if step % 3 == 2:
                emit(w * 1000 + step, buf)


def main():
    from binascii import hexlify

    draw_steps(lambda tag, buf: print("FB", tag, hexlify(buf).decode()))
    fb = framebuf.FrameBuffer(bytearray(8), 8, 8, framebuf.MONO_VLSB)
    print("PIX", fb.pixel(8, 0), fb.pixel(-1, 3), fb.pixel(0, 0))


if __name__ == "__main__":
    main()
