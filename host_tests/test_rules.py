"""Scoring: the seed examples, exhaustive agreement with an independent oracle over every
multiset of five and six dice for every rule set, and every score the same on MicroPython.

A twin module: tests marked micropython run on CPython and on the MicroPython unix port
(host_tests/mp/README.md); the oracle needs CPython."""

import pytest

from picoyacht import rules
from picoyacht.game import Game
from picoyacht.rules import RULESETS, Options, counts_of, evaluate, score

COUNTS = bytearray(7)


def box_index(rs, abbr):
    return [b[rules.ABBR] for b in rs.boxes].index(abbr)


def score_of(rid, dice, abbr):
    rs = RULESETS[rid]
    counts_of(dice, COUNTS)
    return score(rs.boxes[box_index(rs, abbr)], COUNTS)


SEED_000 = [  # RULES.md, seed 000 (classic Yahtzee)
    ("1-4-3-5-1", "1s", 2), ("2-4-2-2-1", "2s", 6), ("3-3-2-5-1", "3s", 6),
    ("3-4-4-4-4", "4s", 16), ("3-5-5-4-4", "5s", 10), ("6-5-6-6-4", "6s", 18),
    ("2-4-5-5-5", "3K", 21), ("6-4-6-6-6", "4K", 28), ("4-1-3-6-2", "SS", 30),
    ("4-3-2-5-5", "SS", 30), ("4-5-6-3-4", "SS", 30), ("4-1-3-5-2", "LS", 40),
    ("4-3-2-6-5", "LS", 40), ("4-5-5-4-5", "FH", 25), ("4-5-2-1-6", "CH", 18),
]
SEED_004 = [  # RULES.md, seed 004 (Yahtzee Deluxe)
    ("1-1-1-2-2-5", "1s", 3), ("1-1-1-2-2-5", "2s", 4), ("1-1-1-2-2-5", "5s", 5),
    ("2-2-5-5-6-6", "3P", 20), ("1-1-1-4-4-4", "2T", 30), ("3-3-3-3-5-5", "FH", 40),
    ("1-2-2-3-4-5", "SS", 17), ("3-3-3-3-3-5", "SY", 20),
]
YATZY_SIX_SIXES = [("1P", 12), ("3K", 18), ("4K", 24), ("2P", 0), ("FH", 0)]


def dice_of(text):
    return [int(x) for x in text.split("-")]


@pytest.mark.micropython
@pytest.mark.parametrize("dice,abbr,expected", SEED_000)
def test_seed_000_examples(dice, abbr, expected):
    assert score_of(rules.YAHTZEE, dice_of(dice), abbr) == expected


@pytest.mark.micropython
@pytest.mark.parametrize("dice,abbr,expected", SEED_004)
def test_seed_004_examples(dice, abbr, expected):
    assert score_of(rules.DELUXE, dice_of(dice), abbr) == expected


@pytest.mark.micropython
@pytest.mark.parametrize("abbr,expected", YATZY_SIX_SIXES)
def test_yatzy_five_alike_scores_by_normal_rule(abbr, expected):
    assert score_of(rules.YATZY, [6] * 5, abbr) == expected


@pytest.mark.micropython
def test_five_alike_is_not_a_full_house_in_yahtzee():
    assert score_of(rules.YAHTZEE, [3] * 5, "FH") == 0


@pytest.mark.micropython
def test_deluxe_alternatives_from_seed_004():
    # A Full House (4+2) can also be rated as Three Pairs; a Straight as Small Straight;
    # six alike as Small Yahtzee, Full House, Two Triplets and Three Pairs.
    assert score_of(rules.DELUXE, dice_of("3-3-3-3-5-5"), "3P") == 20
    assert score_of(rules.DELUXE, [1, 2, 3, 4, 5, 6], "SS") == 21
    for abbr, expected in (("SY", 24), ("FH", 40), ("2T", 30), ("3P", 20), ("YZ", 60)):
        assert score_of(rules.DELUXE, [4] * 6, abbr) == expected


@pytest.mark.micropython
def test_casino_yatzy_box_is_sum_plus_bonus():
    assert score_of(rules.CASINO5, [4] * 5, "YZ") == 70
    assert score_of(rules.CASINO6, [2] * 6, "MY") == 112
    assert score_of(rules.CASINO6, dice_of("2-2-2-5-5-6"), "FH") == 22  # all six dice
    assert score_of(rules.MAXI, dice_of("2-2-2-5-5-6"), "FH") == 16  # the five matched


@pytest.mark.micropython
def test_box_counts():
    assert [rs.nboxes for rs in RULESETS] == [13, 15, 15, 20, 20, 14]
    assert [rs.ndice for rs in RULESETS] == [5, 5, 5, 6, 6, 6]


def all_multisets(n):
    import itertools

    return list(itertools.combinations_with_replacement(range(1, 7), n))


@pytest.mark.micropython
def test_multiset_enumeration_is_complete():
    for n, expected in ((5, 252), (6, 462)):
        seen = {tuple(c) for c in rules.multisets(n)}
        assert len(seen) == expected
        assert all(sum(c[1:]) == n for c in seen)


