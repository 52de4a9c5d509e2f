"""The game engine: turns, joker rules, Sharp Dice, bonuses, undo, seating, Casino credits,
and the published maxima reproduced by constructed games."""

import itertools

import pytest

from picoyacht import rules
from picoyacht.game import (
    FILLED,
    LOCKED,
    POINTS,
    ZERO,
    Game,
    RuleError,
    pot_share,
)
from picoyacht.rules import (
    JOKER_FORCED,
    JOKER_FREE,
    JOKER_ORIGINAL,
    RATE_ABOVE,
    RATE_HIGH,
    RATE_LOW,
    RATE_MAX,
    RATE_ZERO,
    RULESETS,
    Options,
)

from scripted import LcgRoller, ScriptedRoller


def new_game(rid=rules.YAHTZEE, players=1, **opts):
    roller = ScriptedRoller()
    g = Game(rid, ["P%d" % i for i in range(players)], options=Options(**opts), roller=roller)
    return g, roller


def box(g, abbr):
    return [b[rules.ABBR] for b in g.rs.boxes].index(abbr)


def turn(g, roller, dice, abbr):
    """One turn from a single roll: roll `dice`, score box `abbr`, return its points."""
    roller.push(*dice)
    g.roll()
    return g.score(box(g, abbr))


def five(face):
    return [face] * 5


# ---- maxima --------------------------------------------------------------------------
@pytest.mark.parametrize("variant", [JOKER_FORCED, JOKER_FREE])
def test_1575_with_thirteen_yahtzees(variant):
    g, r = new_game(joker=variant)
    turn(g, r, five(6), "YZ")
    for f in range(1, 7):
        turn(g, r, five(f), "%ds" % f)
    for abbr in ("3K", "4K", "FH", "SS", "LS", "CH"):
        turn(g, r, five(6), abbr)
    assert g.over
    assert g.ybonus[0] == 12
    assert g.total(0) == 1575


def test_original_joker_cannot_reach_1575():
    """Under the 1956 rule the extra Yahtzees may not score in the upper section."""
    g, r = new_game(joker=JOKER_ORIGINAL)
    turn(g, r, five(6), "YZ")
    for abbr in ("3K", "4K", "FH", "SS", "LS", "CH"):
        turn(g, r, five(6), abbr)
    for f in range(1, 7):
        r.push(*five(f))
        g.roll()
        assert g.preview(box(g, "%ds" % f)) == 0
        g.score(box(g, "%ds" % f))
    assert g.total(0) == 50 + 30 + 30 + 25 + 30 + 40 + 30 + 1200


def best_without_yahtzee():
    """A game with every box but Yahtzee at its best without five alike: 301 points."""
    g, r = new_game()
    for f in range(1, 6):
        turn(g, r, [f] * 4 + [6], "%ds" % f)
    turn(g, r, [6, 6, 6, 6, 5], "6s")
    for abbr in ("3K", "4K", "CH"):
        turn(g, r, [6, 6, 6, 6, 5], abbr)
    turn(g, r, [6, 6, 6, 5, 5], "FH")
    turn(g, r, [1, 2, 3, 4, 6], "SS")
    turn(g, r, [2, 3, 4, 5, 6], "LS")
    return g, r


def test_351_without_yahtzee_bonus():
    g, r = best_without_yahtzee()
    turn(g, r, five(6), "YZ")
    assert g.ybonus[0] == 0 and g.upper_bonus(0) == 35
    assert g.total(0) == 351


def test_301_without_five_alike():
    g, r = best_without_yahtzee()
    assert turn(g, r, [1, 2, 3, 4, 6], "YZ") == 0
    assert g.total(0) == 301


# ---- joker rules ---------------------------------------------------------------------
def states(g):
    return [g.box_state(i) for i in range(g.rs.nboxes)]


def test_forced_joker_must_use_open_upper_box():
    g, r = new_game(joker=JOKER_FORCED)
    turn(g, r, five(4), "YZ")
    r.push(*five(4))
    g.roll()
    assert states(g)[box(g, "4s")] == POINTS
    assert [i for i, s in enumerate(states(g)) if s in (POINTS, ZERO)] == [box(g, "4s")]
    before = g.snapshot()
    with pytest.raises(RuleError):
        g.score(box(g, "FH"))
    assert g.snapshot() == before
    assert g.pending_yahtzee_bonus() == 100
    assert g.score(box(g, "4s")) == 20 and g.total(0) == 170


