"""The CPU's exact in-turn search: the dice's multisets (Dice) and one rule set's Engine.

For the boxes still open, the value of ending the turn with each of the dice's multisets
(S), then, one re-roll stage at a time, the expected value of holding each kept multiset
(average over one more die at a time) and the best hold from each roll (max over
sub-multisets). The value of the position after the box is filled comes from `fut`: Expert's
table (strategy_table.Table.value), Normal's estimate (Engine.heuristic) or nothing (Greedy).

Arithmetic is integer only. Values are fixed point with ONE = 1 << 16 per point and stay
far inside 30-bit small ints (the largest sum formed is 6 x ~700 points). Work arrays are
allocated once per engine; a turn's S values are cached, so later decisions in the same
turn only redo the re-roll stages. Results are identical on CPython and MicroPython.

Every computation is a generator that yields its work in chunks of a few ms on the Pico
(each yield says how much, in COST units of about a microsecond there): picoyacht.strategy
runs them a budget a loop pass, or to the end at once. A module of its own so that the
device imports it in a loop pass apart from strategy's (each well inside a pass's 50 ms).
"""

import gc
from array import array

from micropython import const

from picoyacht import rules
from picoyacht.fast import locked

# Levels (strategy's; the same numbers as the seat kinds in game.py)
EASY = const(1)
NORMAL = const(2)
EXPERT = const(3)
GREEDY = const(4)  # bench baseline: best points this turn, nothing else

ONE = const(65536)  # fixed point: 1 point
NEG = const(-(1 << 29))
YAHTZEE_BONUS = const(100)
STAGES = const(2)  # re-roll stages searched (a classic turn has at most two re-rolls)

# Normal's tuning: picked by a small grid over seeded games of the NumPy twin
# (tools/strategy_np.py) on Yahtzee, Yatzy, Maxi and Deluxe.
PAR_W = const(230)  # an open box is worth PAR_W/256 of its par
_CHASE_P = const(32768)  # chance a die ends on the face chased for an upper box (/65536)
YZ_OPEN = const(3)  # points a Yahtzee-bonus flag is worth per open box

CHUNK = const(30)  # keeps per step of a re-roll stage
_INDEX_CHUNK = const(6)  # keeps whose children are found per step of a build
_PHI_SLOTS = const(8)  # Normal's bonus-chance rows kept (a turn needs at most 7)
# Work per yield in COST units, about 1 us each on the Pico (v1.28.0, emulated: measured per
# chunk kind). Per keep of a stage step, per roll of a box's fill, per box score evaluated,
# per child found, per (total, count) of a bonus-chance row, per value read from the table,
# per value of Normal's estimate. Six dice: a box's score and Normal's estimate cost twice as
# much (the worst roll of Maxi's 14 lower boxes took 13 ms, a Deluxe estimate 2.5 ms).
_C_KEEP = const(110)
_C_FILL = const(40)
_C_EVAL = const(420)
_C_EVAL6 = const(940)
_C_INDEX = const(180)
_C_PHI = const(27)
_C_READ = const(1000)
_C_HEUR = const(1300)
_C_HEUR6 = const(2600)
_C_SUB = const(300)  # per sub-multiset of the dice tried as a hold (64 of six dice: 18 ms)
_C_BOX = const(300)  # per box valued for the roll in hand (Maxi's 20: the card 3.8 ms)
_SUB_CHUNK = const(16)  # sub-multisets tried per step
_C_PASS = const(1 << 20)  # over any pass's budget: the next step starts a pass of its own


def _unlocked(fn, a, b, c):
    return fn(a, b, c)


def drain(steps):
    """Runs a stepwise computation to its end; its result."""
    try:
        while True:
            next(steps)
    except StopIteration as e:
        return e.value


