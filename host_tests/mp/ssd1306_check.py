"""The SSD1306 driver on MicroPython's real framebuf.

1. Bus bytes of typical flushes and the heap bytes allocated by many flushes of each
   shape with the GC disabled ("ALLOC_<what> <n>"), through a counting fake I2C.
2. The same driver over a small SSD1306 model (windows, address pointer) under random
   drawing and random bus errors: the model's RAM must equal the framebuffer after every
   successful flush ("RAM_CHECKS <flushes> <errors> <mismatches>").
test_ssd1306.py reads the lines.
"""

import gc

from picoyacht.roller import Roller
from picoyacht.ssd1306 import SSD1306_I2C


class CountingI2C:
    """Counts bytes and writes; allocates nothing itself."""

    def __init__(self):
        self.bytes = 0
        self.writes = 0

    def writeto(self, addr, buf, stop=True):
        self.bytes += len(buf)
        self.writes += 1

    def writevto(self, addr, vec, stop=True):
        for i in range(len(vec)):
            self.bytes += len(vec[i])
        self.writes += 1


class ModelI2C:
    """An SSD1306 in horizontal addressing as far as RAM goes: 0x21/0x22 windows and the
    auto-incrementing pointer. `fail_in` > 0 counts writes down to an OSError."""

    def __init__(self):
        self.ram = bytearray(1024)
        self.c0, self.c1, self.p0, self.p1 = 0, 127, 0, 7
        self.col = self.page = 0
        self.fail_in = 0

    def writeto(self, addr, buf, stop=True):
        self.writevto(addr, (buf,), stop)

    def writevto(self, addr, vec, stop=True):
        if self.fail_in:
            self.fail_in -= 1
            if not self.fail_in:
                raise OSError(5)
        data = bytearray()
        for b in vec:
            data.extend(b)
        if data[0] == 0x40:
            for b in data[1:]:
                self.ram[self.page * 128 + self.col] = b
                if self.col >= self.c1:
                    self.col = self.c0
                    self.page = self.p0 if self.page >= self.p1 else self.page + 1
                else:
                    self.col += 1
            return
        i = 1
        while i < len(data):
            c = data[i]
            if c == 0x21:
                self.c0, self.c1 = data[i + 1], data[i + 2]
                self.col = self.c0
                i += 3
            elif c == 0x22:
                self.p0, self.p1 = data[i + 1], data[i + 2]
                self.page = self.p0
                i += 3
            elif c in (0x81, 0x20, 0xA8, 0xD3, 0xD5, 0xD9, 0xDA, 0xDB, 0x8D):
                i += 2
            else:
                i += 1


def one_span(d, i):
    x, y = 40 + (i & 15), 24 + (i & 7)  # page 3, columns 40..55: a pixel always changes
    d.pixel(x, y, d.pixel(x, y) ^ 1)
    d.flush()


def widths(d, i):
    """A 1..128 column span on page 5: every split into scratch views, window changes."""
    w = (i * 37) % 128 + 1
    d.fill_rect(0, 40, 128, 8, 0)
    d.fill_rect(128 - w, 40, w, 8, 1)
    d.flush()


def two_pages(d, i):
    d.fill_rect(i & 63, 6, 9, 4, i & 1)  # straddles pages 0 and 1: one merged window
    d.flush()


def wide(d, i):
    d.fill_rect(0, 16, 128, 24, i & 1)  # pages 2..4, full width: one write
    d.flush()


def scattered(d, i):
    d.fill_rect((i * 13) & 127, (i * 29) & 63, 7, 11, i & 1)
    d.fill_rect((i * 71) & 127, (i * 5) & 63, 3, 2, (i >> 1) & 1)
    d.flush()


def no_change(d, i):
    d.flush()


def show(d, i):
    d.show()


def measure(d, fn, n=300):
    for i in range(3):  # warm up
        fn(d, i)
    sent = d.bytes_sent
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for i in range(n):
        fn(d, i)
    after = gc.mem_alloc()
    gc.enable()
    print("SENT_" + fn.__name__.upper(), d.bytes_sent - sent)  # proves the flushes did work
    return after - before


def bytes_of(d, fn, i=1):
    b0 = d.bytes_sent
    fn(d, i)
    return d.bytes_sent - b0


def ram_checks(n=400):
    r = Roller(4242)
    panel = ModelI2C()
    d = SSD1306_I2C(128, 64, panel)
    good = bad = 0
    for k in range(n):
        for _ in range(r.rand15() % 5):
            x, y = r.rand15() % 140 - 10, r.rand15() % 72 - 8
            op = r.rand15() % 3
            if op == 0:
                d.fill_rect(x, y, r.rand15() % 24, r.rand15() % 20, r.rand15() & 1)
            elif op == 1:
                d.text(str(k), x, y, r.rand15() & 1)
            else:
                d.hline(x, y, r.rand15() % 140, r.rand15() & 1)
        if r.rand15() % 10 == 0:
            panel.fail_in = 1 + r.rand15() % 4
        if d.flush():
            good += 1
            if panel.ram != d.buffer:
                bad += 1
        panel.fail_in = 0
    print("RAM_CHECKS", good, d.errors, bad)


def main():
    i2c = CountingI2C()
    d = SSD1306_I2C(128, 64, i2c)
    print("INIT", d.bytes_sent, i2c.bytes)
    d.fill(0)
    d.flush()
    print("BYTES_ONE_SPAN", bytes_of(d, one_span))
    print("BYTES_TWO_PAGES", bytes_of(d, two_pages))
    print("BYTES_NO_CHANGE", bytes_of(d, no_change))
    print("BYTES_SHOW", bytes_of(d, show))
    cases = (("ONE_SPAN", one_span), ("WIDTHS", widths), ("TWO_PAGES", two_pages),
             ("WIDE", wide), ("SCATTERED", scattered), ("NO_CHANGE", no_change))
    for name, fn in cases + (("SHOW", show),):
        print("ALLOC_" + name, measure(d, fn))
    print("OK", d.ok, d.errors, d.bytes_sent == i2c.bytes, d.writes == i2c.writes)
    ram_checks()


main()
