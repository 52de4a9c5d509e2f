"""The CPU's exact in-turn search for one rule set (Engine), over the keeps of picoyacht.dice
and the score tables of picoyacht.engine_tables (which Engine extends).

For the boxes still open, the value of ending the turn with each roll (roll_values), then,
one re-roll stage at a time, the expected value of holding each keep (average over one more
die at a time) and the best hold from each roll (max over its sub-multisets): hold_values.
The value of the position after a box is filled comes from `fut`: Expert's table
(strategy_table.Table.value), Normal's estimate (picoyacht.estimate) or nothing (Greedy).

Glossary of the work arrays (one per engine, allocated once; the tables: engine_tables):
    upper_future[b * (n + 1) + k]     value of filling upper box b with k dice, bonus
                                      included, plus the position it leaves
    lower_future[b]                   the position left by filling lower box b (with the
                                      joker box's 50 points: lower_future[nb])
    roll_values[r]                    the turn ended with roll r: best open box for it
    hold_values[keep]                 the value of holding keep, hold_stage re-rolls to go
    box_values[b]                     filling box b with the roll in hand
    doubled_values[i]                 Sharp Dice: roll start + i's best doubled box, for a
                                      chunk of rolls (one_throw.one_throw_value; None without it)
    joker_box                         the Yahtzee box when the rule set has jokers, else -1

Sharp Dice: a roll from one throw of all the dice (the first, or a re-roll holding nothing)
scores its lower boxes but Chance double. So holding nothing differs from every other hold:
hold_values[0] (the empty keep) is the mean over one-throw rolls, whose values are
max(one_throw_value, the plain roll's value) at each stage (doubling only adds, so a
one-throw roll can do whatever a plain one can, and score more now), weighted by how many
of the 6^n throws show each roll (stored in its code, see picoyacht.dice). A one-throw
roll's value is worked out where it is needed, from roll_values and the doubled boxes
alone, rather than kept in an array of its own: the frozen build's heap has no room for
another array as long as roll_values while the engine is built.

Arithmetic is integer only. Values are fixed point with ONE = 1 << 16 per point and stay
far inside 30-bit small ints (the largest sum formed is a few thousand points). A turn's
roll_values are cached, so later decisions in the same turn only redo the re-roll stages.
Results are identical on CPython and MicroPython.

Every computation is a generator that yields its work in chunks of a few ms on the Pico
(each yield says how much, in COST units of about a microsecond there): picoyacht.strategy
runs them a budget a loop pass, or to the end at once. Sharp Dice's one-throw values and the
joker's best box are picoyacht.one_throw's.
"""

from micropython import const

from picoyacht import rules
from picoyacht.dice import drain, zeros
from picoyacht.engine_tables import EngineTables
from picoyacht.heap import locked
from picoyacht.one_throw import joker_best, one_throw_steps, one_throw_value
from picoyacht.rules import CPU_EXPERT as EXPERT
from picoyacht.rules import CPU_NORMAL as NORMAL  # noqa: F401  (a level of this API)
from picoyacht.rules import YAHTZEE_BONUS

# Levels (strategy's): NORMAL and EXPERT are the seat kinds of rules, imported above
EASY = const(1)
GREEDY = const(4)  # bench baseline: best points this turn, nothing else

ONE = const(65536)  # fixed point: 1 point
NEG = const(-0x20000000)  # below any value: -(1 << 29)
STAGES = const(2)  # re-roll stages searched (a classic turn has at most two re-rolls)

# Work per yield in COST units, set per chunk kind on the emulated Pico so that a unit is
# about the same time whatever the work: per roll of a box's fill, per value of Normal's
# estimate (six dice: about twice as much). Expert's table counts the work of its own reads
# (strategy_table.Table.work).
_C_FILL = const(40)
_C_HEUR = const(1300)
_C_HEUR6 = const(2600)
_C_SUB = const(300)  # per sub-multiset of the dice tried as a hold
_C_BOX = const(300)  # per box valued for the roll in hand
_SUB_CHUNK = const(16)  # sub-multisets tried per step
_MEAN_CHUNK = const(16)  # Sharp Dice: rolls per step of the one-throw mean (one_throw)