def collect_steps():
    """A collection in a loop pass of its own. A build leaves its temporaries (16 KB for six
    dice on the Pico) and Normal's pars their generators (15 KB): left to pile up, they set
    off the collector in whichever pass next allocates, 14 ms more on a frame's pass."""
    yield _C_PASS
    gc.collect()
    yield _C_PASS


def zeros(typecode, n):
    """A zero-filled array without a temporary list (4 bytes per "i", 2 per "H")."""
    return array(typecode, bytes(n * (4 if typecode == "i" else 2)))


class Dice:
    """The multisets of 0..n dice ("keeps"), ordered by size then by packed code.

    A multiset is packed as 3 bits per face (face 1 lowest). child[6*i+f-1] is the index
    of keep i plus one die f. The keeps of exactly n dice are the rolls: r0 .. nk-1."""

    def __init__(self, n, later=False):
        self.n = n
        self.steps = self._build()
        if not later:
            drain(self.steps)

    def _build(self):
        n = self.n
        # two passes over the face counts in ascending code order (face 6 outermost):
        # count the multisets of each size, then place them; no temporary lists.
        self.start = [0] * (n + 2)
        yield from self._walk(n, None)
        for k in range(n + 1):
            self.start[k + 1] += self.start[k]
        nk = self.start[n + 1]
        self.nk = nk
        self.codes = zeros("i", nk)
        yield from self._walk(n, [0] * (n + 1))
        self.r0 = self.start[n]
        self.nr = nk - self.r0
        # children (one more die) of every keep smaller than a roll; sizes ascend with
        # the index, so the search needs no parent table (see maxdown)
        r0 = self.r0
        self.child = zeros("H", 6 * r0)
        for lo in range(0, r0, _INDEX_CHUNK):
            hi = lo + _INDEX_CHUNK if lo + _INDEX_CHUNK < r0 else r0
            locked(Dice._children, self, lo, hi)
            yield 6 * (hi - lo) * _C_INDEX

    def _children(self, lo, hi):
        """child[] of keeps lo .. hi-1."""
        start = self.start
        size = 0
        for i in range(lo, hi):
            while i >= start[size + 1]:
                size += 1
            c = self.codes[i]
            for f in range(6):
                self.child[6 * i + f] = self.index(c + (1 << (3 * f)), size + 1)

    def _walk(self, n, fill):
        for c6 in range(n + 1):
            for c5 in range(n + 1 - c6):
                yield 40 * (n + 1 - c6 - c5) * (n + 1 - c6 - c5)
                for c4 in range(n + 1 - c6 - c5):
                    for c3 in range(n + 1 - c6 - c5 - c4):
                        for c2 in range(n + 1 - c6 - c5 - c4 - c3):
                            s2 = c6 + c5 + c4 + c3 + c2
                            for c1 in range(n + 1 - s2):
                                size = s2 + c1
                                if fill is None:
                                    self.start[size + 1] += 1
                                else:
                                    self.codes[self.start[size] + fill[size]] = (
                                        c1 | c2 << 3 | c3 << 6 | c4 << 9 | c5 << 12 | c6 << 15)
                                    fill[size] += 1

    def index(self, code, size):
        lo, hi = self.start[size], self.start[size + 1] - 1
        codes = self.codes
        while lo <= hi:
            mid = (lo + hi) >> 1
            c = codes[mid]
            if c == code:
                return mid
            if c < code:
                lo = mid + 1
            else:
                hi = mid - 1
        raise ValueError("not a multiset")

    def expect(self, a, lo=0, hi=-1):
        """In place: a[i] for every keep of fewer than n dice becomes the mean (rounded) of
        its six one-more-die children; a[r0:] (the rolls) must hold the leaf values.
        lo, hi: only keeps lo .. hi-1 (all of them in descending chunks is the same)."""
        ch = self.child
        for i in range((self.r0 if hi < 0 else hi) - 1, lo - 1, -1):
            j = 6 * i
            a[i] = (a[ch[j]] + a[ch[j + 1]] + a[ch[j + 2]] + a[ch[j + 3]] + a[ch[j + 4]]
                    + a[ch[j + 5]] + 3) // 6

    def expect_steps(self, a):
        hi = self.r0
        while hi > 0:
            lo = hi - CHUNK if hi > CHUNK else 0
            self.expect(a, lo, hi)
            yield (hi - lo) * _C_KEEP
            hi = lo

    def maxdown_steps(self, a):
        lo = 0
        while lo < self.r0:
            hi = lo + CHUNK if lo + CHUNK < self.r0 else self.r0
            self.maxdown(a, lo, hi)
            yield (hi - lo) * _C_KEEP
            lo = hi

    def maxdown(self, a, lo=0, hi=-1):
        """In place: a[i] becomes the max of a over all sub-multisets of keep i. Pushes
        each keep's final value to its children, in index (= size) order (ascending
        chunks of lo .. hi-1 do the same)."""
        ch = self.child
        for i in range(lo, self.r0 if hi < 0 else hi):
            v = a[i]
            j = 6 * i
            for f in range(6):
                c = ch[j + f]
                if v > a[c]:
                    a[c] = v


