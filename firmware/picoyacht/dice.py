"""The multisets of a roll's dice ("keeps") and the two sweeps the CPU's search makes over them.

A module apart from picoyacht.engine because it is a job of its own (counting, indexing and
averaging over multisets, with no rule or score in it) and so that each module stays small.
Every sweep is also a generator of steps (see picoyacht.engine) with the same answer.

Glossary: n dice; a keep is a multiset of 0..n of them, its code 3 bits of count per face
(face 1 lowest); keeps are ordered by size, then by code, so `start[k]` is the index of the
first keep of k dice; the rolls are the keeps of exactly n dice, from `first_roll` to
`nkeeps` - 1 (`nrolls` of them), and `roll_codes[r]` is roll r's code, with its orderings
(how many of the 6^n throws of all the dice show it) from bit WAYS_AT up: Sharp Dice weighs
a one-throw roll by them, and the bits are free in an array of 32-bit items. A keep's index is
counted from its code (index()), and its code from its index (code()): an array of every
keep's code would be the search's largest but one, and only the rolls' are read in a
sweep. `children[f - 1][i]` is where keep i plus
one die showing f lies among the keeps one die larger: its index is that plus `base[k]`
for a keep i of k dice. Six arrays, not one six times as long: on a fragmented heap a run
that long may not be free. With five dice or fewer no size has over 256 keeps, so each
child is a byte counted from the first keep of its size (half the heap of 16-bit indexes);
with six, base[] is all 0 and the arrays hold whole indexes.
"""

from array import array

from micropython import const

from picoyacht.heap import locked

CHUNK = const(30)  # keeps per step of a sweep
WAYS_AT = const(18)  # a roll code's orderings start here, above six 3-bit counts
_INDEX_CHUNK = const(6)  # keeps whose children are found per step of a build
# Work per yield in COST units (picoyacht.engine): per keep of a sweep, per child found,
# per roll placed
C_KEEP = const(110)
_C_INDEX = const(180)
_C_WALK = const(40)
# _WAYS[7 * (m - 1) + k]: the multisets of k dice over m faces, C(k + m - 1, m - 1), for
# m 1..5 and k 0..6: how many keeps of a size come before a face count (index(), code())
_WAYS = (b"\x01\x01\x01\x01\x01\x01\x01\x01\x02\x03\x04\x05\x06\x07"
         b"\x01\x03\x06\x0a\x0f\x15\x1c\x01\x04\x0a\x14\x23\x38\x54"
         b"\x01\x05\x0f\x23\x46\x7e\xd2")
_FACTORIAL = (1, 1, 2, 6, 24, 120, 720)


def drain(steps):
    """Runs a stepwise computation to its end; its result."""
    try:
        while True:
            next(steps)
    except StopIteration as e:
        return e.value


def work_array(typecode, n):
    """An array of n items for the caller to overwrite before reading. Built from a range,
    which gives its length up front: array(typecode, bytes(...)) would first build a bytes
    object as large as the array, and a fragmented heap may not hold both."""
    return array(typecode, range(n))


def zeros(typecode, n):
    """A zero-filled array (small ones: the fill is a Python loop)."""
    a = work_array(typecode, n)
    for i in range(n):
        a[i] = 0
    return a


def _choose(n, k):
    c = 1
    for i in range(k):
        c = c * (n - i) // (i + 1)
    return c


