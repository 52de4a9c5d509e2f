"""Sharp Dice in the CPU's in-turn search: the engine's values against an exhaustive
expectimax that asks game.py for every score, and positions where throwing all the dice
again is the best move.

A twin module (host_tests/mp/README.md): every test runs on CPython and on the MicroPython
unix port. The expectimax shares nothing with the engine: it walks sorted dice tuples,
sets the game's dice and its one-throw flag, and reads the points from Game.preview.
"""

import pytest
from cpu_moves import apply

from picoyacht import engine, rules, strategy
from picoyacht.game import Game
from picoyacht.rules import Options

from scripted import LcgRoller, ScriptedRoller

YAHTZEE, YATZY = rules.YAHTZEE, rules.YATZY
MICROPYTHON_HEAP = "8M"  # the expectimax keeps every keep and roll of a turn in dicts


def position(rid, open_boxes, up=0, ybox=0, sharp=True, joker=rules.JOKER_FORCED,
             dice=(1, 2, 3, 4, 5), rolls_left=2, one_throw=True):
    """A solitaire game at a turn with `open_boxes` open: the upper total `up` spread over
    the filled upper boxes, the Yahtzee box holding `ybox` if filled."""
    g = Game(rid, ["cpu"], options=Options(joker=joker, sharp=sharp),
             roller=ScriptedRoller(list(dice)))
    g.roll()
    rs = g.rs
    mask = (1 << rs.nboxes) - 1
    for b in open_boxes:
        mask &= ~(1 << b)
    g.filled[0] = mask
    left = up
    for b in range(6):
        if mask >> b & 1 and left:
            s = left if left < 5 * (b + 1) else 5 * (b + 1)
            g.scores[b] = s
            left -= s
    assert left == 0, "the filled upper boxes cannot hold that total"
    if rs.yahtzee_box >= 0 and mask >> rs.yahtzee_box & 1:
        g.scores[rs.yahtzee_box] = ybox
    g.rolls_left = rolls_left
    g.rolls_used = 3 - rolls_left
    g.single_roll = one_throw
    return g


# ---- the exhaustive expectimax ----------------------------------------------------------
def outcomes(k):
    """{sorted tuple of k dice: its chance}, by counting all 6^k ordered throws."""
    out = {}
    for i in range(6 ** k):
        t = []
        for _ in range(k):
            t.append(i % 6 + 1)
            i //= 6
        t.sort()
        key = tuple(t)
        out[key] = out.get(key, 0) + 1
    total = 6 ** k
    return [(key, c / total) for key, c in out.items()]


def sub_keeps(dice):
    """Every sub-multiset of a sorted tuple (as sorted tuples), itself included."""
    subs = {()}
    for d in dice:
        subs = subs | {tuple(sorted(s + (d,))) for s in subs}
    return subs


class Brute:
    """This turn's value for Greedy (points this turn, bonuses included, nothing after),
    exhaustively: now(dice, one_throw), keep(held, rolls_left), best(dice, left, one)."""

    def __init__(self, g):
        self.g = g
        self.n = g.rs.ndice
        self.outs = [outcomes(k) for k in range(self.n + 1)]
        self.memo_now = {}
        self.memo_keep = {}
        self.memo_best = {}

    def now(self, dice, one):
        key = (dice, one)
        if key not in self.memo_now:
            g = self.g
            for i in range(self.n):
                g.dice[i] = dice[i]
            g.single_roll = one
            rs = g.rs
            up = g.upper_total(0)
            allowed, bonus = g.allowed(), g.pending_yahtzee_bonus()
            v = -1
            for b in range(rs.nboxes):
                if allowed >> b & 1:
                    s = g.preview(b) + bonus
                    if b < 6 and up < rs.bonus_at <= up + g.preview(b):
                        s += rs.upper_bonus(g.options)
                    v = max(v, s)
            self.memo_now[key] = v
        return self.memo_now[key]

    def keep(self, held, left):
        """Hold `held` and throw the rest, `left` throws to go (this one included)."""
        key = (held, left)
        if key not in self.memo_keep:
            one = not held  # nothing held: all the dice come from one throw
            v = 0.0
            for o, p in self.outs[self.n - len(held)]:
                v += p * self.best(tuple(sorted(held + o)), left - 1, one)
            self.memo_keep[key] = v
        return self.memo_keep[key]

    def best(self, dice, left, one):
        key = (dice, left, one)
        if key not in self.memo_best:
            v = self.now(dice, one)
            if left:
                for held in sub_keeps(dice):
                    if len(held) < self.n:
                        v = max(v, self.keep(held, left))
            self.memo_best[key] = v
        return self.memo_best[key]


