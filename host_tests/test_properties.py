"""Random complete games (hypothesis chooses every roll, hold and box) keep the invariants:
each box filled once, totals add up, the game ends after boxes x players turns, and a
snapshot round-trips at every step."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from picoyacht import rules
from picoyacht.game import LOCKED, YAHTZEE_BONUS, Game, RuleError
from picoyacht.rules import Options


class DrawRoller:
    def __init__(self, data):
        self.data = data

    def d6(self):
        return self.data.draw(st.integers(1, 6), label="die")


options = st.builds(Options, joker=st.integers(0, 2), sharp=st.booleans(),
                    saved_rolls=st.booleans(), bonus100=st.booleans(),
                    bet=st.integers(0, 255))


def assert_card_is_box_by_box(g):
    """Game.card (one pass, for the card screen) agrees with box_state and preview."""
    n = g.rs.nboxes
    states, values = bytearray(n), [None] * n
    g.card(states, values)
    want = [(g.box_state(b), 0 if g.box_state(b) == LOCKED else g.preview(b)) for b in range(n)]
    assert list(zip(states, values, strict=True)) == want


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rid=st.integers(0, rules.COUNT - 1), players=st.integers(1, 4), opts=options,
       data=st.data())
def test_random_complete_games(rid, players, opts, data):
    roller = DrawRoller(data)
    g = Game(rid, ["P%d" % i for i in range(players)], options=opts, roller=roller)
    rs = g.rs
    turns = 0
    fills = [[0] * rs.nboxes for _ in range(players)]
    while not g.over:
        snap = g.snapshot()
        back = Game.restore(snap)
        assert back.snapshot() == snap
        seat = g.current
        g.roll()
        while g.rolls_left and data.draw(st.booleans(), label="reroll"):
            g.set_held(data.draw(st.integers(0, (1 << rs.ndice) - 2), label="held"))
            g.roll()
        assert_card_is_box_by_box(g)
        legal = [b for b in range(rs.nboxes) if g.allowed() >> b & 1]
        assert legal, "a rolled turn always has a legal box"
        before = g.snapshot()
        illegal = [lambda b=b: g.score(b) for b in range(rs.nboxes) if b not in legal]
        if not g.rolls_left:
            illegal.append(g.roll)
        illegal.append(lambda: g.set_held(1 << rs.ndice))
        for action in illegal:
            try:
                action()
                raise AssertionError("an illegal action succeeded")
            except RuleError:
                assert g.snapshot() == before, "a refused action changed the game"
        b = data.draw(st.sampled_from(legal), label="box")
        preview = g.preview(b)
        assert g.score(b) == preview
        fills[seat][b] += 1
        turns += 1
        boxes = sum(g.box_score(seat, i) for i in range(rs.nboxes))
        bonus = g.upper_bonus(seat) + YAHTZEE_BONUS * g.ybonus[seat]
        assert g.total(seat) == boxes + bonus
    assert turns == rs.nboxes * players
    assert all(f == [1] * rs.nboxes for f in fills)
    assert g.snapshot() == Game.restore(g.snapshot()).snapshot()
    if rs.casino:
        # Every stake went into the pot and the pot went to the winners.
        pot = opts.bet * players
        rewards = sum(g.credits) + pot - (pot // len(g.winners())) * len(g.winners())
        assert rewards >= 0