class Dice:
    """The keeps of n dice (see the glossary above) and their children."""

    def __init__(self, n, later=False):
        """later: allocate() and run steps (the build) when the caller chooses."""
        self.n = n
        # keeps of fewer than k dice: C(k + 5, 6) (stars and bars over six faces)
        self.start = [_choose(k + 5, 6) for k in range(n + 2)]
        self.nkeeps = self.start[n + 1]
        self.first_roll = self.start[n]
        self.nrolls = self.nkeeps - self.first_roll
        self.roll_codes = self.children = None
        start = self.start
        small = all(start[k + 1] - start[k] <= 256 for k in range(1, n + 1))
        self.base = tuple(start[k + 1] if small else 0 for k in range(n))
        self.steps = self._build()  # None once run: a finished generator keeps its frame
        if not later:
            self.allocate()
            drain(self.steps)
            self.steps = None

    def allocate(self):
        """The work arrays, largest first (the owner allocates before it computes
        anything, while the heap has its largest free runs)."""
        self.roll_codes = work_array("i", self.nrolls)
        n = self.first_roll
        t = "B" if self.base[-1] else "H"
        self.children = (work_array(t, n), work_array(t, n), work_array(t, n),
                         work_array(t, n), work_array(t, n), work_array(t, n))

    def _build(self):
        n = self.n
        # the rolls' face counts in ascending code order (face 6 outermost), in one step
        # with the heap locked: a generator of its own would be a frame from the heap, in
        # the middle of the engine's allocations
        locked(Dice._walk, self, n, self.roll_codes)
        yield self.nrolls * _C_WALK
        # children (one more die) of every keep smaller than a roll; sizes ascend with
        # the index, so the search needs no parent table (see maxdown)
        first_roll = self.first_roll
        for lo in range(0, first_roll, _INDEX_CHUNK):
            hi = lo + _INDEX_CHUNK if lo + _INDEX_CHUNK < first_roll else first_roll
            locked(Dice._children, self, lo, hi)
            yield 6 * (hi - lo) * _C_INDEX

    def _children(self, lo, hi):
        """children[][] of keeps lo .. hi-1."""
        start = self.start
        size = 0
        for i in range(lo, hi):
            while i >= start[size + 1]:
                size += 1
            c = self.code(i, size)
            base = self.base[size]
            for f in range(6):
                self.children[f][i] = self.index(c + (1 << (3 * f)), size + 1) - base

    def _walk(self, n, codes):
        fact = _FACTORIAL
        r = 0
        for c6 in range(n + 1):
            for c5 in range(n + 1 - c6):
                for c4 in range(n + 1 - c6 - c5):
                    for c3 in range(n + 1 - c6 - c5 - c4):
                        for c2 in range(n + 1 - c6 - c5 - c4 - c3):
                            c1 = n - c6 - c5 - c4 - c3 - c2
                            ways = fact[n] // (fact[c1] * fact[c2] * fact[c3] * fact[c4]
                                               * fact[c5] * fact[c6])
                            codes[r] = (c1 | c2 << 3 | c3 << 6 | c4 << 9 | c5 << 12 | c6 << 15
                                        | ways << WAYS_AT)
                            r += 1

    def index(self, code, size):
        """The index of the keep of `size` dice whose code is `code`: the first keep of its
        size, plus the keeps of that size whose counts of faces 6, 5, ... 2 come first."""
        i = self.start[size]
        left = size
        for f in range(5, 0, -1):
            c = (code >> (3 * f)) & 7
            if c > left:
                raise ValueError("not a multiset")
            for v in range(c):
                i += _WAYS[7 * (f - 1) + left - v]
            left -= c
        if code & 7 != left:
            raise ValueError("not a multiset")
        return i

    def code(self, i, size=-1):
        """The code of keep i (of `size` dice, if the caller knows it): index() undone."""
        if size < 0:
            size = 0
            while i >= self.start[size + 1]:
                size += 1
        rank = i - self.start[size]
        left = size
        code = 0
        for f in range(5, 0, -1):
            c = 0
            while rank >= _WAYS[7 * (f - 1) + left - c]:
                rank -= _WAYS[7 * (f - 1) + left - c]
                c += 1
            code |= c << (3 * f)
            left -= c
        return code | left

    def child(self, i, f):
        """The index of keep i (fewer than n dice) plus one die showing f."""
        size = 0
        while i >= self.start[size + 1]:
            size += 1
        return self.base[size] + self.children[f - 1][i]

    def expect(self, a, lo=0, hi=-1):
        """In place: a[i] for every keep of fewer than n dice becomes the mean (rounded) of
        its six one-more-die children; a[first_roll:] (the rolls) must hold the leaf values.
        lo, hi: only keeps lo .. hi-1 (all of them in descending chunks is the same)."""
        c1, c2, c3, c4, c5, c6 = self.children
        start = self.start
        i = (self.first_roll if hi < 0 else hi) - 1
        k = self.n - 1
        while i >= lo:  # the keeps of k dice among them, a size at a time (base[k] each)
            while i < start[k]:
                k -= 1
            b = self.base[k]
            end = start[k] if start[k] > lo else lo
            for j in range(i, end - 1, -1):
                a[j] = (a[b + c1[j]] + a[b + c2[j]] + a[b + c3[j]] + a[b + c4[j]]
                        + a[b + c5[j]] + a[b + c6[j]] + 3) // 6
            i = end - 1

    def expect_steps(self, a):
        hi = self.first_roll
        while hi > 0:
            lo = hi - CHUNK if hi > CHUNK else 0
            self.expect(a, lo, hi)
            yield (hi - lo) * C_KEEP
            hi = lo

    def maxdown_steps(self, a):
        lo = 0
        while lo < self.first_roll:
            hi = lo + CHUNK if lo + CHUNK < self.first_roll else self.first_roll
            self.maxdown(a, lo, hi)
            yield (hi - lo) * C_KEEP
            lo = hi

    def maxdown(self, a, lo=0, hi=-1):
        """In place: a[i] becomes the max of a over all sub-multisets of keep i. Pushes
        each keep's final value to its children, in index (= size) order (ascending
        chunks of lo .. hi-1 do the same)."""
        children = self.children
        start = self.start
        hi = self.first_roll if hi < 0 else hi
        i = lo
        k = 0
        while i < hi:
            while i >= start[k + 1]:
                k += 1
            b = self.base[k]
            end = start[k + 1] if start[k + 1] < hi else hi
            for j in range(i, end):
                v = a[j]
                for ch in children:
                    c = b + ch[j]
                    if v > a[c]:
                        a[c] = v
            i = end
