"""Host-only stand-in for MicroPython's built-in `framebuf` (MONO_VLSB only).

The firmware draws through framebuf; on the Pico and under the MicroPython unix
port that is the real C module. CPython has none, so host tests and the
simulator put tools/hostlib on sys.path and get this pure-Python version. Its
pixel results match MicroPython's for fill, pixel, hline, vline, line, rect,
fill_rect, blit and scroll (host_tests/test_ssd1306.py checks that against the
real module). text() uses this project's own 8x8 font, so it does not match
MicroPython's pixels; screens that need golden images use the UI's font module.
"""

MONO_VLSB = 0
MVLSB = MONO_VLSB

# ASCII 32..126, 5 column bytes each (bit 0 = top row, bit 7 = descender row),
# drawn in an 8x8 cell at column 1. Designed for PicoYacht.
_FONT = bytes.fromhex(
    "000000000000005f00000003000300147f147f14242a7f2a12231308646236495522500004030000001c224100"
    "0041221c0014083e081408083e080800806000000808080808006060000060100804033e5149453e00427f4000"
    "625149494641494949361814127f1027454545393c4a49493001017905033649494936064949291e0036360000"
    "005636000008142241001414141414004122140802015109063e415d555e7c1211127c7f494949363e41414122"
    "7f4141221c7f494949417f090909013e4149497a7f0808087f00417f41002040413f017f081422417f40404040"
    "7f020c027f7f0408107f3e4141413e7f090909063e4151215e7f09192946464949493101017f01013f4040403f"
    "1f2040201f3f4038403f631408146303047804036151494543007f41410003040810600041417f000402010204"
    "8080808080000102040020545454787f444444383844444400384444447f3854545418087e09090018a4a4a47c"
    "7f0404047800447d40004080847d007f1028440000417f40007c047804787c040404783844444438fc24242418"
    "18242424fc7c080404084854545424043f4444203c4040207c1c2040201c3c4030403c44281028441ca0a0a07c"
    "4464544c44000836414100007f000041413608000804081008"
)
_UNKNOWN = bytes((0x7F, 0x41, 0x41, 0x41, 0x7F))  # an empty box for anything else


class FrameBuffer:
    """A 1-bit-per-pixel image over a caller's buffer, bytes are vertical 8-pixel strips."""

    def __init__(self, buffer, width, height, format, stride=None):
        if format != MONO_VLSB:
            raise ValueError("hostlib framebuf: MONO_VLSB only")
        if stride is None:
            stride = width
        if width < 1 or height < 1 or stride < width:
            raise ValueError("invalid size")
        if len(buffer) < ((height + 7) >> 3) * stride:
            raise ValueError("buffer too small")
        self._fb_buf = buffer
        self._fb_w = width
        self._fb_h = height
        self._fb_stride = stride

    # pixels -----------------------------------------------------------------
    def _get(self, x, y):
        return (self._fb_buf[(y >> 3) * self._fb_stride + x] >> (y & 7)) & 1

    def _set(self, x, y, c):
        i = (y >> 3) * self._fb_stride + x
        if c & 1:
            self._fb_buf[i] |= 1 << (y & 7)
        else:
            self._fb_buf[i] &= ~(1 << (y & 7)) & 0xFF

    def pixel(self, x, y, c=None):
        if not (0 <= x < self._fb_w and 0 <= y < self._fb_h):
            return None
        if c is None:
            return self._get(x, y)
        self._set(x, y, c)
        return None

    # areas ------------------------------------------------------------------
    def fill(self, c):
        if self._fb_stride != self._fb_w or self._fb_h & 7:
            self.fill_rect(0, 0, self._fb_w, self._fb_h, c)  # keep padding bits as they are
            return
        n = (self._fb_h >> 3) * self._fb_w
        self._fb_buf[0:n] = bytes((0xFF if c & 1 else 0,)) * n

    def fill_rect(self, x, y, w, h, c):
        x0, y0 = max(x, 0), max(y, 0)
        x1, y1 = min(x + w, self._fb_w), min(y + h, self._fb_h)
        for yy in range(y0, y1):
            for xx in range(x0, x1):
                self._set(xx, yy, c)

    def hline(self, x, y, w, c):
        self.fill_rect(x, y, w, 1, c)

    def vline(self, x, y, h, c):
        self.fill_rect(x, y, 1, h, c)

    def rect(self, x, y, w, h, c, f=False):
        if f:
            self.fill_rect(x, y, w, h, c)
            return
        self.fill_rect(x, y, w, 1, c)
        self.fill_rect(x, y + h - 1, w, 1, c)
        self.fill_rect(x, y, 1, h, c)
        self.fill_rect(x + w - 1, y, 1, h, c)

    def line(self, x1, y1, x2, y2, c):
        """Bresenham: step along the longer axis, the error term picks the other."""
        dx, dy = abs(x2 - x1), abs(y2 - y1)
        sx = 1 if x2 > x1 else -1
        sy = 1 if y2 > y1 else -1
        steep = dy > dx
        if steep:  # walk y; x is the minor axis
            x1, y1, dx, dy, sx, sy = y1, x1, dy, dx, sy, sx
        err = 2 * dy - dx
        for _ in range(dx):
            px, py = (y1, x1) if steep else (x1, y1)
            self.pixel(px, py, c)
            while err >= 0:
                y1 += sy
                err -= 2 * dx
            x1 += sx
            err += 2 * dy
        self.pixel(x2, y2, c)

    # copies -----------------------------------------------------------------
    def blit(self, src, x, y, key=-1, palette=None):
        """Copy `src` (a FrameBuffer or (buffer, w, h, format[, stride])) with its
        top-left at (x, y), skipping pixels whose (palette-mapped) colour is `key`."""
        if not isinstance(src, FrameBuffer):
            src = FrameBuffer(*src)
        sw, sh = src._fb_w, src._fb_h
        for sy in range(max(0, -y), min(sh, self._fb_h - y)):
            for sx in range(max(0, -x), min(sw, self._fb_w - x)):
                c = src._get(sx, sy)
                if palette is not None:
                    c = palette.pixel(c, 0)
                if c != key:
                    self._set(x + sx, y + sy, c)

    def scroll(self, xstep, ystep):
        """Shift the picture; the uncovered strip keeps its old pixels."""
        w, h = self._fb_w, self._fb_h
        old = FrameBuffer(bytearray(self._fb_buf), w, h, MONO_VLSB, self._fb_stride)
        for y in range(max(0, ystep), min(h, h + ystep)):
            for x in range(max(0, xstep), min(w, w + xstep)):
                self._set(x, y, old._get(x - xstep, y - ystep))

    def text(self, s, x, y, c=1):
        for ch in s:
            o = ord(ch) - 32
            cols = _FONT[o * 5 : o * 5 + 5] if 0 <= o < 95 else _UNKNOWN
            for i in range(5):
                bits = cols[i]
                for r in range(8):
                    if bits >> r & 1:
                        self.pixel(x + 1 + i, y + r, c)
            x += 8
