"""Snapshots: exact round trips, a stated size, and clean refusal of bad bytes."""

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from picoyacht import invariants, rules, snapshot
from picoyacht.game import Game
from picoyacht.snapshot import SnapshotError

from conftest import ROOT
from scripted import LcgRoller


def play_some(rid, players, turns, seed=1, names=None):
    roller = LcgRoller(seed)
    names = names or ["Player%d" % i for i in range(players)]
    g = Game(rid, names, kinds=[i % 4 for i in range(players)], roller=roller, seed=seed)
    for _ in range(turns):
        g.roll()
        open_box = next(b for b in range(g.rs.nboxes) if not g.is_filled(g.current, b)
                        and g.allowed() >> b & 1)
        g.score(open_box)
    g.roll()
    g.set_held(1)
    return g


def state_of(g):
    return (g.rs.id, g.options.pack(), list(g.names), bytes(g.kinds), bytes(g.order), g.turn,
            bytes(g.dice), g.held, g.rolls_used, g.rolls_left, g.single_roll, list(g.filled),
            bytes(g.scores), bytes(g.ybonus), bytes(g.saved), list(g.credits), g.seed)


@pytest.mark.parametrize("rs", list(rules.RULESETS), ids=lambda rs: rs.name)
def test_roundtrip_exact(rs):
    g = play_some(rs.id, 3, 7)
    data = g.snapshot()
    back = Game.restore(data, LcgRoller(0))
    assert state_of(back) == state_of(g)
    assert back.roller.getstate() == g.roller.getstate()
    assert back.snapshot() == data
    # The restored game plays on identically.
    g.roll()
    back.roll()
    assert bytes(g.dice) == bytes(back.dice)


@pytest.mark.parametrize("rs", list(rules.RULESETS), ids=lambda rs: rs.name)
def test_size_for_six_players_with_longest_names(rs):
    g = play_some(rs.id, 6, 10, names=["ABCDEFGH"] * 6)
    size = len(g.snapshot())
    one = len(play_some(rs.id, 1, 3, names=["ABCDEFGH"]).snapshot())
    print("%s: 1 player %d bytes, 6 players %d bytes" % (rs.name, one, size))
    assert size <= 256


def test_every_truncation_is_refused():
    data = play_some(rules.MAXI, 4, 9).snapshot()
    for n in range(len(data)):
        with pytest.raises(SnapshotError):
            Game.restore(data[:n])


def test_garbage_and_bit_flips_never_half_restore():
    data = bytearray(play_some(rules.YAHTZEE, 2, 5).snapshot())
    rng = random.Random(7)
    refused = 0
    for trial in range(3000):
        bad = bytearray(data)
        if trial % 3 == 0:
            bad = bytearray(rng.getrandbits(8) for _ in range(rng.randrange(0, 300)))
        else:
            for _ in range(rng.randrange(1, 4)):
                i = rng.randrange(len(bad))
                bad[i] ^= 1 << rng.randrange(8)
        try:
            g = Game.restore(bytes(bad), LcgRoller(0))
        except SnapshotError:
            refused += 1
            continue
        # Anything accepted must be a consistent game that re-serializes identically.
        assert g.snapshot() == bytes(bad)
    assert refused >= 2990


def test_checksum_valid_but_inconsistent_is_refused():
    g = play_some(rules.YAHTZEE, 2, 4)
    g.scores[12] = 30  # a score in an open box of seat 0 (Chance unfilled)
    g.filled[0] &= ~(1 << 12)
    with pytest.raises(SnapshotError, match="open box"):
        Game.restore(snapshot.dump(g))
    g = play_some(rules.YAHTZEE, 2, 4)
    g.turn += 1
    with pytest.raises(SnapshotError, match="turn"):
        Game.restore(snapshot.dump(g))


def test_not_bytes():
    with pytest.raises(SnapshotError):
        Game.restore(None)
    with pytest.raises(SnapshotError):
        Game.restore("PY")


# ---- the validator: every legal position passes, every targeted mutation fails ----------
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rid=st.integers(0, rules.COUNT - 1), players=st.integers(1, 6),
       opts=st.builds(rules.Options, joker=st.integers(0, 2), sharp=st.booleans(),
                      saved_rolls=st.booleans(), bonus100=st.booleans(),
                      bet=st.integers(0, 255)),
       seed=st.integers(0, 2**31), data=st.data())