class Engine:
    """One rule set's in-turn search with its preallocated work arrays."""

    def __init__(self, rs, options=None, later=False):
        """later: leave the build to build_steps() (the device spreads it over passes)."""
        self.rs = rs
        self.options = options or rules.Options()
        n = rs.ndice
        nb = rs.nboxes
        self.nb = nb
        self.nl = nb - 6  # lower boxes: their scores per roll (upper ones come from counts)
        self.dice = Dice(n, True)
        self.yzb = rs.yahtzee_box if rs.joker else -1
        self.Wb = zeros("i", nb + 1)  # lower boxes; [nb] = Yahtzee box with 50
        self.Wu = zeros("i", 6 * (n + 1))  # upper face f with k dice
        self.counts = bytearray(7)
        self.key = False  # S is valid for (k_level, k_table, k_mask, k_up, k_y)
        self.k_level = self.k_table = self.k_mask = self.k_up = self.k_y = None
        self.bv = zeros("i", nb)  # box values of the current roll
        self.states = bytearray(nb)  # the card's box states and points (box_values_steps)
        self.pts = zeros("H", nb)
        self.sub = bytearray(7)
        self.ybonus = 0
        self.par = None
        self.ops = 0  # inner-loop steps done (for the bench: a rough op count)
        self.pmf = None  # Normal's binomial pmf and bonus-chance rows: see phi_steps
        self._phi = None
        self._phi_of = None
        self._phi_next = 0
        self.a_left = -1  # A holds stage_steps(a_left) of the current S (3: start_steps), or -1
        self.ready = False
        self._build = self._build_steps()
        if not later:
            drain(self._build)

    def _build_steps(self):
        rs = self.rs
        n, nb, nl = rs.ndice, self.nb, self.nl
        d = self.dice
        yield from d.steps
        self.nr = d.nr
        counts = self.counts
        sc = bytearray(d.nr * nl)
        c_eval = _C_EVAL6 if n > 5 else _C_EVAL
        for r in range(d.nr):
            locked(Engine._score_roll, self, sc, r)
            yield nl * c_eval  # a roll a step: a Maxi roll took up to 13 ms
        self.sc = sc
        self.jsc = bytearray(6 * nb)  # Yahtzee: joker scores of five alike, per face
        self.yroll = bytearray(6)
        if rs.joker:
            for f in range(1, 7):
                for g in range(7):
                    counts[g] = 0
                counts[f] = n
                self.yroll[f - 1] = d.index(n << (3 * (f - 1)), n) - d.r0
                for b in range(nb):
                    s = rules.evaluate(rs.boxes[b], counts, True)
                    self.jsc[(f - 1) * nb + b] = s if s > 0 else 0
                yield nb * c_eval
        self.S = zeros("i", d.nr)
        self.A = zeros("i", d.nk)
        self.ready = True
        yield from collect_steps()

    def _score_roll(self, sc, r):
        """sc's row for roll r: its points in each lower box."""
        d = self.dice
        counts = self.counts
        code = d.codes[d.r0 + r]
        for f in range(6):
            counts[f + 1] = (code >> (3 * f)) & 7
        boxes = self.rs.boxes
        row = r * self.nl - 6
        for b in range(6, self.nb):
            s = rules.evaluate(boxes[b], counts)
            sc[row + b] = s if s > 0 else 0

    def build_steps(self):
        """Finishes this engine's build, wherever it was left (whoever asks first)."""
        for cost in self._build:
            yield cost
        if not self.ready:  # the build died (MemoryError): this engine is unusable
            raise MemoryError("engine build")

    # ---- position ---------------------------------------------------------------------
    def prepare_steps(self, game, level, table):
        """Fill S for this turn's position (cached while the position is unchanged)."""
        seat = game.current
        mask = game.filled[seat]
        up = game.upper_total(seat)
        y = 0
        if self.yzb >= 0 and game.is_filled(seat, self.yzb) and game.box_score(seat, self.yzb):
            y = 1
        if (self.key and self.k_level == level and self.k_table is table
                and self.k_mask == mask and self.k_up == up and self.k_y == y):
            return
        self.key = False
        self.a_left = -1
        normal = False
        if level == EXPERT:
            fut = table.value
            cost = _C_READ
        elif level == GREEDY:
            fut = _zero
            cost = 0
        else:
            normal = True
            fut = self.heuristic
            cost = _C_HEUR6 if self.rs.ndice > 5 else _C_HEUR
            yield from self.pars_steps()
        yield from self._weights(mask, up, y, fut, cost, normal)
        yield from self._fill_s(mask, y)
        self.k_level, self.k_table, self.k_mask, self.k_up, self.k_y = level, table, mask, up, y
        self.key = True

    def _weights(self, mask, up, y, fut, cost, normal):
        rs = self.rs
        n = rs.ndice
        at = rs.bonus_at
        bonus = rs.upper_bonus(self.options)
        upc = up if up < at else at
        call = locked if normal else _unlocked  # Normal's estimate: 7 calls deep, no I/O
        for b in range(self.nb):
            bit = 1 << b
            if mask & bit:
                continue
            m2 = mask | bit
            if normal and self._phi_slot(~m2 & 63) < 0:  # (a generator made is garbage)
                yield from self.phi_steps(~m2 & 63)
            if b < 6:
                f = b + 1
                for k in range(n + 1):
                    u2 = up + k * f
                    pts = k * f
                    if up < at <= u2:
                        pts += bonus
                    self.Wu[b * (n + 1) + k] = pts * ONE + call(fut, m2, u2 if u2 < at else at, y)
            elif b == self.yzb:
                self.Wb[b] = call(fut, m2, upc, 0)
                self.Wb[self.nb] = call(fut, m2, upc, 1)
            else:
                self.Wb[b] = call(fut, m2, upc, y)
            yield cost * (n + 1 if b < 6 else 2)
        self.ybonus = YAHTZEE_BONUS * ONE if y else 0

    def score(self, r, b):
        """Points of roll r (0 .. nr-1) in box b, no joker."""
        if b < 6:
            return ((self.dice.codes[self.dice.r0 + r] >> (3 * b)) & 7) * (b + 1)
        return self.sc[r * self.nl + b - 6]

    def _fill_s(self, mask, y):
        S, sc, nb, nr, nl = self.S, self.sc, self.nb, self.nr, self.nl
        Wb, Wu = self.Wb, self.Wu
        codes, r0 = self.dice.codes, self.dice.r0
        n1 = self.rs.ndice + 1
        for r in range(nr):
            S[r] = NEG
        for b in range(nb):
            if mask >> b & 1:
                continue
            self.ops += nr
            if b < 6:
                base = b * n1
                sh = 3 * b
                for r in range(nr):
                    v = Wu[base + ((codes[r0 + r] >> sh) & 7)]
                    if v > S[r]:
                        S[r] = v
            elif b == self.yzb:
                w0, w50 = Wb[b], Wb[nb]
                for r in range(nr):
                    s = sc[r * nl + b - 6]
                    v = s * ONE + (w50 if s else w0)
                    if v > S[r]:
                        S[r] = v
            else:
                w = Wb[b]
                j = b - 6
                for r in range(nr):
                    v = sc[r * nl + j] * ONE + w
                    if v > S[r]:
                        S[r] = v
            yield nr * _C_FILL
        if self.yzb >= 0 and mask >> self.yzb & 1:
            for f in range(1, 7):
                S[self.yroll[f - 1]] = self._joker_best(mask, f) + self.ybonus

    def _joker_rule(self, mask, f):
        """(allowed mask, upper may score) for five f's once the Yahtzee box is filled."""
        nb = self.nb
        open_mask = ((1 << nb) - 1) & ~mask
        lower_open = open_mask & ~63
        fbit = 1 << (f - 1)
        variant = self.options.joker
        if variant == rules.JOKER_FREE:
            return open_mask, True
        if variant == rules.JOKER_FORCED and open_mask & fbit:
            return fbit, True
        if lower_open:
            return lower_open, True
        return open_mask & 63, variant != rules.JOKER_ORIGINAL

    def _joker_best(self, mask, f):
        nb = self.nb
        allowed, upper_scores = self._joker_rule(mask, f)
        use_joker = self.options.joker != rules.JOKER_FREE or mask >> (f - 1) & 1
        row = self.yroll[f - 1]
        n1 = self.rs.ndice + 1
        best = NEG
        for b in range(nb):
            if not allowed >> b & 1:
                continue
            if b < 6:
                k = self.rs.ndice if (b == f - 1 and upper_scores) else 0
                v = self.Wu[b * n1 + k]
            else:
                s = self.jsc[(f - 1) * nb + b] if use_joker else self.score(row, b)
                v = s * ONE + self.Wb[b]
            if v > best:
                best = v
        return best

    # ---- stages -------------------------------------------------------------------------
    def stage_steps(self, rolls_left):
        """A[k] = value of holding keep k and re-rolling the rest, `rolls_left` re-rolls
        to go (1 or 2); A[roll] = the value of that roll with rolls_left - 1 re-rolls.
        Kept: a later call on the same S reuses A (the advice, then a tip's action value)."""
        d, A, S = self.dice, self.A, self.S
        if self.a_left == rolls_left:
            return A
        self.a_left = -1
        r0 = d.r0
        for r in range(self.nr):
            A[r0 + r] = S[r]
        yield self.nr * _C_FILL
        yield from d.expect_steps(A)
        for _ in range(rolls_left - 1):
            yield from d.maxdown_steps(A)
            yield from d.expect_steps(A)
        self.ops += self.nr + 6 * r0 * (2 * rolls_left - 1)
        self.a_left = rolls_left
        return A

    def start_steps(self):
        """The value before the turn's first roll (three rolls ahead), in A[0]."""
        if self.a_left != STAGES + 1:
            yield from self.stage_steps(STAGES)
            self.a_left = -1
            yield from self.dice.maxdown_steps(self.A)
            yield from self.dice.expect_steps(self.A)
            self.a_left = STAGES + 1
        return self.A[0]

    def best_hold_steps(self, dice, rolls_left):
        """(keep index, value, the roll's index) over the sub-multisets of the dice; keeping
        all means scoring now (valued by S). Ties go to the larger keep index (score first)."""
        d = self.dice
        A = yield from self.stage_steps(rolls_left)
        counts = self.counts
        rules.counts_of(dice, counts)
        code = 0  # the roll's multiset: 3 bits of count per face
        for f in range(6):
            code |= counts[f + 1] << (3 * f)
        ridx = d.index(code, d.n)
        best_i = ridx
        best = self.S[ridx - d.r0]
        # Every sub-multiset (an odometer over the face counts), the empty one included;
        # keeping all is the roll itself, valued above.
        sub = self.sub
        for f in range(7):
            sub[f] = 0
        tried = 0
        while True:
            size = 0
            c = 0
            for g in range(6):
                size += sub[g + 1]
                c |= sub[g + 1] << (3 * g)
            if size < d.n:
                self.ops += 1
                i = locked(Dice.index, d, c, size)
                v = A[i]
                if v > best or (v == best and i > best_i):
                    best, best_i = v, i
                tried += 1
                if tried == _SUB_CHUNK:
                    yield tried * _C_SUB
                    tried = 0
            f = 1
            while f <= 6:
                if sub[f] < counts[f]:
                    sub[f] += 1
                    break
                sub[f] = 0
                f += 1
            if f > 6:
                break
        yield tried * _C_SUB
        return best_i, best, ridx

    def box_values_steps(self, game):
        """Fills bv[box] with the value of filling each box the game allows now (after
        prepare_steps); returns the allowed mask. The points come from one reading of the card
        with the heap locked: a preview per box redid the dice's counts and joker checks,
        each call's frame from the heap, and Maxi's 20 boxes took 12-15 ms on the
        emulated Pico, up to 33 ms on a fragmented heap."""
        allowed = game.allowed()
        pts = self.pts
        locked(type(game).card, game, self.states, pts)
        bv = self.bv
        nb = self.nb
        n1 = self.rs.ndice + 1
        bonus = game.pending_yahtzee_bonus() * ONE
        for b in range(nb):
            if not allowed >> b & 1:
                continue
            s = pts[b]
            if b < 6:
                k = s // (b + 1)
                if k > n1 - 1:
                    k = n1 - 1
                v = self.Wu[b * n1 + k]
            elif b == self.yzb:
                v = s * ONE + (self.Wb[nb] if s else self.Wb[b])
            else:
                v = s * ONE + self.Wb[b]
            bv[b] = v + bonus
        yield nb * _C_BOX
        return allowed

    def best_box_steps(self, game):
        allowed = yield from self.box_values_steps(game)
        best_b, best = -1, NEG
        for b in range(self.nb):
            if allowed >> b & 1 and self.bv[b] > best:
                best_b, best = b, self.bv[b]
        return best_b, best

    def keep_mask(self, dice, keep):
        """A held mask over the dice positions that keeps multiset `keep` (lowest positions
        first for each face)."""
        code = self.dice.codes[keep]
        mask = 0
        for i in range(len(dice)):
            sh = 3 * (dice[i] - 1)
            if (code >> sh) & 7:
                code -= 1 << sh
                mask |= 1 << i
        return mask

    # ---- Normal's position estimate -------------------------------------------------------
    def pars(self):
        """Per box: expected points when chasing that box alone for a whole turn (fixed
        point). Computed once with the same search, scoring only that box."""
        if self.par is None:  # (pars_steps() makes a generator: garbage at every call)
            drain(self.pars_steps())
        return self.par

    def pars_steps(self):
        if self.par is not None:
            return
        self.key = False
        self.a_left = -1
        par = zeros("i", self.nb)
        S, nb, nr, nl, sc = self.S, self.nb, self.nr, self.nl, self.sc
        codes, r0 = self.dice.codes, self.dice.r0
        for b in range(nb):
            self.a_left = -1  # S changes
            for r in range(nr):  # self.score(r, b), inline
                if b < 6:
                    S[r] = ((codes[r0 + r] >> (3 * b)) & 7) * (b + 1) * ONE
                else:
                    S[r] = sc[r * nl + b - 6] * ONE
            yield nr * _C_FILL
            par[b] = yield from self.start_steps()
        self.a_left = -1
        self.par = par
        yield from collect_steps()

    def phi(self, open_upper):
        """Chance (/255) that the open upper boxes still add >= need, per need (a view of
        at + 1 bytes), if each die ends on the chased face with chance _CHASE_P."""
        drain(self.phi_steps(open_upper))
        at1 = self.rs.bonus_at + 1
        i = self._phi_slot(open_upper) * at1
        return memoryview(self._phi)[i:i + at1]

    def _phi_slot(self, open_upper):
        of = self._phi_of
        if of is None:  # no row yet
            return -1
        for i in range(_PHI_SLOTS):
            if of[i] == open_upper:
                return i
        return -1

    def phi_steps(self, open_upper):
        """Computes the row of phi for these open upper boxes into a slot, unless there:
        per need 0..bonus_at, the chance (/255) that they still add >= need if each die
        ends on the chased face with chance _CHASE_P (the rows and work arrays are
        allocated once: _PHI_SLOTS rows, oldest replaced; _phi_slot finds a row)."""
        at = self.rs.bonus_at
        n = self.rs.ndice
        if self._phi is None:
            self.pmf = _binomial(n, _CHASE_P)
            self._phi = bytearray(_PHI_SLOTS * (at + 1))
            self._phi_of = bytearray(b"\xff" * _PHI_SLOTS)
            self._dist = zeros("i", 2 * (at + 1))
        if self._phi_slot(open_upper) >= 0:
            return
        pmf = self.pmf
        dist = self._dist  # two rows: the distribution so far, the next one
        at1 = at + 1
        for s in range(2 * at1):
            dist[s] = 0
        dist[0] = ONE
        cur = 0
        for f in range(1, 7):
            if not open_upper >> (f - 1) & 1:
                continue
            new = at1 - cur
            for s in range(at1):
                dist[new + s] = 0
            for s in range(at + 1):
                p = dist[cur + s]
                if not p:
                    continue
                for k in range(n + 1):
                    s2 = s + k * f
                    if s2 > at:
                        s2 = at
                    # (p * pmf[k]) >> 16 without a 32-bit product (a heap int on the Pico)
                    q = pmf[k]
                    dist[new + s2] += ((p >> 8) * q + (((p & 255) * q) >> 8)) >> 8
            cur = new
            yield at1 * (n + 1) * _C_PHI
        slot = self._phi_next
        self._phi_next = (slot + 1) % _PHI_SLOTS
        self._phi_of[slot] = 255  # invalid until written
        t = self._phi
        base = slot * at1
        tail = 0
        for need in range(at, -1, -1):
            tail += dist[cur + need]
            t[base + need] = (tail * 255 + 32768) >> 16 if tail < ONE else 255
        self._phi_of[slot] = open_upper

    def heuristic(self, mask, up, y):
        rs = self.rs
        nb = self.nb
        par = self.pars()
        v = 0
        nopen = 0
        for b in range(nb):
            if not mask >> b & 1:
                v += par[b]
                nopen += 1
        v = (v >> 8) * PAR_W
        at = rs.bonus_at
        if up < at:
            slot = self._phi_slot(~mask & 63)
            if slot < 0:
                drain(self.phi_steps(~mask & 63))
                slot = self._phi_slot(~mask & 63)
            p = self._phi[slot * (at + 1) + at - up]
            v += (rs.upper_bonus(self.options) * ONE // 255) * p
        if y:
            v += nopen * YZ_OPEN * ONE
        return v


def _zero(mask, up, y):
    return 0


def _binomial(n, p):
    """Binomial pmf (fixed point /65536) for n trials with chance p/65536, integers only."""
    q = ONE - p
    out = []
    c = 1
    for k in range(n + 1):
        v = c * ONE
        for _ in range(k):
            v = (v * p) >> 16
        for _ in range(n - k):
            v = (v * q) >> 16
        out.append(v)
        c = c * (n - k) // (k + 1)
    return out
