"""Snapshots: exact round trips, a stated size, and clean refusal of bad bytes."""

import random

import pytest

from picoyacht import rules, snapshot
from picoyacht.game import Game
from picoyacht.snapshot import SnapshotError

from scripted import LcgRoller


def play_some(rid, players, turns, seed=1, names=None):
    roller = LcgRoller(seed)
    names = names or ["Player%d" % i for i in range(players)]
    g = Game(rid, names, kinds=[i % 4 for i in range(players)], roller=roller, seed=seed)
    for _ in range(turns):
        g.roll()
        open_box = next(b for b in range(g.rs.nboxes) if not g.is_filled(g.current, b)
                        and g._allowed() >> b & 1)
        g.score(open_box)
    g.roll()
    g.hold(0)
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