def test_every_position_of_legal_play_validates(rid, players, opts, seed, data):
    """Hypothesis picks every action (and the seed of the dice) through whole games."""
    g = Game(rid, ["P%d" % i for i in range(players)], kinds=[i % 4 for i in range(players)],
             options=opts, roller=LcgRoller(seed))
    nd = g.rs.ndice
    while True:
        invariants.validate(g)
        assert Game.restore(g.snapshot(), LcgRoller(0)).snapshot() == g.snapshot()
        if g.over:
            break
        actions = ["score", "hold"] if g.rolls_used else []
        if g.rolls_left and not (g.rolls_used and g.held == (1 << nd) - 1):
            actions.append("roll")
        if g.can_undo:
            actions.append("undo")
        act = data.draw(st.sampled_from(actions), label="action")
        if act == "roll":
            g.roll()
        elif act == "hold":
            g.set_held(data.draw(st.integers(0, (1 << nd) - 1), label="held"))
        elif act == "undo":
            g.undo()
        else:
            legal = [b for b in range(g.rs.nboxes) if g.allowed() >> b & 1]
            g.score(data.draw(st.sampled_from(legal), label="box"))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rid=st.integers(0, rules.COUNT - 1), players=st.integers(1, 6),
       opts=st.builds(rules.Options, joker=st.integers(0, 2), sharp=st.booleans(),
                      saved_rolls=st.booleans(), bet=st.integers(0, 255)),
       seed=st.integers(0, 2**31), data=st.data())
def test_undo_gives_back_the_position_before_the_box(rid, players, opts, seed, data):
    """Every box of whole games, the last one too (a Casino pot paid out), is scored, taken
    back and scored again: undo leaves exactly the state and snapshot before the box."""
    g = Game(rid, ["P%d" % i for i in range(players)], kinds=[i % 4 for i in range(players)],
             options=opts, roller=LcgRoller(seed))
    nd = g.rs.ndice
    while not g.over:
        for _ in range(data.draw(st.integers(1, g.rolls_left), label="rolls")):
            g.roll()
            g.set_held(data.draw(st.integers(0, (1 << nd) - 2), label="held"))
        legal = [b for b in range(g.rs.nboxes) if g.allowed() >> b & 1]
        b = data.draw(st.sampled_from(legal), label="box")
        before, data_before = state_of(g), g.snapshot()
        g.score(b)
        after = state_of(g)
        g.undo()
        assert state_of(g) == before and g.snapshot() == data_before and not g.can_undo
        g.score(b)
        assert state_of(g) == after


def resigned(data):
    """The bytes with a fresh, valid checksum: what a buggy or foreign writer could leave."""
    body = bytearray(data[:-2])
    c = snapshot._fletcher16(body, len(body))
    return bytes(body) + bytes((c & 0xFF, c >> 8))


def _bytes_at(offset, value):
    def mutate(g):
        data = bytearray(g.snapshot())
        data[offset] = value
        return resigned(data)
    return mutate


def _field(name, value):
    def mutate(g):
        setattr(g, name, value(g) if callable(value) else value)
    return mutate


def _seat(name, value, seat=None):
    def mutate(g):
        s = g.current if seat is None else seat
        getattr(g, name)[s] = value(g, s) if callable(value) else value
    return mutate


def _box(value, filled=True, box=None):
    def mutate(g):
        s = g.order[0]
        nb = g.rs.nboxes
        b = box if box is not None else next(
            b for b in range(nb) if bool(g.filled[s] >> b & 1) == filled)
        g.scores[s * nb + b] = value(g, b) if callable(value) else value
    return mutate


def _no_roll_yet(g):
    g.rolls_used = 0
    g.held = 0
    g.single_roll = False
    g.dice[:] = bytes(len(g.dice))


def _softlock(g):
    _no_roll_yet(g)
    g.rolls_left = 0


def _all_held_no_rolls_no_box(g):
    g.held = (1 << g.rs.ndice) - 1
    g.rolls_left = 0
    g.filled[g.current] = (1 << g.rs.nboxes) - 1


