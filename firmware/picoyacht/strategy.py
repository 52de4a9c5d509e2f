"""CPU players and the coach: Easy, Normal and Expert, all on the device.

Every level that thinks ahead runs picoyacht.engine's exact in-turn search; what differs is
the value of the position after the box is filled:

- Expert reads it from a precomputed table on flash (see strategy_table.Table), which makes
  it the optimal solitaire policy (maximum expected final score) for the rules the table
  was built for (rule set, joker rule, Sharp Dice); with no such table it plays as Normal.
- Normal estimates it: every open box is worth a share of its "par" (what chasing it alone
  for one turn scores on average), plus the upper bonus times an estimate of the chance of
  still reaching it. No table, works for every rule set (Maxi's saved rolls included).
- Greedy (a bench baseline, not a seat level) maximizes this turn's points only.
- Easy plays like a casual person and makes mistakes: no search at all.

Stepwise: every computation is a generator that yields its work in chunks of a few ms on
the Pico (each yield says how much work, in COST units of about a microsecond there), so
the device spreads a decision over loop passes (Thinking); the one-shot functions below
run the same generators to the end, so both give the same answers by construction.

Public API (units: `value` and costs are centi-points, i.e. 25459 = 254.59 points); a
generator's answer comes from Thinking, or at once from run(steps):
    advise_steps(game, level=EXPERT, table=None) -> (kind, arg, value)
        kind HOLD: arg is the held mask to set before rolling (0 = roll everything, also
        the answer before the turn's first roll); kind SCORE: arg is the box to fill.
        value: expected final total of the seat (banked points + expected rest) after the
        recommended action; Normal's is its own estimate, not a true expectation, until
        final_gap.expected_total(game, value, table) adds back what it leaves out.
    cpu_step(game, level, table=None, rng=None) -> (kind, arg)    one action for a CPU seat
    action_value_steps(game, kind, arg, level=EXPERT, table=None) -> centi-points, same scale
    move_cost(game, kind, arg, table=None) -> centi-points given away (>= 0)
    judge_steps(game, kind, arg, table=None) -> (that cost, best action: kind << 8 | arg)
    Proficiency                                                    game-over summary
    strategy_table.load(game) -> Table or None        finds the table that serves the game
    Thinking(steps_fn, *args)                                     a stepwise computation:
        step(budget) -> True when done (then .result); advise_steps, cpu_steps,
        judge_steps are the generators it runs
"""

from micropython import const

from picoyacht import rules
from picoyacht.engine import (
    EASY,
    EXPERT,
    GREEDY,  # noqa: F401  (a level of this API: the bench's baseline)
    NORMAL,
    STAGES,
    Engine,
    drain,
)

HOLD = const(0)
SCORE = const(1)

_epoch = 0  # bumped by every one-shot run: a half-done Thinking then starts over


def run(steps):
    """A stepwise computation run to its end at once; its result. The engine's work arrays
    are shared, so any Thinking left half-way restarts (see Thinking)."""
    global _epoch
    _epoch = (_epoch + 1) & 0xFFFFFF
    return drain(steps)


class Thinking:
    """fn(*args) (a generator of this module) run a budget at a time, over loop passes.
    If a one-shot call used the engine in between, it starts over: same answer."""

    def __init__(self, fn, *args):
        self.fn = fn
        self.args = args
        self.gen = None
        self.seen = -1
        self.done = False
        self.result = None

    def step(self, budget):
        """About `budget` COST units of work (at least one chunk); True once .result is
        the answer."""
        if self.done:
            return True
        if self.gen is None or self.seen != _epoch:
            self.gen = self.fn(*self.args)
        spent = 0
        try:
            while spent < budget:
                spent += next(self.gen)
        except StopIteration as e:
            self.result = e.value
            self.done = True
            self.gen = None
        except Exception:
            self.gen = None  # start over if asked again
            raise
        self.seen = _epoch
        return self.done


def to_centi(v):
    """Fixed point (ONE per point) to centi-points, rounded; no big ints for |v| < 2^29."""
    if v < 0:
        return -to_centi(-v)
    return ((v >> 2) * 25 + 2048) >> 12



# ---- engine cache (one engine held at a time: RAM) -------------------------------------------
_engine = None


