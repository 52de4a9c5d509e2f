"""Normal's estimate of what a position is worth, the future its search weighs each box by
(picoyacht.engine): every open box is worth PAR_W/256 of its par (what chasing that box
alone for one turn scores on average, from the engine's own search) times its later
chances, plus the upper bonus times the chance of still reaching it, plus YZ_OPEN per open
box once a Yahtzee bonus is in reach.

Later chances: a box that one turn's chase fills with points only now and then (a Yahtzee,
a straight) is worth more while many boxes are open, for there are turns to come back to
it. With hit the chance that a turn's chase scores in it and n boxes open, it counts as
1 + (n - 1) / tries turns: its par times (1 - (1 - hit)^that) / hit, tries the rule set's
(_TRIES_OF). The hit chances are the rule set's alone (_HITS, measured once by
tools/tables/chase_chances.py with this search).

The chance comes from rows of phi, per set of open upper boxes: for each need, the chance
(/255) that those boxes still add at least that much if each die ends on the chased face
with the rule set's chance (_CHASE_OF). A module apart from the engine, imported only
when a Normal seat or coach first needs it, so an Expert's game never holds it.
"""

from micropython import const

from picoyacht.dice import drain, zeros
from picoyacht.engine_tables import collect_steps

# Normal's tuning: picked by small grids over seeded games of the NumPy twin
# (tools/tables/strategy_np.py; tools/tables/normal_vs_ref.py plays it against an older
# tree's over the same dice). PAR_W and YZ_OPEN serve every rule set; the two below are per
# rule set, four bits each by rule set id (id 0 in the lowest bits), for the twenty-box
# games (Maxi, Casino 6) play better with other values than the rest.
PAR_W = const(230)  # an open box is worth PAR_W/256 of its par
YZ_OPEN = const(3)  # points a Yahtzee-bonus flag is worth per open box
# Each further open box is 1/tries of a turn's chance at this one
_TRIES_OF = const(0x599555)
# A die's chance to end on the face chased for an upper box: 1/2 + this/64
_CHASE_OF = const(0x025000)
# engine.ONE and engine's _C_FILL, copied: mpy-cross folds only a module's own consts, and
# these are read in the search's loops (host_tests/test_layers.py holds the copies equal)
_ONE = const(65536)  # a point, or a chance of 1, in the engine's fixed point
_ROWS = const(8)  # rows of phi kept (a turn needs at most 7)
# Work per yield in COST units: per roll valued for a par (as the engine's fill), per
# (total, count) of a row of phi
_C_FILL = const(40)
_C_PHI = const(27)
# Per rule set (by id), per box: the chance (/255) that a turn chasing only that box scores
# in it. Written by tools/tables/chase_chances.py.
_HITS = (
    b'\xee\xee\xee\xee\xee\xee\xbeJ]\x9dC\x0c\xff',  # Yahtzee
    b'\xee\xee\xee\xee\xee\xee\xff\xbd\xbeJ22]\xff\x0c',  # Yatzy
    b'\xee\xee\xee\xee\xee\xee\xff\xbd\xbeJ22]\xff\x0c',  # Casino 5
    b'\xf5\xf5\xf5\xf5\xf5\xf5\xff\xf2F\xe3\x80(pp2\xc2)2\xff\x05',  # Casino 6
    b'\xf5\xf5\xf5\xf5\xf5\xf5\xff\xf2F\xe3\x80(pp2\xc2)2\xff\x05',  # Maxi Yatzy
    b'\xf5\xf5\xf5\xf5\xf5\xf5L*22\x05\x84(\xff',  # Deluxe
)