def test_forced_joker_lower_then_upper_scratch():
    g, r = new_game(joker=JOKER_FORCED)
    turn(g, r, five(2), "YZ")
    turn(g, r, [2, 2, 2, 1, 1], "2s")
    r.push(*five(2))
    g.roll()
    lower = [box(g, a) for a in ("3K", "4K", "FH", "SS", "LS", "CH")]
    assert [g.preview(i) for i in lower] == [10, 10, 25, 30, 40, 10]
    assert all(states(g)[i] == LOCKED for i in range(6) if i != 1)
    for abbr in ("3K", "4K", "FH", "SS", "LS"):
        g.score(box(g, abbr))
        r.push(*five(2))
        g.roll()
    g.score(box(g, "CH"))
    r.push(*five(2))
    g.roll()
    # Twos and every lower box filled: an open upper box must take 0.
    st = states(g)
    assert all(st[i] == ZERO for i in (0, 2, 3, 4, 5))
    assert g.score(box(g, "6s")) == 0


def test_free_choice_joker_values_only_when_upper_filled():
    g, r = new_game(joker=JOKER_FREE)
    turn(g, r, five(5), "YZ")
    r.push(*five(5))
    g.roll()
    assert all(s in (POINTS, ZERO) for s in states(g) if s != FILLED)
    assert g.preview(box(g, "FH")) == 0 and g.preview(box(g, "LS")) == 0
    assert g.preview(box(g, "3K")) == 25
    assert g.score(box(g, "1s")) == 0 and g.ybonus[0] == 1
    turn(g, r, five(5), "5s")
    r.push(*five(5))
    g.roll()
    assert [g.preview(box(g, a)) for a in ("FH", "SS", "LS")] == [25, 30, 40]


def test_original_joker_goes_in_lower_box_only():
    g, r = new_game(joker=JOKER_ORIGINAL)
    turn(g, r, five(3), "YZ")
    r.push(*five(3))
    g.roll()
    st = states(g)
    assert all(st[i] == LOCKED for i in range(6))
    assert g.preview(box(g, "SS")) == 30


def test_no_bonus_when_yahtzee_box_scratched():
    g, r = new_game()
    turn(g, r, [1, 2, 3, 4, 6], "YZ")
    assert turn(g, r, five(6), "6s") == 30
    assert g.ybonus[0] == 0


# ---- Sharp Dice ----------------------------------------------------------------------
def test_sharp_dice_seed_examples():
    g, r = new_game(sharp=True)
    assert turn(g, r, [2, 5, 3, 5, 5], "3K") == 40
    g, r = new_game(rules.YATZY, sharp=True)
    assert turn(g, r, [2, 5, 3, 5, 5], "3K") == 30


@pytest.mark.parametrize("rid", [rules.YAHTZEE, rules.YATZY])
def test_sharp_dice_doubles_exactly_lower_non_chance(rid):
    """Every multiset: one roll of all dice doubles lower boxes except Chance; a re-roll
    with a die held doubles nothing."""
    plain_rs = RULESETS[rid]
    counts = bytearray(7)
    for dice in itertools.combinations_with_replacement(range(1, 7), 5):
        if len(set(dice)) == 1:
            continue  # the first Yahtzee is a plain Yahtzee; joker cases are tested above
        rules.counts_of(dice, counts)
        base = [rules.score(b, counts) for b in plain_rs.boxes]
        g, r = new_game(rid, sharp=True)
        r.push(*dice)
        g.roll()
        for i, b in enumerate(plain_rs.boxes):
            factor = 2 if rules.doubles_with_sharp(b) else 1
            assert g.preview(i) == factor * base[i]
        g.set_held(1)
        r.push(*dice[1:])
        g.roll()
        assert [g.preview(i) for i in range(plain_rs.nboxes)] == base
        g.set_held(0)
        r.push(*dice)
        g.roll()
        assert g.single_roll


def test_sharp_yahtzee_box_and_bonus_not_doubled():
    g, r = new_game(sharp=True)
    assert turn(g, r, five(6), "YZ") == 100
    assert turn(g, r, five(6), "6s") == 30
    assert g.total(0) == 100 + 30 + 100
    yz = box(g, "YZ")
    assert g.rs.rating(yz, g.box_score(0, yz)) == RATE_ABOVE


