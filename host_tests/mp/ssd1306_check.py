"""The SSD1306 driver on MicroPython's real framebuf, with a counting fake I2C.

Prints the bus bytes of typical flushes and the heap bytes allocated by many
flushes with the GC disabled ("ALLOC_<what> <n>"); test_ssd1306.py reads them.
"""

import gc

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
        for b in vec:
            self.bytes += len(b)
        self.writes += 1


def one_page(d, i):
    x, y = i & 127, 24 + (i & 7)  # page 3
    d.pixel(x, y, d.pixel(x, y) ^ 1)  # always a change
    d.flush()


def two_pages(d, i):
    d.fill_rect(i & 63, 6, 9, 4, i & 1)  # straddles pages 0 and 1
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


def main():
    i2c = CountingI2C()
    d = SSD1306_I2C(128, 64, i2c)
    print("INIT", d.bytes_sent, i2c.bytes)
    d.fill(0)
    d.flush()
    print("BYTES_ONE_PAGE", bytes_of(d, one_page))
    print("BYTES_TWO_PAGES", bytes_of(d, two_pages))
    print("BYTES_NO_CHANGE", bytes_of(d, no_change))
    print("BYTES_SHOW", bytes_of(d, show))
    cases = (("ONE_PAGE", one_page), ("TWO_PAGES", two_pages), ("NO_CHANGE", no_change))
    for name, fn in cases + (("SHOW", show),):
        print("ALLOC_" + name, measure(d, fn))
    print("OK", d.ok, d.errors, d.bytes_sent == i2c.bytes)


main()