def engine_steps(game):
    global _engine
    e = _engine
    if e is not None and e.rs is game.rs and e.options is not game.options:
        if e.options.pack() == game.options.pack():
            e.options = game.options  # same rules: keep the engine, skip this check next time
    if e is None or e.rs is not game.rs or e.options is not game.options:
        e = None
        _engine = None
        e = Engine(game.rs, game.options, True)
        _engine = e
    try:
        if not e.ready:
            yield from e.build_steps()
        e.regain()
    except MemoryError:
        _engine = None
        raise
    return e


def release():
    """Drops the engine: its work arrays are most of a game's heap, wanted back when the
    game is over (the next game's first decision builds them again)."""
    global _engine
    _engine = None


def lend():
    """A save out of heap: the engine lends it its largest work array's run (Engine.lend);
    False when there is no engine to lend one."""
    if _engine is None or not _engine.ready or _engine.hold_values is None:
        return False
    _engine.lend()
    return True


def _searching_level(game, level, table):
    if level == EASY:
        level = NORMAL
    if level == EXPERT:
        if table is None or not table.serves(game):
            return NORMAL
    return level


def advise_steps(game, level=EXPERT, table=None):
    """The recommended action now, as (kind, arg, value in centi-points). See the module
    docstring. Easy is not a coach: with EASY it answers like NORMAL."""
    if game.over:
        return SCORE, -1, 0
    level = _searching_level(game, level, table)
    e = yield from engine_steps(game)
    yield from e.prepare_steps(game, level, table)
    seat = game.current
    banked = game.total(seat) * 100
    if not game.rolls_used:
        v = yield from e.start_steps()
        return HOLD, 0, banked + to_centi(v)
    left = game.rolls_left
    if left > STAGES:
        left = STAGES
    if left > 0:
        keep, v, ridx = yield from e.best_hold_steps(game.dice, left, game.single_roll)
        if keep != ridx:
            return HOLD, e.keep_mask(game.dice, keep), banked + to_centi(v)
    b, v = yield from e.best_box_steps(game)
    return SCORE, b, banked + to_centi(v)


def action_value_steps(game, kind, arg, level=EXPERT, table=None):
    """Value (centi-points, advise_steps' scale) of a given action now: HOLD with a held
    mask (then roll), or SCORE with a box. Holding every die counts as scoring the best box."""
    level = _searching_level(game, level, table)
    e = yield from engine_steps(game)
    yield from e.prepare_steps(game, level, table)
    banked = game.total(game.current) * 100
    if kind == SCORE:
        allowed = yield from e.box_values_steps(game)
        if not allowed >> arg & 1:
            raise ValueError("box not allowed")
        return banked + to_centi(e.box_values[arg])
    if not game.rolls_used:
        v = yield from e.start_steps()
        return banked + to_centi(v)
    n = e.rs.ndice
    if arg == (1 << n) - 1 or game.rolls_left <= 0:
        b, v = yield from e.best_box_steps(game)
        return banked + to_centi(v)
    left = game.rolls_left
    if left > STAGES:
        left = STAGES
    hold_values = yield from e.stage_steps(left)
    code = 0
    size = 0
    for i in range(n):
        if arg >> i & 1:
            code += 1 << (3 * (game.dice[i] - 1))
            size += 1
    return banked + to_centi(hold_values[e.dice.index(code, size)])


def move_cost(game, kind, arg, table=None):
    """Expected points (centi-points) an action gives away against the best one: judged
    with the Expert table when it serves this game, else with Normal's estimate."""
    return run(judge_steps(game, kind, arg, table))[0]


def judge_steps(game, kind, arg, table=None):
    """(move_cost's answer, the best action as kind << 8 | arg): a tip names it."""
    level = EXPERT if table is not None and table.serves(game) else NORMAL
    best_kind, best_arg, best = yield from advise_steps(game, level, table)
    cost = best - (yield from action_value_steps(game, kind, arg, level, table))
    return (cost if cost > 0 else 0), best_kind << 8 | best_arg