# ---- turns and illegal actions ---------------------------------------------------------
def test_turn_flow_and_illegal_actions_leave_state_unchanged():
    g, r = new_game(players=2)
    snap = g.snapshot()
    for action in (lambda: g.set_held(0), lambda: g.score(0), lambda: g.set_held(1)):
        with pytest.raises(RuleError):
            action()
        assert g.snapshot() == snap
    assert states(g) == [LOCKED] * 13
    r.push(1, 2, 3, 4, 5)
    g.roll()
    for die in (0, 1, 1):  # a hold button toggles its die (play: held ^= its bit)
        g.set_held(g.held ^ 1 << die)
    assert g.held == 1
    r.push(6, 6, 6, 6)
    g.roll()
    assert list(g.dice) == [1, 6, 6, 6, 6]
    g.set_held(0b11110)
    r.push(6)
    g.roll()
    assert g.rolls_left == 0
    snap = g.snapshot()
    with pytest.raises(RuleError):
        g.roll()
    assert g.snapshot() == snap
    g.score(box(g, "YZ"))
    assert g.current == 1
    turn(g, r, [1, 1, 2, 2, 3], "1s")
    snap = g.snapshot()
    r.push(*five(1))
    g.roll()
    with pytest.raises(RuleError):
        g.score(box(g, "YZ"))  # P0 filled YZ, but it is P0's turn again: box filled
    assert g.rolls_left == 2


def test_cannot_reroll_with_every_die_held():
    g, r = new_game()
    r.push(1, 2, 3, 4, 5)
    g.roll()
    g.set_held(0b11111)
    with pytest.raises(RuleError):
        g.roll()


def test_undo_until_next_roll():
    g, r = new_game(players=2)
    r.push(3, 3, 3, 4, 4)
    g.roll()
    before = g.snapshot()
    g.score(box(g, "FH"))
    assert g.can_undo and g.current == 1
    g.undo()
    assert g.snapshot() == before and not g.can_undo
    g.score(box(g, "3K"))
    r.push(1, 1, 1, 1, 1)
    g.roll()
    assert not g.can_undo
    with pytest.raises(RuleError):
        g.undo()


def test_upper_bonus_credited_when_secured():
    g, r = new_game(rules.YATZY)
    for f in (6, 5, 4):
        turn(g, r, [f] * 4 + [1], "%ds" % f)
    assert g.upper_total(0) == 60 and g.upper_bonus(0) == 0
    turn(g, r, [3, 3, 1, 1, 2], "3s")
    assert g.upper_bonus(0) == 50 and g.total(0) == 66 + 50


def test_maxi_saved_rolls_and_bonus_option():
    g, r = new_game(rules.MAXI, players=2, saved_rolls=True, bonus100=True)
    turn(g, r, [6] * 6, "MY")
    assert g.current == 1 and g.rolls_left == 3
    turn(g, r, [1, 2, 3, 4, 5, 6], "FS")
    assert g.current == 0 and g.rolls_left == 5
    g2, r2 = new_game(rules.MAXI, saved_rolls=False)
    turn(g2, r2, [6] * 6, "MY")
    assert g2.rolls_left == 3
    for f in range(6, 2, -1):
        turn(g, r, [f] * 4 + [1, 1], "%ds" % f)
        turn(g, r, [1, 2, 3, 4, 5, 6], "%ds" % f)
    assert g.upper_total(0) == 72
    turn(g, r, [2] * 6, "2s")
    assert g.upper_bonus(0) == 100


def test_casino_rewards_pot_and_random_seating():
    roller = ScriptedRoller([2])  # Fisher-Yates on d6 by rejection: i=1, d6=2 -> j=1, stays
    g = Game(rules.CASINO5, ["A", "B"], options=Options(bet=10), roller=roller)
    assert list(g.order) == [0, 1] and g.credits == [-10, -10]
    roller.push(2, 3, 4, 5, 6)
    g.roll()
    g.score(box(g, "LS"))
    assert g.credits[0] == -5
    roller.push(1, 1, 2, 2, 3)
    g.roll()
    roller.push(2, 2)
    g.set_held(0b10011)  # dice 0, 1 and 4
    g.roll()
    assert list(g.dice) == [1, 1, 2, 2, 3]
    g.score(box(g, "FH"))  # not a first-roll full house: 0 points, no reward
    assert g.credits[1] == -10
    # i=2: d6=5 rejected, d6=3 -> j=2 stays; i=1: d6=1 -> j=0, swap.
    g2 = Game(rules.CASINO5, ["A", "B", "C"], roller=ScriptedRoller([5, 3, 1]))
    assert list(g2.order) == [1, 0, 2] and g2.current == 1


