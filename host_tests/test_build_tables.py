"""Expert's table builder: each game and option's optimum against independent solvers'
figures, Sharp Dice's "throw them all again", and the table file each writes as the device
reads it (CPython only: the builder is a host tool)."""

from pathlib import Path

import build_tables as bt
import numpy as np
import pytest
from table_policy import REFERENCE_OPTIMA

from picoyacht import engine, rules, strategy_table


@pytest.mark.parametrize("name", sorted(REFERENCE_OPTIMA))
def test_the_optimum_matches_independent_solvers(name):
    """Against figures from solvers independent of this repository; the whole solve, a
    few seconds each. Negative control: Chance doubled with Sharp Dice moves the Sharp
    optimum off its figure."""
    rid, joker, sharp = bt.TABLES[name]
    V = bt.solve(bt.Spec(rid, joker, sharp=sharp))
    assert bt.optimum(V) == pytest.approx(REFERENCE_OPTIMA[name], abs=2e-6)


def test_every_table_name_has_its_game_and_options():
    for name, (rid, joker, sharp) in bt.TABLES.items():
        assert bt.table_name(rid, 0 if joker is None else joker, sharp) == name
    assert bt.table_name(rules.MAXI, 0, False) is None
    assert bt.words("yahtzee_1_sharp") == "Yahtzee, Free joker, Sharp Dice"


def last_turn(rid, box, sharp):
    """The last turn of a game with only `box` open and the upper bonus decided."""
    spec = bt.Spec(rid, rules.JOKER_FORCED if rid == rules.YAHTZEE else None,
                   ((1 << rules.RULESETS[rid].nboxes) - 1) & ~(1 << box), sharp=sharp)
    return spec, bt.solve(spec)


def hold_values(spec, V, roll, left):
    """(throw all again, best hold of some dice, score now) for a roll as face counts, in
    the NumPy spelling of the builder's search, which must value the turn as the kernel."""
    Sm, Ss, holds, turn = bt.turn_search(spec, V, spec.start, spec.at, 0)
    assert turn == pytest.approx(V[spec.start, 0, spec.at])
    keeps = spec.graph[0]
    r = keeps.index(roll) - spec.graph[3][spec.n]
    subs = [i for i, k in enumerate(keeps[:len(holds[left])])
            if 0 < sum(k) and all(a <= b for a, b in zip(k, roll, strict=True))]
    return holds[left][0], max(holds[left][subs]), Sm[r]


def test_throwing_all_the_dice_again_for_a_doubled_yahtzee():
    """Last turn, only the Yahtzee box open, 1-2-3-4-6 with one re-roll left. With Sharp
    Dice, throwing all five (a Yahtzee in one throw scores 100: 100 x 6/6^5) beats holding
    one die (50 x 1/6^4); without it the two are worth the same. Negative controls: the
    kernel or turn_search valuing "throw all" as a hold (A[0] from expect only) fail this."""
    yz = rules.RULESETS[rules.YAHTZEE].yahtzee_box
    roll = (1, 1, 1, 1, 0, 1)
    spec, V = last_turn(rules.YAHTZEE, yz, True)
    throw, hold, now = hold_values(spec, V, roll, 1)
    assert throw == pytest.approx(100 * 6 / 6 ** 5)
    assert hold == pytest.approx(50 / 6 ** 4)
    assert now == 0 and throw > hold
    spec, V = last_turn(rules.YAHTZEE, yz, False)
    throw, hold, _ = hold_values(spec, V, roll, 1)
    assert throw == pytest.approx(hold) == pytest.approx(50 / 6 ** 4)


def test_the_kernel_and_its_numpy_spelling_agree():
    """turn_search (NumPy, one position) against turn_kernel.c on a Sharp sub-game.
    Negative control: the kernel's "throw all" from expect only fails this."""
    rs = rules.RULESETS[rules.YAHTZEE]
    start = ((1 << rs.nboxes) - 1) & ~(0b10000001 | 1 << rs.yahtzee_box)
    spec = bt.Spec(rules.YAHTZEE, rules.JOKER_FREE, start, sharp=True)
    V = bt.solve(spec)
    for m in (start, start | 1, start | 0b10000001, start | 1 << rs.yahtzee_box):
        for up, y in ((0, 0), (60, 0), (63, 1)):
            if y and not m >> rs.yahtzee_box & 1:
                continue
            assert bt.turn_search(spec, V, m, up, y)[3] == pytest.approx(V[m, y, up])


