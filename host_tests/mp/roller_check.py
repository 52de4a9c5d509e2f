"""Run under the MicroPython unix port by test_roller.py.

Prints the first 1000 d6 rolls for a seed (argv[1]) as one line of digits, a
state round-trip check, then the heap bytes allocated by 10,000 rolls with the
GC disabled."""

import gc
import sys

from picoyacht.roller import Roller


def rolls(r, n):
    out = bytearray(n)
    for i in range(n):
        out[i] = 48 + r.d6()
    return out


def alloc_per_rolls(r, n):
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for _ in range(n):
        r.d6()
    after = gc.mem_alloc()
    gc.enable()
    return after - before


def main():
    seed = int(sys.argv[1])
    r = Roller(seed)
    print("ROLLS", rolls(r, 1000).decode())
    s = r.getstate()
    a = rolls(r, 50)
    r.setstate(s)
    print("RESUME", a == rolls(r, 50))
    alloc_per_rolls(r, 10)  # warm up: first calls may intern or cache
    print("ALLOC", alloc_per_rolls(r, 10000))


main()