def test_casino_pot_split_on_tie():
    roller = ScriptedRoller([1])
    g = Game(rules.CASINO5, ["A", "B"], options=Options(bet=10), roller=roller)
    for _ in range(g.rs.nboxes):
        for _seat in range(2):
            i = next(b for b in range(g.rs.nboxes) if not g.is_filled(g.current, b))
            roller.push(1, 2, 2, 3, 4)
            g.roll()
            g.score(i)
    assert g.over and g.winners() == [0, 1]
    assert g.credits == [0, 0]


class _Seated:
    """What pot_share reads of a game: its bet, its seats and their playing order."""

    def __init__(self, bet, order):
        self.options = Options(bet=bet)
        self.nseats = len(order)
        self.order = bytearray(order)


def test_a_split_pot_pays_out_every_credit_its_odd_ones_first_in_playing_order():
    """Exhaustive: 1 to 6 seats, every bet, every set of winners, every playing order of up
    to 4 seats and three of 5 or 6. The shares add up to the pot, differ by at most one, and
    the larger ones go to the winners who play first. Breaks with the old truncated split
    (4 seats at 5 with 3 tied paid 6 each: 2 credits gone)."""
    for n in range(1, 7):
        orders = list(itertools.permutations(range(n))) if n <= 4 else [
            tuple(range(n)), tuple(reversed(range(n))), tuple(range(1, n)) + (0,)]
        for bet in rules.BETS:
            for order in orders:
                g = _Seated(bet, order)
                for k in range(1, n + 1):
                    for win in itertools.combinations(range(n), k):
                        shares = [pot_share(g, s, list(win)) for s in order if s in win]
                        assert sum(shares) == bet * n, (n, bet, order, win)
                        assert shares == sorted(shares, reverse=True)
                        assert shares[0] - shares[-1] <= 1


def three_way_tie():
    """A Casino 5 game of four at bet 5 played to its end: seats 2, 1 and 0 tie (in that
    playing order) over seat 3, who plays first and is one point short."""
    roller = ScriptedRoller([1, 2, 2])  # Fisher-Yates: the playing order 3, 2, 1, 0
    g = Game(rules.CASINO5, ["A", "B", "C", "D"], options=Options(bet=5), roller=roller)
    assert list(g.order) == [3, 2, 1, 0]
    for t in range(g.rs.nboxes * 4):
        i = next(b for b in range(g.rs.nboxes) if not g.is_filled(g.current, b))
        short = t == 0  # seat 3's Ones: 0 where the others score 1
        roller.push(*((2, 2, 2, 3, 4) if short else (1, 2, 2, 3, 4)))
        g.roll()
        g.score(i)
    return g


def test_a_three_way_tie_of_four_at_bet_5_pays_7_7_6():
    """The pot of 20 pays 7, 7 and 6 (the odd credits to seats 2 and 1, who play before
    seat 0), and the credits the seats hold add up to what they staked and won: nothing."""
    g = three_way_tie()
    assert g.over and g.winners() == [0, 1, 2]
    assert list(g.credits) == [6 - 5, 7 - 5, 7 - 5, -5] and sum(g.credits) == 0


def test_deluxe_rolloff_rethrows_ties():
    roller = ScriptedRoller([3] * 6 + [3] * 6 + [1] * 6 + [6] * 6 + [5] * 6)
    g = Game(rules.DELUXE, ["A", "B", "C"], roller=roller)
    # Round one: A 18, B 18, C 6; A and B tie and throw again: A 36, B 30.
    assert [t for _, t in g.rolloff[0]] == [18, 18, 6]
    assert [s for s, _ in g.rolloff[1]] == [0, 1]
    assert g.current == 0 and list(g.order) == [0, 1, 2]
    roller = ScriptedRoller([1] * 6 + [2] * 6)
    g = Game(rules.DELUXE, ["A", "B"], roller=roller)
    assert list(g.order) == [1, 0]


def test_ratings_against_box_maximum():
    g, r = new_game()
    turn(g, r, [1, 1, 2, 2, 3], "1s")  # 2 of max 5
    turn(g, r, [2, 2, 2, 1, 1], "2s")  # 6 of 10: above half
    turn(g, r, five(3), "YZ")  # 50 of 50
    turn(g, r, [1, 2, 4, 4, 5], "3s")  # 0
    boxes = [box(g, a) for a in ("1s", "2s", "YZ", "3s")]
    assert [g.rs.rating(b, g.box_score(0, b)) for b in boxes] == [
        RATE_LOW, RATE_HIGH, RATE_MAX, RATE_ZERO]