MUTATIONS = {
    "0 seats": _bytes_at(6, 0),
    "7 seats": _bytes_at(6, 7),
    "rule set 6": _bytes_at(3, rules.COUNT),
    "rolls_used=0 rolls_left=0": _softlock,
    "rolls_left=28": _field("rolls_left", 28),
    "rolls_left=255": _field("rolls_left", 255),
    "more rolls than carried": _field("rolls_left", lambda g: 4 - g.rolls_used + 2 * bin(
        g.filled[g.current]).count("1") * (g.rs.saved_rolls and g.options.saved_rolls)),
    "fewer rolls than a turn": _field("rolls_left", lambda g: 2 - g.rolls_used),
    "turn+1": _field("turn", lambda g: g.turn + 1),
    "turn past the end": _field("turn", lambda g: g.rs.nboxes * g.nseats + 1),
    "seat order repeated": _field("order", lambda g: bytearray([0] * g.nseats)),
    "seat order reversed": _field("order", lambda g: bytearray(range(g.nseats))[::-1]),
    "seat kind 4": _seat("kinds", 4),
    "control char in a name": _seat("names", "A\x01"),
    "DEL in a name": _seat("names", "A\x7f"),
    "C1 control in a name": _seat("names", "A\x85"),
    "score in an open box": _box(1, filled=False),
    "upper score off its face": _box(1, box=1),
    "score above any dice": _box(255),
    "die face 7": lambda g: g.dice.__setitem__(0, 7),
    "die face 0 after a roll": lambda g: g.dice.__setitem__(0, 0),
    "dice before a roll": lambda g: (_no_roll_yet(g), g.dice.__setitem__(0, 3)),
    "held before a roll": lambda g: (_no_roll_yet(g), setattr(g, "held", 1)),
    "held die beyond the dice": _field("held", lambda g: 1 << g.rs.ndice),
    "first roll not a single roll": lambda g: (setattr(g, "rolls_used", 1),
                                               setattr(g, "single_roll", False)),
    "no legal action": _all_held_no_rolls_no_box,
    "box filled out of turn": _seat("filled", lambda g, s: g.filled[s] | 1 << 12, seat=0),
    "Yahtzee bonus without a Yahtzee": _seat("ybonus", 1),
    "Yahtzee bonuses beyond the turns": _seat("ybonus", 200, seat=0),
    "saved rolls on the seat to move": _seat("saved", 2),
    "saved rolls beyond the turns": _seat("saved", 99, seat=0),
    "credits below the stake": _seat("credits", lambda g, s: -g.options.bet - 1),
    "credits above any win": _seat("credits", 30000),
}


def mid_game(rid, players):
    g = play_some(rid, players, 3 * players + 1, seed=rid * 7 + players)
    g.roll()  # a second roll: rolls_used 2, single_roll settled by the holds
    return g


@pytest.mark.parametrize("players", [1, 2, 6])
@pytest.mark.parametrize("rs", list(rules.RULESETS), ids=lambda rs: rs.name)
def test_targeted_mutations_are_refused(rs, players):
    refused = 0
    for name, mutate in MUTATIONS.items():
        g = mid_game(rs.id, players)
        invariants.validate(g)  # the control: the unmutated position is fine
        try:
            data = mutate(g)
        except (IndexError, ValueError, StopIteration):
            continue  # not expressible in this rule set (e.g. a bytearray refuses -1)
        if data is None:
            before = mid_game(rs.id, players).snapshot()
            data = snapshot.dump(g)
            if data == before:
                continue  # the rule set does not store that field (e.g. credits)
            with pytest.raises(invariants.Invalid):
                invariants.validate(g)
                print("validate accepted:", name)
        with pytest.raises(SnapshotError):
            Game.restore(data)
            print("load accepted:", name)
        refused += 1
    assert refused >= len(MUTATIONS) - 8


@pytest.mark.parametrize("seed", [0, 1, 2**30 - 1, 2**30, 2**31 + 5, 2**32 - 1, 2**32 + 7, -1])
def test_seed_and_roller_state_are_little_endian_u32s(seed):
    """Written from 16-bit halves (no int of 2**30 or more, a heap object on a Pico, is
    formed), they are still seed mod 2**32 and getstate(), for the device's roller and for a
    stand-in that has only getstate()."""
    import struct

    from picoyacht.roller import Roller

    for roller in (Roller(seed & 0xFFFFFFFF), LcgRoller(seed & 0xFFFF)):
        for _ in range(50):  # states on both sides of 2**30
            g = Game(0, ["A"], roller=roller, seed=seed)
            at = len(snapshot._MAGIC) + 10
            assert struct.unpack("<II", g.snapshot()[at:at + 8]) == (
                seed & 0xFFFFFFFF, roller.getstate() & 0xFFFFFFFF)
            roller.d6()


# ---- the package's seams -----------------------------------------------------------------
def _firmware_trees():
    import ast
    import pathlib

    pkg = pathlib.Path(snapshot.__file__).parent
    return {p.stem: ast.parse(p.read_text()) for p in sorted(pkg.glob("*.py"))}


