"""Tick arithmetic for the rp2's ms counter, which wraps at 2**30.

Every timer in the firmware (debouncer, sound, notes, CPU pacing, display power) compares
times only through these, so the wrap is harmless. A Pico small int is 31 bits: 2**30 itself
would be a heap-allocated long int, so no sum or difference here ever reaches it.
"""

from micropython import const

_TICKS_MASK = const(0x3FFFFFFF)
TICKS_PERIOD = 0x40000000  # for callers; a long int on the Pico: never computed with


def wrap_diff(a, b, mask):
    """a - b for tick counts in [0, mask], wrapped into [-(mask + 1) / 2, (mask + 1) / 2)."""
    d = (a - b) & mask
    half = (mask >> 1) + 1
    if d >= half:
        d = d - half - half
    return d


def wrap_add(t, delta, mask):
    """t + delta wrapped into [0, mask], |delta| <= (mask + 1) / 2."""
    if delta >= 0:
        room = mask - t
        return t + delta if delta <= room else delta - room - 1
    return t + delta if -delta <= t else t + delta + mask + 1


def ticks_diff(a, b, period=0):
    """a - b for wrapping tick counts, in [-period/2, period/2); period a power of 2
    (0: the rp2 tick period, 2**30)."""
    return wrap_diff(a, b, period - 1 if period else _TICKS_MASK)


def ticks_add(t, delta, period=0):
    return wrap_add(t, delta, period - 1 if period else _TICKS_MASK)
