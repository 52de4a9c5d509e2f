"""Dice roller: a 32-bit xorshift PRNG computed in two 16-bit halves.

Why halves: on the Pico a MicroPython small int holds 31 signed bits; any value
>= 2**30 becomes a heap-allocated long. Every step below works on 16-bit lanes,
so the largest intermediate is a 15x15-bit product (< 2**30) or a 16-bit lane
shifted left by 13 (< 2**29): a roll allocates nothing.

The generator is Marsaglia's xorshift32 (shifts 13, 17, 5; period 2**32 - 1),
followed by a multiplicative output scramble on 15 bits that breaks its
linearity. The state is 32 bits, so a game snapshot stores it in one int, and
the original seed is kept so a whole game can be replayed.
"""

from micropython import const

_M15 = const(0x7FFF)
_M16 = const(0xFFFF)
_M30 = const(0x3FFFFFFF)
_SCRAMBLE = const(0x6F35)  # odd and < 2**15: x * _SCRAMBLE < 2**30, bijective mod 2**15
_FEISTEL = const(0x5BD1)  # odd, < 2**15: seed mixing multiplier
_ZERO_FIX = const(0x2545)  # replaces the one forbidden all-zero state


def _fold32(seed):
    """Reduce any int to two 16-bit halves (two's complement, longer ints XOR-folded)."""
    hi = lo = 0
    while True:
        lo ^= seed & _M16
        hi ^= (seed >> 16) & _M16
        seed >>= 32
        if seed == 0 or seed == -1:
            return hi, lo


class Roller:
    """Seeded d6 source. `seed` is kept for replay; `getstate()` fits in 32 bits."""

    def __init__(self, seed=0):
        self.seed = seed
        self._hi = 0
        self._lo = 0
        self.reseed(seed)

    def reseed(self, seed):
        """Restart from `seed`: distinct seeds in [0, 2**32) give distinct streams."""
        self.seed = seed
        hi, lo = _fold32(seed)
        # Four Feistel rounds: a bijection on 32 bits that spreads nearby seeds apart
        # before the (linear) xorshift takes over. Bounded like the step: < 2**30.
        for r in range(4):
            f = ((lo & _M15) * _FEISTEL + (lo >> 15) + r) & _M16
            hi, lo = lo, hi ^ f ^ (f >> 5)
        if not (hi | lo):
            lo = _ZERO_FIX
        self._hi = hi
        self._lo = lo

    def getstate(self):
        """The 32-bit state (nonzero), for snapshots."""
        return (self._hi << 16) | self._lo

    def halves(self):
        """getstate() as (high, low) 16-bit halves, never formed into one int: on a Pico an
        int of 2**30 or more is a heap object, and the game snapshots at every box."""
        return self._hi, self._lo

    def setstate(self, state):
        """Continue exactly where `getstate()` was taken."""
        if state <= 0 or state > 0xFFFFFFFF:
            raise ValueError("state")
        self._hi = (state >> 16) & _M16
        self._lo = state & _M16

    def rand15(self):
        """Next 15 uniformly distributed bits (0..32767)."""
        hi = self._hi
        lo = self._lo
        # x ^= x << 13
        hi ^= ((hi << 13) | (lo >> 3)) & _M16
        lo ^= (lo << 13) & _M16
        # x ^= x >> 17
        lo ^= hi >> 1
        # x ^= x << 5
        hi ^= ((hi << 5) | (lo >> 11)) & _M16
        lo ^= (lo << 5) & _M16
        self._hi = hi
        self._lo = lo
        return (((hi ^ lo) & _M15) * _SCRAMBLE) & _M15

    def d6(self):
        """1..6, unbiased: take the top 3 of 15 bits and reject 6 and 7."""
        while True:
            v = self.rand15() >> 12
            if v < 6:
                return v + 1


def seed_from_entropy(urandom, fallback=0):
    """A 30-bit seed from `urandom(4)` (e.g. os.urandom), else from `fallback`.

    On the Pico the board passes os.urandom (the ROSC on an RP2040, the TRNG on an
    RP2350). If it is missing (None), raises, or returns too few bytes, the
    `fallback` is used: an int or a callable returning one. The board builds it
    from time.ticks_us() jitter; this module stays free of hardware imports.
    """
    try:
        b = urandom(4)
        return b[0] | (b[1] << 8) | (b[2] << 16) | ((b[3] & 0x3F) << 24)
    except Exception:  # missing, OSError, NotImplementedError, short buffer
        pass
    if callable(fallback):
        fallback = fallback()
    hi, lo = _fold32(fallback)
    return (((hi & 0x3FFF) << 16) | lo) ^ (hi >> 14)