class Proficiency:
    """Accumulates the coach's verdicts over a game. Call record() before applying each
    action of every seat (humans included); read totals[seat] and worst at game over,
    and best after a record() for the action it was measured against."""

    def __init__(self, nseats):
        self.totals = [0] * nseats  # centi-points given away per seat
        self.best = 0  # the last judged position's best action, kind << 8 | arg
        self.worst = None  # (cost, seat, turn, kind, arg) of the costliest move

    def record(self, game, kind, arg, table=None, judged=None):
        """judged: judge_steps' answer if already known (the coach thinks ahead)."""
        if judged is None:
            judged = run(judge_steps(game, kind, arg, table))
        cost, self.best = judged
        seat = game.current
        self.totals[seat] += cost
        if cost > 0 and (self.worst is None or cost > self.worst[0]):
            self.worst = (cost, seat, game.turn // game.nseats, kind, arg)
        return cost

    def worst_move(self):
        """The costliest move as (centi-points, seat, round from 1, box or -1 for a hold),
        or None."""
        w = self.worst
        if w is None:
            return None
        return w[0], w[1], w[2] + 1, w[4] if w[3] == SCORE else -1


# ---- CPU seats ------------------------------------------------------------------------------
def cpu_step(game, level, table=None, rng=None):
    """The next single action for the current (CPU) seat: (HOLD, mask) -> set the held
    mask and roll (mask 0 before the first roll), or (SCORE, box). Easy needs rng (any
    object with d6()); the other levels are deterministic."""
    return run(cpu_steps(game, level, table, rng))


def cpu_steps(game, level, table=None, rng=None):
    if level == EASY:
        return _easy(game, rng)
    if not game.rolls_used:
        return HOLD, 0
    kind, arg, _ = yield from advise_steps(game, level, table)
    return kind, arg


def _easy(game, rng):
    """A casual player: keeps the most common face (or a straight draw), takes the box
    with the most points, and now and then misjudges (one in six decisions)."""
    if not game.rolls_used:
        return HOLD, 0
    dice = game.dice
    n = len(dice)
    mistake = rng is not None and rng.d6() == 1
    counts = bytearray(7)
    rules.counts_of(dice, counts)
    if game.rolls_left > 0:
        best_b, best_s = _easy_box(game, False)
        spec = game.rs.boxes[best_b] if best_b >= 0 else None
        good = spec is not None and spec[rules.KIND] in (rules.RUN, rules.PARTS) and (
            spec[rules.MODE] == rules.FIXED or spec[rules.ARG_A] & 15 >= n - 1) and best_s > 0
        if good and not mistake:
            return SCORE, best_b
        if mistake:
            mask = 0
            for i in range(n):
                if rng.d6() <= 3:
                    mask |= 1 << i
            if mask != (1 << n) - 1:
                return HOLD, mask
        # a straight draw: four or more different faces in a row
        run, run_start, best_run, best_start = 0, 0, 0, 0
        for f in range(1, 7):
            if counts[f]:
                if run == 0:
                    run_start = f
                run += 1
                if run > best_run:
                    best_run, best_start = run, run_start
            else:
                run = 0
        want = bytearray(7)
        if best_run >= 4 and best_run < n:
            for f in range(best_start, best_start + best_run):
                want[f] = 1
        else:
            face, most = 6, 0
            for f in range(6, 0, -1):
                if counts[f] > most:
                    face, most = f, counts[f]
            want[face] = most
        mask = 0
        for i in range(n):
            if want[dice[i]]:
                want[dice[i]] -= 1
                mask |= 1 << i
        if mask == (1 << n) - 1:
            return SCORE, _easy_box(game, False)[0]
        return HOLD, mask
    return SCORE, _easy_box(game, mistake)[0]


def _easy_box(game, mistake):
    allowed = game.allowed()
    best_b, best_s, second = -1, -1, -1
    for b in range(game.rs.nboxes):
        if allowed >> b & 1:
            s = game.preview(b)
            if s > best_s:
                second = best_b
                best_b, best_s = b, s
            elif second < 0:
                second = b
    if best_s <= 0:
        # scratch: a casual player gives up the Yahtzee box or Ones first
        yb = game.rs.yahtzee_box
        if yb >= 0 and allowed >> yb & 1 and game.rs.ndice == 5:
            return yb, 0
        for b in range(game.rs.nboxes):
            if allowed >> b & 1:
                return b, 0
    if mistake and second >= 0:
        return second, game.preview(second)
    return best_b, best_s