def _unlocked(fn, a, b, c):
    return fn(a, b, c)


class Engine(EngineTables):
    """One rule set's in-turn search with its preallocated work arrays."""

    def __init__(self, rs, options=None, later=False):
        """later: leave the build to build_steps() (the device spreads it over passes)."""
        EngineTables.__init__(self, rs, options)
        n = rs.ndice
        nb = rs.nboxes
        self.lower_future = zeros("i", nb + 1)  # lower boxes; [nb] = Yahtzee box with 50
        self.upper_future = zeros("i", 6 * (n + 1))  # upper face f with k dice
        self.key = False  # roll_values is valid for (k_level, k_table, k_mask, k_up, k_y)
        self.k_level = self.k_table = self.k_mask = self.k_up = self.k_y = None
        self.box_values = zeros("i", nb)  # box values of the current roll
        # Sharp Dice: a chunk of rolls' doubled values (see one_throw_value)
        self.doubled_values = zeros("i", _MEAN_CHUNK) if self.doubles else None
        self.states = bytearray(nb)  # the card's box states and points (box_values_steps)
        self.pts = zeros("H", nb)
        self.subs = zeros("i", 4)  # best_hold_steps' odometer (see try_holds)
        self.ybonus = 0
        self.normal = None  # Normal's estimate (picoyacht.estimate), once a level needs it
        self.ops = 0  # inner-loop steps done (for the bench: a rough op count)
        # hold_values holds stage_steps(hold_stage) of the current roll_values
        # (STAGES + 1: start_steps), or -1
        self.hold_stage = -1
        if not later:
            drain(self.build_steps())

    # ---- position ---------------------------------------------------------------------
    def prepare_steps(self, game, level, table):
        """Fill roll_values for this turn's position (cached while the position is unchanged)."""
        seat = game.current
        mask = game.filled[seat]
        up = game.upper_total(seat)
        y = 0
        jb = self.joker_box
        if jb >= 0 and game.is_filled(seat, jb) and game.box_score(seat, jb):
            y = 1
        if (self.key and self.k_level == level and self.k_table is table
                and self.k_mask == mask and self.k_up == up and self.k_y == y):
            return
        self.key = False
        self.hold_stage = -1
        normal = None
        if level == EXPERT:
            fut = table.value
            cost = 0
        elif level == GREEDY:
            fut = _zero
            cost = 0
        else:
            normal = self.estimate()
            fut = normal.value
            cost = _C_HEUR6 if self.rs.ndice > 5 else _C_HEUR
            yield from normal.pars_steps()
        yield from self._weights(mask, up, y, fut, cost, normal, table if level == EXPERT else None)
        yield from self._fill_s(mask, y)
        self.one_throw_scale = 0
        self.k_level, self.k_table, self.k_mask, self.k_up, self.k_y = level, table, mask, up, y
        self.key = True

    def _weights(self, mask, up, y, fut, cost, normal, table):
        """The future of each box filled (see the glossary); normal: Normal's estimate, if
        fut is its value (its rows for the open upper boxes are made first); table:
        Expert's, if fut is its value (a box's chunk costs what its reads did)."""
        rs = self.rs
        n = rs.ndice
        at = rs.bonus_at
        bonus = rs.upper_bonus(self.options)
        upc = up if up < at else at
        call = _unlocked if normal is None else locked  # Normal's estimate: 7 calls deep, no I/O
        for b in range(self.nb):
            bit = 1 << b
            if mask & bit:
                continue
            m2 = mask | bit
            if normal is not None and normal.row(~m2 & 63) < 0:  # (a generator is garbage)
                yield from normal.row_steps(~m2 & 63)
            if table is not None:
                table.work = 0
            if b < 6:
                f = b + 1
                for k in range(n + 1):
                    u2 = up + k * f
                    pts = k * f
                    if up < at <= u2:
                        pts += bonus
                    later = call(fut, m2, u2 if u2 < at else at, y)
                    self.upper_future[b * (n + 1) + k] = pts * ONE + later
            elif b == self.joker_box:
                self.lower_future[b] = call(fut, m2, upc, 0)
                self.lower_future[self.nb] = call(fut, m2, upc, 1)
            else:
                self.lower_future[b] = call(fut, m2, upc, y)
            yield cost * (n + 1 if b < 6 else 2) + (table.work if table is not None else 0)
        self.ybonus = YAHTZEE_BONUS * ONE if y else 0

    def _fill_s(self, mask, y):
        """roll_values[r]: the turn ended with roll r."""
        roll_scores, roll_values = self.roll_scores, self.roll_values
        nb, nrolls = self.nb, self.nrolls
        lower_future, upper_future = self.lower_future, self.upper_future
        codes = self.dice.roll_codes
        n1 = self.rs.ndice + 1
        for r in range(nrolls):
            roll_values[r] = NEG
        for b in range(nb):
            if mask >> b & 1:
                continue
            self.ops += nrolls
            if b < 6:
                base = b * n1
                sh = 3 * b
                for r in range(nrolls):
                    v = upper_future[base + ((codes[r] >> sh) & 7)]
                    if v > roll_values[r]:
                        roll_values[r] = v
            elif b == self.joker_box:
                w0, w50 = lower_future[b], lower_future[nb]
                scores = roll_scores[b - 6]
                for r in range(nrolls):
                    s = scores[r]
                    v = s * ONE + (w50 if s else w0)
                    if v > roll_values[r]:
                        roll_values[r] = v
            else:
                w = lower_future[b]
                scores = roll_scores[b - 6]
                for r in range(nrolls):
                    v = scores[r] * ONE + w
                    if v > roll_values[r]:
                        roll_values[r] = v
            yield nrolls * _C_FILL
        if self.joker_box >= 0 and mask >> self.joker_box & 1:
            for f in range(1, 7):
                v = joker_best(self, mask, f, 0)
                roll_values[self.yahtzee_rolls[f - 1]] = v + self.ybonus

    # ---- stages -------------------------------------------------------------------------
    def stage_steps(self, rolls_left):
        """hold_values[k] = value of holding keep k and re-rolling the rest, `rolls_left`
        re-rolls to go (1 or 2); hold_values[roll] = the value of that roll with
        rolls_left - 1 re-rolls. Kept: a later call on the same roll_values reuses them (the
        advice, then a tip's action value)."""
        d, hold_values, roll_values = self.dice, self.hold_values, self.roll_values
        if self.hold_stage == rolls_left:
            return hold_values
        self.hold_stage = -1
        first_roll = d.first_roll
        for r in range(self.nrolls):
            hold_values[first_roll + r] = roll_values[r]
        yield self.nrolls * _C_FILL
        for stage in range(rolls_left):
            if stage:
                yield from d.maxdown_steps(hold_values)
            yield from d.expect_steps(hold_values)
            if self.doubles:
                hold_values[0] = yield from one_throw_steps(self)
        self.ops += self.nrolls + 6 * first_roll * (2 * rolls_left - 1)
        self.hold_stage = rolls_left
        return hold_values

    def start_steps(self):
        """The value before the turn's first roll (three rolls ahead), in hold_values[0]. The
        first roll is one throw of all the dice."""
        if self.hold_stage != STAGES + 1:
            hold_values = yield from self.stage_steps(STAGES)
            self.hold_stage = -1
            yield from self.dice.maxdown_steps(hold_values)
            if self.doubles:
                hold_values[0] = yield from one_throw_steps(self)
            else:
                yield from self.dice.expect_steps(hold_values)
            self.hold_stage = STAGES + 1
        return self.hold_values[0]

    def best_hold_steps(self, dice, rolls_left, one_throw=False):
        """(keep index, value, the roll's index) over the sub-multisets of the dice; keeping
        all means scoring now (valued by roll_values, or as a one-throw roll if the dice came
        from one throw of all of them). Ties go to the larger keep index (score first)."""
        d = self.dice
        hold_values = yield from self.stage_steps(rolls_left)
        counts = self.counts
        rules.counts_of(dice, counts)
        code = 0  # the roll's multiset: 3 bits of count per face
        for f in range(6):
            code |= counts[f + 1] << (3 * f)
        ridx = d.index(code, d.n)
        best_i = ridx
        best = self.roll_values[ridx - d.first_roll]
        if one_throw and self.doubles:
            best = locked(one_throw_value, self, ridx - d.first_roll, best)
        # Every sub-multiset (an odometer over the face counts), the empty one included;
        # keeping all is the roll itself, valued above. A chunk of them a call, locked: a
        # call a sub-multiset took a frame from the heap each, and on a fragmented heap each
        # such search outlasted the chunk's own work.
        subs = self.subs
        subs[0] = subs[1] = 0
        subs[2] = best
        subs[3] = best_i
        while True:
            tried = locked(try_holds, self, hold_values, code)
            last = tried < 0
            if last:
                tried = -1 - tried
            self.ops += tried
            yield tried * _C_SUB
            if last:
                break
        return subs[3], subs[2], ridx

    def box_values_steps(self, game):
        """Fills box_values[box] with the value of filling each box the game allows now (after
        prepare_steps); returns the allowed mask. One locked call: the card's reading and
        the game's checks each took a frame from the heap, which on a fragmented heap
        outran a pass."""
        allowed = locked(Engine._box_values, self, game, None)
        yield self.nb * _C_BOX
        return allowed

    def _box_values(self, game, _):
        """box_values_steps' work; the allowed mask. The points come from one reading of the
        card (game.card): a preview per box redid the dice's counts and joker checks."""
        allowed = game.allowed()
        pts = self.pts
        game.card(self.states, pts)
        box_values = self.box_values
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
                v = self.upper_future[b * n1 + k]
            elif b == self.joker_box:
                v = s * ONE + (self.lower_future[nb] if s else self.lower_future[b])
            else:
                v = s * ONE + self.lower_future[b]
            box_values[b] = v + bonus
        return allowed

    def best_box_steps(self, game):
        allowed = yield from self.box_values_steps(game)
        best_b, best = -1, NEG
        for b in range(self.nb):
            if allowed >> b & 1 and self.box_values[b] > best:
                best_b, best = b, self.box_values[b]
        return best_b, best

    # ---- Normal's position estimate -------------------------------------------------------
    def pars(self):
        """Per box: its par, Normal's (picoyacht.estimate)."""
        return self.estimate().pars()

    def pars_steps(self):
        return self.estimate().pars_steps()

    def estimate(self):
        """Normal's estimate for this engine, made (its module imported) on first use."""
        if self.normal is None:
            from picoyacht.estimate import NormalEstimate

            self.normal = NormalEstimate(self)
        return self.normal

    def phi(self, open_upper):
        """Chance (/255) that the open upper boxes still add >= need, per need (a view of
        bonus_at + 1 bytes): Normal's estimate's row for them."""
        est = self.estimate()
        drain(est.row_steps(open_upper))
        at1 = self.rs.bonus_at + 1
        i = est.row(open_upper) * at1
        return memoryview(est.rows)[i:i + at1]

    def heuristic(self, mask, up, y):
        """Normal's estimate of the position (see picoyacht.estimate)."""
        return self.estimate().value(mask, up, y)


def try_holds(e, hold_values, roll):
    """Up to _SUB_CHUNK more sub-multisets of `roll` (a code) tried as holds, from where
    e.subs left off (the odometer's next code and its size, then the best value and
    keep so far): how many, or -1 minus how many once the last was tried. It allocates
    nothing and stores its state once, at its end, so that locked() may run it again."""
    d = e.dice
    subs = e.subs
    code = subs[0]
    size = subs[1]
    best = subs[2]
    best_i = subs[3]
    tried = 0
    while tried < _SUB_CHUNK:
        if size < d.n:
            i = d.index(code, size)
            v = hold_values[i]
            if v > best or (v == best and i > best_i):
                best, best_i = v, i
            tried += 1
        sh = 0
        while sh < 18:  # the next sub-multiset: face 1's count turns fastest
            k = code >> sh & 7
            if k < roll >> sh & 7:
                code += 1 << sh
                size += 1
                break
            code -= k << sh
            size -= k
            sh += 3
        if sh == 18:
            tried = -1 - tried
            break
    subs[0] = code
    subs[1] = size
    subs[2] = best
    subs[3] = best_i
    return tried


def _zero(mask, up, y):
    return 0