def engine_for(g):
    e = engine.Engine(g.rs, g.options)
    engine.drain(e.prepare_steps(g, engine.GREEDY, None))
    return e


def keep_tuple(e, i):
    code = e.dice.code(i)
    out = []
    for f in range(6):
        out += [f + 1] * ((code >> (3 * f)) & 7)
    return tuple(out)


POSITIONS = (
    # Yahtzee, Sharp: Fours can still make the bonus; straights, kinds and Chance open
    (YAHTZEE, (3, 6, 8, 9, 10, 11, 12), 52, 0, rules.JOKER_FORCED),
    # Yahtzee, Sharp, the Yahtzee box holding 100: jokers under each rule, bonus +100
    (YAHTZEE, (5, 7, 8, 10, 12), 30, 100, rules.JOKER_FORCED),
    (YAHTZEE, (5, 7, 8, 10, 12), 30, 100, rules.JOKER_FREE),
    (YAHTZEE, (2, 7, 9, 10), 30, 100, rules.JOKER_ORIGINAL),
    # Yatzy, Sharp
    (YATZY, (0, 6, 7, 9, 10, 12, 14), 40, 0, rules.JOKER_FORCED),
)


@pytest.mark.micropython
@pytest.mark.parametrize("case", range(len(POSITIONS)))
def test_sharp_search_matches_the_exhaustive_expectimax(case):
    """Every keep's value at each re-roll stage, and the turn's value before its first
    roll, as the engine computes them under Sharp Dice, equal the expectimax's (to the
    engine's rounding, well under a thousandth of a point)."""
    rid, open_boxes, up, ybox, joker = POSITIONS[case]
    g = position(rid, open_boxes, up, ybox, joker=joker)
    e = engine_for(g)
    brute = Brute(g)
    one = engine.ONE
    for left in (1, 2):
        hv = engine.drain(e.stage_steps(left))
        for i in range(e.dice.first_roll):
            want = brute.keep(keep_tuple(e, i), left)
            assert abs(hv[i] / one - want) < 1e-3, (left, keep_tuple(e, i), hv[i] / one, want)
    start = engine.drain(e.start_steps())
    assert abs(start / one - brute.keep((), 3)) < 1e-3


@pytest.mark.micropython
@pytest.mark.parametrize("case", range(len(POSITIONS)))
def test_sharp_advice_is_the_expectimax_best(case):
    """For every roll in hand (from one throw or not, one or two re-rolls to go), the
    device's advice is worth the expectimax's best, and the action it names is that good."""
    rid, open_boxes, up, ybox, joker = POSITIONS[case]
    g = position(rid, open_boxes, up, ybox, joker=joker)
    brute = Brute(g)
    banked = g.total(0) * 100
    rolls = [d for d, _ in brute.outs[g.rs.ndice]]
    for k in range(0, len(rolls), 7):  # a spread of rolls: every seventh
        dice = rolls[k]
        for left in (1, 2):
            for one in (True, False):
                for i in range(len(dice)):
                    g.dice[i] = dice[i]
                g.single_roll = one
                g.rolls_left = left
                g.rolls_used = 3 - left
                kind, arg, value = strategy.run(strategy.advise_steps(g, engine.GREEDY))
                want = brute.best(dice, left, one)
                assert abs((value - banked) / 100 - want) < 0.006, (dice, left, one)
                if kind == strategy.SCORE:
                    got = brute.now(dice, one)
                else:
                    held = tuple(sorted(dice[j] for j in range(len(dice)) if arg >> j & 1))
                    got = brute.keep(held, left)
                assert abs(got - want) < 1e-6, (dice, left, one, kind, arg)