def _imports(tree):
    """The package modules a module imports, at its top or inside a function."""
    import ast

    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "picoyacht":
                out.update(a.name for a in node.names)
            elif node.module.startswith("picoyacht."):
                out.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            out.update(a.name.split(".")[1] for a in node.names
                       if a.name.startswith("picoyacht."))
    return out


def import_cycle(graph):
    """A list of modules that import each other in a circle, or None."""
    state = {}

    def visit(m, path):
        state[m] = 1
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                return path[path.index(n):] + [n]
            if n not in state:
                found = visit(n, path + [n])
                if found:
                    return found
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state:
            found = visit(m, [m])
            if found:
                return found
    return None


def test_no_import_circle_in_the_package():
    """Negative control: the finder reports game -> snapshot -> invariants -> game, the
    circle this package had (invariants imported game, and game imports snapshot lazily)."""
    graph = {m: _imports(t) - {m} for m, t in _firmware_trees().items()}
    assert import_cycle(graph) is None, import_cycle(graph)
    bad = dict(graph, invariants=graph["invariants"] | {"game"})
    assert import_cycle(bad) is not None


def _own_names(tree):
    """Every name a module defines: functions, classes, assigned names and attributes."""
    import ast

    own = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            own.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            own.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            own.add(node.attr)
    return own


def private_reaches(trees):
    """(module, name) for every `x._name` the module does not define itself, and every
    `from m import _name`: one module using another's private names."""
    import ast

    out = []
    for m, tree in trees.items():
        own = _own_names(tree)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                    and not node.attr.startswith("__") and node.attr not in own):
                out.append((m, node.attr))
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("picoyacht"):
                out += [(m, a.name) for a in node.names if a.name.startswith("_")]
    return out


def test_no_module_uses_another_modules_private_names():
    """Negative control: the old `from picoyacht.snapshot import _check` and
    `game._allowed()` are both found."""
    import ast

    trees = _firmware_trees()
    assert private_reaches(trees) == []
    old = {"invariants": ast.parse("from picoyacht.snapshot import _check\ngame._allowed()\n")}
    assert sorted(private_reaches(old)) == [("invariants", "_allowed"), ("invariants", "_check")]


# ---- score cards no dice can make ---------------------------------------------------------
def card(rid, box_abbr, points, turns=3, bet=10, **moves):
    """A 1-seat game mid-play whose filled boxes are the first `turns - 1` and `box_abbr`
    (holding `points`), every other filled box at 0: consistent but for what is set."""
    g = Game(rid, ["A"], options=rules.Options(bet=bet), roller=LcgRoller(5), seed=5)
    for _ in range(turns):
        g.roll()
        g.score(next(b for b in range(g.rs.nboxes) if g.allowed() >> b & 1))
    box = next(b for b in range(g.rs.nboxes) if g.rs.boxes[b][rules.ABBR] == box_abbr)
    g.filled[0] = (g.filled[0] & ~1) | 1 << box
    for b in range(g.rs.nboxes):
        g.scores[b] = 0
    g.scores[box] = points
    for field, value in moves.items():
        getattr(g, field)[0] = value
    return g


IMPOSSIBLE_CARDS = [  # (rule set, box, points, other fields) the validator must refuse
    (rules.YAHTZEE, "FH", 7, {}),
    (rules.YAHTZEE, "SS", 29, {}),
    (rules.YAHTZEE, "CH", 1, {}),
    (rules.YAHTZEE, "CH", 0, {}),  # Chance always scores: it is never scratched
    (rules.YAHTZEE, "3K", 2, {}),
    (rules.YAHTZEE, "YZ", 3, {"ybonus": 1}),
    (rules.YATZY, "2P", 24, {}),  # two different pairs: 6+6+5+5 at most
    (rules.CASINO5, "1P", 2, {"credits": -7}),
    (rules.CASINO5, "FH", 0, {"credits": 0}),  # a bet paid back with no box that pays
]
POSSIBLE_CARDS = [  # the controls: the same shapes with scores dice make
    (rules.YAHTZEE, "FH", 25, {}),
    (rules.YAHTZEE, "SS", 30, {}),
    (rules.YAHTZEE, "CH", 5, {}),
    (rules.YAHTZEE, "CH", 30, {}),
    (rules.YAHTZEE, "3K", 5, {}),
    (rules.YAHTZEE, "YZ", 50, {"ybonus": 1}),
    (rules.YATZY, "2P", 22, {}),
    (rules.CASINO5, "1P", 2, {"credits": -10}),
    (rules.CASINO5, "FH", 28, {"credits": 0}),
]