@pytest.mark.parametrize("rid,sharp", [(rules.DELUXE, False), (rules.YAHTZEE, True)])
def test_the_device_reads_what_the_builder_wrote(tmp_path, rid, sharp):
    """A cut-down game's table through strategy_table.Table: the header's options, and
    every value as the decoder (the builder's own arithmetic) has it. Deluxe's bonus at 84
    needs slot rows 85 wide. Negative control: the reader with 64-wide rows fails."""
    rs = rules.RULESETS[rid]
    start = ((1 << rs.nboxes) - 1) & ~(0b110000 | 0b11 << 9)
    spec = bt.Spec(rid, rules.JOKER_FORCED if rs.joker else None, start, sharp=sharp)
    V = bt.solve(spec)
    data = bt.encode(spec, V)
    path = tmp_path / "t.bin"
    path.write_bytes(data)
    Vq = bt.decode(spec, data)
    t = strategy_table.Table.open(str(path))
    assert (t.rid, t.nb, t.at, t.bonus, t.sharp) == (rid, rs.nboxes, rs.bonus_at, rs.bonus, sharp)
    assert t.joker == (rules.JOKER_FORCED if rs.joker else 255)
    checked = 0
    for m in range(spec.full):
        if m & start != start:
            continue
        for y in range(spec.Y):
            for up in range(0, rs.bonus_at + 1, 3):
                if np.isnan(V[m, y, up]) or (y and not m >> spec.yzb & 1):
                    continue
                assert t.value(m, up, y) == Vq[m, y, up]
                assert abs(t.value(m, up, y) / engine.ONE - V[m, y, up]) < 0.2
                checked += 1
    assert checked > 50
    t.close()


def test_a_table_from_before_the_format_is_passed_over(tmp_path):
    """A tables/ cache from an older builder: Expert plays as Normal rather than crash.
    Negative control: Table.open without its ValueError catch raises here."""
    path = tmp_path / "old.bin"
    path.write_bytes(b"PYT1" + bytes(5000))
    assert strategy_table.Table.open(str(path)) is None
    with pytest.raises(ValueError), open(path, "rb") as f:
        strategy_table.Table(f)


@pytest.mark.parametrize("name", ["yahtzee_0", "deluxe", "yatzy_sharp"])
def test_a_tables_size_is_known_before_it_is_built(name):
    rid, joker, sharp = bt.TABLES[name]
    spec = bt.Spec(rid, joker, ((1 << rules.RULESETS[rid].nboxes) - 1) & ~1, sharp=sharp)
    assert len(bt.encode(spec, bt.solve(spec))) == bt.file_size(name)


def test_the_dev_server_builds_a_table_the_page_asks_for(tmp_path):
    """`make web`: the site lacks the table; the first request builds it into the cache
    and serves it, with its progress in words. Negative control: a server started without
    a cache answers 404."""
    import io
    import sys
    import urllib.request
    from contextlib import redirect_stdout

    sys.path.insert(0, str(Path(bt.__file__).parent / "web"))
    import serve

    site, cache = tmp_path / "site", tmp_path / "cache"
    site.mkdir()
    server, url = serve.start(site, tables=cache)
    words = io.StringIO()
    try:
        with redirect_stdout(words):
            data = urllib.request.urlopen(url + "tables/yahtzee.bin").read()
    finally:
        server.shutdown()
    assert data[:4] == strategy_table.TABLE_MAGIC and len(data) == bt.file_size("yahtzee_0")
    assert (cache / "yahtzee_0.bin").read_bytes() == data
    assert "Expert's table for Yahtzee: done" in words.getvalue()


def test_load_asks_the_board_once_for_a_missing_table(tmp_path, monkeypatch):
    """strategy_table.bring (the simulator's board sets it): called with the game's file
    names when none is there, and the table it brings is opened. Negative control: load()
    without its bring call returns None here."""
    from picoyacht.game import Game

    asked = []

    def bring(names):
        asked.append(names)
        spec = bt.Spec(rules.YATZY, None, (1 << 15) - 2)
        (tmp_path / names[0]).write_bytes(bt.encode(spec, bt.solve(spec)))

    monkeypatch.setattr(strategy_table, "bring", bring)
    g = Game(rules.YATZY, ["a"])
    t = strategy_table.load(g, (str(tmp_path),))
    assert t is not None and t.rid == rules.YATZY and len(asked) == 1
    t.close()
    assert strategy_table.load(g, (str(tmp_path),)) is not None and len(asked) == 1


def test_a_table_serving_another_game_is_valued_by_that_games_points():
    """The bench's measure of one table serving another game: on its own game a table
    gives the optimum; the plain table choosing for a Sharp Dice game loses points there,
    yet never scores above that game's optimum. Negative control: the kernel carrying
    the best true value rather than the true value of the choice made fails this."""
    rs = rules.RULESETS[rules.YAHTZEE]
    start = ((1 << rs.nboxes) - 1) & ~((1 << 5) | (1 << 6) | (1 << 10) | (1 << 12))
    sharp = bt.Spec(rules.YAHTZEE, rules.JOKER_FORCED, start, sharp=True)
    V = bt.solve(sharp)
    plain = bt.solve(bt.Spec(rules.YAHTZEE, rules.JOKER_FORCED, start))
    own = bt.solve(sharp, served=V)
    other = bt.solve(sharp, served=plain)
    live = ~np.isnan(V)
    assert np.allclose(own[live], V[live])
    assert (other[live] <= V[live] + 1e-9).all()
    assert other[start, 0, 0] < V[start, 0, 0] - 0.1