# Only Three of a kind (Yahtzee) or Small straight (Yatzy) open; the dice came from a
# re-roll that held some of them, one re-roll left.
THROW_ALL = (
    (YAHTZEE, 6, (1, 1, 2, 2, 3)),
    (YATZY, 10, (1, 1, 1, 1, 2)),
)


@pytest.mark.micropython
@pytest.mark.parametrize("case", range(len(THROW_ALL)))
@pytest.mark.parametrize("level", [engine.GREEDY, engine.NORMAL])
def test_throwing_all_the_dice_again_is_the_advice_under_sharp_dice(case, level):
    """With only a doubled box open, a hand that is far from it is best thrown again
    whole: one throw of all five doubles the box. Without Sharp Dice the same hand is
    worth holding (the control: the advice turns on the option, not on the position)."""
    rid, box, dice = THROW_ALL[case]
    g = position(rid, (box,), dice=dice, rolls_left=1, one_throw=False)
    kind, arg, value = strategy.run(strategy.advise_steps(g, level))
    assert (kind, arg) == (strategy.HOLD, 0)
    brute = Brute(g)
    assert brute.keep((), 1) > max(brute.keep(h, 1) for h in sub_keeps(dice) if h)
    plain = position(rid, (box,), dice=dice, rolls_left=1, one_throw=False, sharp=False)
    kind, arg, _ = strategy.run(strategy.advise_steps(plain, level))
    assert kind == strategy.HOLD and arg != 0


@pytest.mark.micropython
def test_a_one_throw_roll_scores_double_in_the_search():
    """A small straight from one throw is worth 60 now under Sharp Dice, 30 after a hold:
    the advice's value says so."""
    g = position(YAHTZEE, (9, 12), dice=(1, 2, 3, 4, 6), rolls_left=1, one_throw=True)
    banked = g.total(0) * 100
    kind, arg, value = strategy.run(strategy.advise_steps(g, engine.GREEDY))
    assert (kind, arg, value - banked) == (strategy.SCORE, 9, 6000)
    g.single_roll = False
    kind, arg, value = strategy.run(strategy.advise_steps(g, engine.GREEDY))
    assert kind == strategy.SCORE and arg == 9 and value - banked == 3000


@pytest.mark.micropython
@pytest.mark.parametrize("rid", [YAHTZEE, YATZY])
def test_sharp_cpu_games_are_legal_and_rethrow_whole(rid):
    """Whole seeded Sharp Dice games of the searching levels: every action legal, some
    re-rolls hold nothing after the first roll, and the one-throw mean's sums stay small
    ints on the Pico (31 bits) at the widest position, a game's start."""
    g = Game(rid, ["n", "g"], kinds=[2, 2], options=Options(sharp=True), roller=LcgRoller(5),
             seed=5)
    rethrows = 0
    while not g.over:
        act = strategy.cpu_step(g, engine.NORMAL if g.current == 0 else engine.GREEDY)
        if act[0] == strategy.HOLD and g.rolls_used and act[1] == 0:
            rethrows += 1
        apply(g, act)  # raises RuleError on anything illegal
    assert rethrows > 0
    g2 = position(rid, range(g.rs.nboxes), up=0)
    e = engine_for(g2)
    biggest = max(engine.one_throw_value(e, r, e.roll_values[r]) for r in range(e.nrolls))
    assert 6 ** 5 * (biggest >> 13) < (1 << 30) and biggest < (1 << 29)