@pytest.mark.parametrize("rid,abbr,points,fields", IMPOSSIBLE_CARDS)
def test_cards_no_dice_can_make_are_refused(rid, abbr, points, fields):
    """A validator that bounded each value only let these through. Negative control: POSSIBLE_CARDS,
    the same positions with scores dice make, all load (and the old bound-only validator
    accepts every card here: checked against it with git stash)."""
    with pytest.raises(SnapshotError):
        Game.restore(snapshot.dump(card(rid, abbr, points, **fields)))


@pytest.mark.parametrize("rid,abbr,points,fields", POSSIBLE_CARDS)
def test_cards_dice_can_make_load(rid, abbr, points, fields):
    Game.restore(snapshot.dump(card(rid, abbr, points, **fields)))


def test_sharp_dice_doubles_only_what_it_may():
    """Sharp Dice doubles a first-roll lower box (not Chance, not the upper section)."""
    def sharp(abbr, points):
        g = card(rules.YAHTZEE, abbr, points)
        g.options.sharp = True
        return snapshot.dump(g)

    for abbr, points in (("FH", 50), ("LS", 80), ("3K", 60), ("CH", 30)):
        Game.restore(sharp(abbr, points))
    for abbr, points in (("CH", 60), ("FH", 26), ("LS", 60)):
        with pytest.raises(SnapshotError):
            Game.restore(sharp(abbr, points))


def test_the_score_table_holds_every_box_maximum():
    """Scores beyond the row would be refused as impossible: every box fits, joker included."""
    from picoyacht import reachable, record_check

    for rs in rules.RULESETS:
        for b in range(rs.nboxes):
            assert rs.box_max(b) < reachable.ROW_BYTES * 8
            assert reachable.possible(rs, b, rs.box_max(b), False)
            assert record_check.box_cap(rs, b, False) >= rs.box_max(b)


def score_sets(rs):
    """Every score each box takes from some multiset of the dice (0: the box unsatisfied),
    by a plain scan with the rules core's scorer, the joker included."""
    scan = [set() for _ in range(rs.nboxes)]
    for counts in rules.multisets(rs.ndice):
        five = rs.joker and max(counts) == rs.ndice
        for b in range(rs.nboxes):
            scan[b].add(max(0, rules.evaluate(rs.boxes[b], counts)))
            if five and rs.boxes[b][rules.KIND] != rules.UPPER:
                scan[b].add(max(0, rules.evaluate(rs.boxes[b], counts, True)))
    return scan


def score_rows_source():
    """firmware/picoyacht/score_rows.py as the scan makes it."""
    from picoyacht import reachable

    out = []
    for rs in rules.RULESETS:
        rows = bytearray()
        for points in score_sets(rs):
            row = bytearray(reachable.ROW_BYTES)
            for p in points:
                row[p >> 3] |= 1 << (p & 7)
            rows += row
        lines = ['    b"%s"' % "".join("\\x%02x" % v for v in rows[i:i + 22])
                 for i in range(0, len(rows), 22)]
        out.append("    (  # %s\n    %s\n    )," % (rs.name, "\n    ".join(lines)))
    head = ('"""Every score each box of each rule set takes from some dice: reachable.py\'s '
            'rows.\n\nMade by host_tests/test_snapshot.py from rules.evaluate '
            '(UPDATE_SCORE_ROWS=1 rewrites\nthis file); do not edit by hand. Bytes literals, '
            'one per rule set: frozen,\nthey stay in flash; as .mpy, no block is larger than '
            'one rule set\'s rows.\n"""\n\n')
    return head + "ROWS = (\n" + "\n".join(out) + "\n)\n"


def test_the_score_table_is_every_score_of_every_multiset():
    """The table a save is checked against gives exactly the scores a plain scan of every
    multiset gives, joker included; a stale table fails here."""
    from picoyacht import reachable

    path = ROOT / "firmware" / "picoyacht" / "score_rows.py"
    want = score_rows_source()
    if os.environ.get("UPDATE_SCORE_ROWS"):
        path.write_text(want)
    assert path.read_text() == want, "stale: UPDATE_SCORE_ROWS=1 pytest host_tests/test_snapshot.py"
    for rs in rules.RULESETS:
        scan = score_sets(rs)
        for b in range(rs.nboxes):
            table = {p for p in range(reachable.ROW_BYTES * 8)
                     if reachable.possible(rs, b, p, False)}
            assert table == scan[b], (rs.name, b)