def test_game_ends_after_boxes_times_players_turns():
    for rs in RULESETS:
        g = Game(rs.id, ["A", "B", "C"], roller=LcgRoller(rs.id))
        g.roller = ScriptedRoller()
        turns = 0
        while not g.over:
            g.roller.push(*([2] * rs.ndice))
            g.roll()
            open_box = next(b for b in range(rs.nboxes) if not g.is_filled(g.current, b))
            g.score(open_box)
            turns += 1
        assert turns == rs.nboxes * 3
        with pytest.raises(RuleError):
            g.roll()


def test_engine_is_pure():
    import pathlib

    pkg = pathlib.Path(rules.__file__).parent
    for name in ("rules.py", "game.py", "snapshot.py", "invariants.py"):
        text = (pkg / name).read_text()
        for banned in ("import machine", "import random", "import time", "from machine",
                       "from random", "from time"):
            assert banned not in text, (name, banned)


def test_yatzy_maximum_374():
    g, r = new_game(rules.YATZY)
    for f in range(1, 7):
        turn(g, r, five(f), "%ds" % f)
    for abbr, dice in (("1P", [6, 6, 5, 5, 4]), ("2P", [6, 6, 5, 5, 4]), ("3K", five(6)),
                       ("4K", five(6)), ("SS", [1, 2, 3, 4, 5]), ("LS", [2, 3, 4, 5, 6]),
                       ("FH", [6, 6, 6, 5, 5]), ("CH", five(6)), ("YZ", five(6))):
        turn(g, r, dice, abbr)
    assert g.total(0) == 374
    # ...and no game can beat it: the boxes are independent, so the maximum is their sum.
    assert sum(g.rs.box_max(b) for b in range(g.rs.nboxes)) + 50 == 374


def test_names_are_printable_and_short():
    g = Game(rules.YATZY, ["Zoë-Ann-Marie", ""], roller=ScriptedRoller())
    assert g.names == ["Zo?-Ann-", "?"]
    assert Game.restore(g.snapshot()).names == g.names


def test_bad_construction():
    with pytest.raises(RuleError):
        Game(rules.YAHTZEE, ["a"], kinds=[4])
    with pytest.raises(RuleError):
        Game(rules.YAHTZEE, ["a", "b"], kinds=[1])
    with pytest.raises(RuleError):
        Game(rules.CASINO5, ["a"], options=Options(bet=256))
    with pytest.raises(RuleError):
        Game(rules.YAHTZEE, [])
    with pytest.raises(RuleError):
        Game(rules.YAHTZEE, ["a"] * 7)
    with pytest.raises(RuleError):
        Game(99, ["a"])


# ---- the card's one-pass table -------------------------------------------------------
def yahtzee_then(g, r, points, abbr=None):
    """The five-alike box scored (50, or 0 with other dice), then optionally the 3s (with
    three of them: five would be a joker, which the 1956 rule keeps out of the 3s)."""
    yb = g.rs.yahtzee_box
    r.push(*([6] * g.rs.ndice if points else range(1, g.rs.ndice + 1)))
    g.roll()
    g.score(yb)
    if abbr:
        turn(g, r, [3, 3, 3, 1, 2, 4][: g.rs.ndice], abbr)


@pytest.mark.parametrize("rid,joker", [(rid, JOKER_FORCED) for rid in range(rules.COUNT)]
                         + [(rules.YAHTZEE, JOKER_FREE), (rules.YAHTZEE, JOKER_ORIGINAL)])
@pytest.mark.parametrize("before", ["fresh", "yz50", "yz0", "yz50+3s"])
def test_card_table_is_box_by_box_for_every_dice(rid, joker, before):
    """Game.card fills the whole card in one pass; it must agree with box_state and
    preview box by box, for every multiset of dice, joker or not."""
    g, r = new_game(rid, joker=joker)
    if before != "fresh":
        yahtzee_then(g, r, before.startswith("yz50"), "3s" if "+" in before else None)
    n = g.rs.nboxes
    snap = g.snapshot()

    def check(game):
        states, values = bytearray(n), [None] * n
        game.card(states, values)
        for b in range(n):
            st = game.box_state(b)
            assert (states[b], values[b]) == (st, 0 if st == LOCKED else game.preview(b)), b

    check(g)  # before the roll: every open box locked
    for counts in rules.multisets(g.rs.ndice):
        roller = ScriptedRoller()
        h = Game.restore(snap, roller)
        roller.push(*[f for f in range(1, 7) for _ in range(counts[f])])
        h.roll()
        check(h)