@pytest.mark.parametrize("rs", list(RULESETS), ids=lambda rs: rs.name)
def test_exhaustive_against_oracle(rs):
    """Every box, every multiset, in a shuffled order: the core equals the oracle, never
    exceeds the box maximum, and the upper boxes add up to the dice total."""
    import random

    from oracle import reference

    rng = random.Random(rs.id)
    maxima = [0] * rs.nboxes
    for dice in all_multisets(rs.ndice):
        shuffled = list(dice)
        rng.shuffle(shuffled)
        total = counts_of(shuffled, COUNTS)
        upper = 0
        for i, box in enumerate(rs.boxes):
            got = score(box, COUNTS)
            want = reference(rs.id, box[rules.ABBR], shuffled)
            assert got == want, (rs.name, box[rules.NAME], shuffled)
            assert (evaluate(box, COUNTS) >= 0) == (want > 0 or box[rules.KIND] in (
                rules.UPPER, rules.CHANCE)), (rs.name, box[rules.NAME], shuffled)
            assert got <= rs.box_max(i)
            maxima[i] = max(maxima[i], want)
            if box[rules.KIND] == rules.UPPER:
                upper += got
        assert upper == total == sum(shuffled)
    assert maxima == [rs.box_max(i) for i in range(rs.nboxes)]


@pytest.mark.parametrize("rs", list(RULESETS), ids=lambda rs: rs.name)
def test_order_never_matters(rs):
    """All distinct orderings of a sample of multisets give the same counts and scores."""
    import itertools

    for dice in all_multisets(rs.ndice)[::17]:
        want = None
        for perm in set(itertools.permutations(dice)):
            counts_of(perm, COUNTS)
            got = [score(b, COUNTS) for b in rs.boxes]
            want = want or got
            assert got == want


@pytest.mark.micropython
def test_counts_are_restored_after_scoring():
    counts_of([2, 2, 3, 3, 3, 6], COUNTS)
    before = bytes(COUNTS)
    for rs in RULESETS:
        for box in rs.boxes:
            evaluate(box, COUNTS)
    assert bytes(COUNTS) == before


@pytest.mark.micropython
def test_options_pack_roundtrip():
    for joker in range(3):
        for flags in range(8):
            o = rules.Options(joker, bool(flags & 1), bool(flags & 2), bool(flags & 4), 20)
            assert rules.Options.unpack(*o.pack()) == o
    with pytest.raises(ValueError):
        rules.Options.unpack(3, 10)


# --- every score, compared with MicroPython's ------------------------------------------


class Fixed:
    """A roller that deals the faces it is given."""

    def __init__(self):
        self.faces = []

    def d6(self):
        return self.faces.pop(0)


def vectors(rs):
    out = bytearray()
    counts = bytearray(7)
    for c in rules.multisets(rs.ndice):
        for box in rs.boxes:
            s = evaluate(box, c)
            out.append(s + 1)  # -1 (unsatisfied) becomes 0
        dice = []
        for f in range(1, 7):
            dice.extend([f] * c[f])
        counts_of(dice, counts)
        assert bytes(counts) == bytes(c)
    return out


def game_previews(rid, opts, prefix_faces):
    """Previews of every box after a fixed history, for joker/Sharp Dice coverage."""
    out = bytearray()
    rs = RULESETS[rid]
    for c in rules.multisets(rs.ndice):
        roller = Fixed()
        g = Game(rid, ["A"], options=opts, roller=None)
        g.roller = roller
        for faces, box in prefix_faces:
            roller.faces = list(faces)
            g.roll()
            g.score(box)
        dice = []
        for f in range(1, 7):
            dice.extend([f] * c[f])
        roller.faces = dice
        g.roll()
        for b in range(rs.nboxes):
            out.append(g.preview(b))
            out.append(g.box_state(b))
        out.append(g.pending_yahtzee_bonus() // 100)
    return out


def score_vectors():
    """Every box score of every multiset of every rule set, plus joker and Sharp Dice
    previews after a fixed history, as hex lines (compared across interpreters)."""
    out = [rs.name + " " + vectors(rs).hex() for rs in RULESETS]
    history = [([6] * 5, 11), ([2, 2, 2, 1, 1], 1)]
    for joker in range(3):
        for sharp in (False, True):
            opts = Options(joker=joker, sharp=sharp)
            out.append("joker %d %s %s" % (joker, sharp, game_previews(0, opts, history).hex()))
    out.append("yatzy sharp " + game_previews(1, Options(sharp=True), []).hex())
    return out


def test_micropython_scores_every_multiset_like_cpython():
    from conftest import micropython_call

    ours = score_vectors()
    assert len(ours) == 6 + 6 + 1
    theirs = micropython_call("test_rules", "score_vectors")
    assert len(theirs) == len(ours)
    for a, b in zip(theirs, ours, strict=True):
        assert a == b, a[:40]