class NormalEstimate:
    """Normal's estimate for one engine (its rule set, options and pars)."""

    def __init__(self, engine):
        self.engine = engine
        self.par = None
        rs = engine.rs
        at1 = rs.bonus_at + 1
        self.pmf = _binomial(rs.ndice, 32768 + (((_CHASE_OF >> (4 * rs.id)) & 15) << 10))
        self.rows = bytearray(_ROWS * at1)
        self.row_of = bytearray(b"\xff" * _ROWS)  # the open upper boxes of each row
        self.next_row = 0
        self.dist = zeros("i", 2 * at1)

    def pars(self):
        """Per box: expected points when chasing that box alone for a whole turn (fixed
        point). Computed once with the engine's search, scoring only that box. After the
        nb pars: each box's (1 - hit) ^ (1 / tries), then its par times its later chances
        and last the open boxes those are for (value() fills them)."""
        if self.par is None:  # (pars_steps() makes a generator: garbage at every call)
            drain(self.pars_steps())
        return self.par

    def pars_steps(self):
        if self.par is not None:
            return
        e = self.engine
        e.key = False  # roll_values changes: the engine's position is gone
        nb, nrolls = e.nb, e.nrolls
        par = zeros("i", 3 * nb + 1)  # one array: heap
        roll_values = e.roll_values
        codes = e.dice.roll_codes
        hits = _HITS[e.rs.id]
        tries = (_TRIES_OF >> (4 * e.rs.id)) & 15
        for b in range(nb):
            e.hold_stage = -1  # roll_values changes
            if b < 6:  # e.score(r, b), inline
                for r in range(nrolls):
                    roll_values[r] = ((codes[r] >> (3 * b)) & 7) * (b + 1) * _ONE
            else:
                scores = e.roll_scores[b - 6]
                for r in range(nrolls):
                    roll_values[r] = scores[r] * _ONE
            yield nrolls * _C_FILL
            if e.doubles:  # Sharp Dice: a one-throw roll's points in this box, doubled or not
                e.one_throw_scale = 2 if e.doubles >> b & 1 else 1
            par[b] = yield from e.start_steps()
            miss = _ONE - 257 * hits[b]
            lo, hi = 0, _ONE  # miss ^ (1 / tries), by bisection
            while hi - lo > 1:
                mid = (lo + hi) >> 1
                p = _ONE
                for _ in range(tries):  # (p * mid) >> 16 without a big int
                    p = ((p >> 8) * mid + (((p & 255) * mid) >> 8)) >> 8
                if p <= miss:
                    lo = mid
                else:
                    hi = mid
            par[nb + b] = lo
        par[3 * nb] = -1
        e.hold_stage = -1
        e.one_throw_scale = 0  # (prepare_steps sets it too: a decision's values are the card's)
        self.par = par
        yield from collect_steps()

    def row(self, open_upper):
        """The index of phi's row for these open upper boxes, or -1 if not made yet."""
        of = self.row_of
        for i in range(_ROWS):
            if of[i] == open_upper:
                return i
        return -1

    def row_steps(self, open_upper):
        """Makes phi's row for these open upper boxes, unless there (the oldest row goes)."""
        if self.row(open_upper) >= 0:
            return
        rs = self.engine.rs
        at = rs.bonus_at
        n = rs.ndice
        pmf = self.pmf
        dist = self.dist  # two rows: the distribution so far, the next one
        at1 = at + 1
        for s in range(2 * at1):
            dist[s] = 0
        dist[0] = _ONE
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
        slot = self.next_row
        self.next_row = (slot + 1) % _ROWS
        self.row_of[slot] = 255  # invalid until written
        t = self.rows
        base = slot * at1
        tail = 0
        for need in range(at, -1, -1):
            tail += dist[cur + need]
            t[base + need] = (tail * 255 + 32768) >> 16 if tail < _ONE else 255
        self.row_of[slot] = open_upper

    def value(self, mask, up, y):
        """The position's worth: mask the filled boxes, up the upper total (capped at the
        bonus's threshold), y 1 once a Yahtzee bonus is in reach."""
        e = self.engine
        rs = e.rs
        par = self.pars()
        nb = e.nb
        nopen = 0
        for b in range(nb):
            if not mask >> b & 1:
                nopen += 1
        if par[3 * nb] != nopen:  # each box's par times its later chances, nopen open
            tries = (_TRIES_OF >> (4 * rs.id)) & 15
            for b in range(nb):
                r = par[nb + b]
                p = miss = _ONE
                for k in range(tries + nopen - 1):  # p = r ^ that, miss = r ^ tries
                    p = ((p >> 8) * r + (((p & 255) * r) >> 8)) >> 8
                    if k == tries - 1:
                        miss = p
                hit = _ONE - miss
                par[2 * nb + b] = (par[b] >> 8) * (((_ONE - p) << 8) // hit) if hit else par[b]
            par[3 * nb] = nopen
        v = 0
        for b in range(nb):
            if not mask >> b & 1:
                v += par[2 * nb + b]
        v = (v >> 8) * PAR_W
        at = rs.bonus_at
        if up < at:
            i = self.row(~mask & 63)
            if i < 0:
                drain(self.row_steps(~mask & 63))
                i = self.row(~mask & 63)
            v += (rs.upper_bonus(e.options) * _ONE // 255) * self.rows[i * (at + 1) + at - up]
        if y:
            v += nopen * YZ_OPEN * _ONE
        return v


def _binomial(n, p):
    """Binomial pmf (fixed point /65536) for n trials with chance p/65536, integers only."""
    q = _ONE - p
    out = []
    c = 1
    for k in range(n + 1):
        v = c * _ONE
        for _ in range(k):
            v = (v * p) >> 16
        for _ in range(n - k):
            v = (v * q) >> 16
        out.append(v)
        c = c * (n - k) // (k + 1)
    return out
