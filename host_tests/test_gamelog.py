"""The game log: JSON lines from picoyacht/gamelog.py, and tools/deploy/log_csv.py's CSV.

A complete 2-player game (play() below, seeded LcgRoller) produces the log; under the
MicroPython unix port it must give byte-identical lines. A twin module: tests marked
micropython run on both interpreters (host_tests/mp/README.md).
"""

import json
import sys

import pytest

from picoyacht import gamelog, rules
from picoyacht.game import FILLED, LOCKED, Game
from picoyacht.policy import best_box, most_common_mask  # the one fallback policy

from scripted import LcgRoller

if sys.implementation.name != "micropython":  # the host tool and what it writes
    import csv

    import log_csv as tool

NAMES = ("Ann", 'Bo"b', "Cy\\", "Di")


def play(seed, players=2, rid=rules.YAHTZEE, undo_at=-1):
    """Every log line of one game; at turn `undo_at` a box is scored, undone and re-scored
    (the app's undo line in between)."""
    g = Game(rid, list(NAMES[:players]), roller=LcgRoller(seed), seed=seed)
    lines = [gamelog.start_line(g)]
    while not g.over:
        g.roll()
        while g.rolls_left and g.turn % 3:
            g.set_held(most_common_mask(g.dice))
            if g.held == (1 << len(g.dice)) - 1:
                break
            g.roll()
        box = best_box(g)
        seat = g.current
        dice = bytes(g.dice)
        bonus = g.pending_yahtzee_bonus()
        if g.turn == undo_at:
            pts = g.score(box)
            lines.append(gamelog.score_line(g, seat, box, pts, dice, bonus))
            g.undo()
            lines.append('{"ev":"undo","seed":' + str(g.seed) + ',"turn":' + str(g.turn) + "}")
            box = (box + 1) % g.rs.nboxes
            while g.box_state(box) in (LOCKED, FILLED):
                box = (box + 1) % g.rs.nboxes
        pts = g.score(box)
        lines.append(gamelog.score_line(g, seat, box, pts, dice, bonus))
    lines.append(gamelog.end_line(g))
    return g, lines


def log_lines(seed, players):
    """The log of one game with an undo at turn 5 (compared across interpreters)."""
    return play(seed, players, undo_at=5)[1]


NOISE = [
    "MPY: soft reboot",
    "MicroPython v1.24.1 on 2024-11-29; Raspberry Pi Pico with RP2040",
    'Type "help()" for more information.',
    ">>> ",
    "Traceback (most recent call last):",
    '{"not": "an event"}',
    '{"ev": "score", broken',
]


@pytest.fixture(scope="module")
def game_log():
    g, lines = play(7, 2, undo_at=5)
    mixed = []
    for i, line in enumerate(lines):
        mixed.append(NOISE[i % len(NOISE)])
        mixed.append(line if i % 4 else ">>> " + line)  # a prompt glued in front
    return g, lines, mixed


def test_lines_are_one_line_json_with_the_fields(game_log):
    g, lines, _ = game_log
    for line in lines:
        assert "\n" not in line
        json.loads(line)
    scores = [json.loads(x) for x in lines]
    score = [e for e in scores if e["ev"] == "score"]
    first = score[0]
    assert set(first) >= {"ev", "rules", "seed", "player", "seat", "turn", "dice", "box",
                          "score", "total"}
    assert first["rules"] == "Yahtzee" and first["seed"] == 7 and len(first["dice"]) == 5
    end = json.loads(lines[-1])
    assert end["ev"] == "end" and end["seed"] == 7
    assert end["totals"] == [g.total(0), g.total(1)] and end["winners"] == g.winners()
    assert end["players"] == list(NAMES[:2])
    # the running total is the game's own total after each box
    last = {}
    for e in score:
        last[e["seat"]] = e["total"]
    assert [last[0], last[1]] == end["totals"]


@pytest.mark.micropython
def test_names_are_escaped():
    assert gamelog.q('a"b\\c') == '"a\\"b\\\\c"'
    assert json.loads(gamelog.q("x\ty\x01")) == "x\ty\x01"


def test_tool_writes_csv(game_log, tmp_path):
    g, lines, mixed = game_log
    log = tmp_path / "console.txt"
    log.write_text("\n".join(mixed) + "\n")
    out_csv = tmp_path / "g.csv"
    assert tool.main([str(log), "--csv", str(out_csv)]) == 0
    rows = list(csv.DictReader(out_csv.open()))
    nb = g.rs.nboxes
    assert len(rows) == 2 * nb  # the undone box is gone
    assert [int(r["turn"]) for r in rows] == list(range(2 * nb))
    for seat in (0, 1):
        mine = [r for r in rows if int(r["seat"]) == seat]
        assert [int(r["round"]) for r in mine] == list(range(1, nb + 1))
        assert {r["player"] for r in mine} == {NAMES[seat]}
        assert int(mine[-1]["total"]) == g.total(seat)
        assert sorted(r["box"] for r in mine) == sorted(b[0] for b in g.rs.boxes)
        assert all(len(r["dice"].split()) == 5 for r in mine)
        running = 0
        for r in mine:  # totals never fall; they grow by at least the box's score
            assert int(r["total"]) >= running + int(r["score"])
            running = int(r["total"])
    assert rows[0]["rules"] == "Yahtzee" and rows[0]["seed"] == "7"


def test_two_games_and_a_filter(tmp_path):
    _, a = play(3, 2)
    _, b = play(4, 3)
    log = tmp_path / "two.txt"
    log.write_text("\n".join(a + ["noise"] + b))
    gs = tool.games(log.read_text().splitlines())
    assert [len(x.players) for x in gs] == [2, 3]
    out_csv = tmp_path / "b.csv"
    assert tool.main([str(log), "--game", "2", "--csv", str(out_csv)]) == 0
    rows = list(csv.DictReader(out_csv.open()))
    assert {r["game"] for r in rows} == {"2"} and len(rows) == 3 * 13


def test_no_events_is_an_error(tmp_path, capsys):
    log = tmp_path / "empty.txt"
    log.write_text("\n".join(NOISE))
    assert tool.main([str(log), "--csv", str(tmp_path / "x.csv")]) == 1
    assert "no scored boxes" in capsys.readouterr().err


def test_live_reads_mpremote_until_eof(game_log, tmp_path, monkeypatch):
    _, lines, mixed = game_log
    src = tmp_path / "feed.txt"
    src.write_text("\r\n".join(mixed) + "\r\n")
    fake = tmp_path / "fake_mpremote.py"
    fake.write_text("import sys\nassert sys.argv[-1] == 'repl', sys.argv\n"
                    "sys.stdout.buffer.write(open(%r, 'rb').read())\n" % str(src))
    monkeypatch.setenv("PICOYACHT_MPREMOTE", "%s %s" % (sys.executable, fake))
    raw = tmp_path / "raw.txt"
    out_csv = tmp_path / "live.csv"
    assert tool.main(["--live", "--raw", str(raw), "--csv", str(out_csv)]) == 0
    assert len(list(csv.DictReader(out_csv.open()))) == 26
    assert raw.read_text().splitlines() == mixed


def test_micropython_logs_identical_lines():
    from conftest import micropython_call

    for seed, players in ((7, 2), (11, 4)):
        mine = log_lines(seed, players)
        assert micropython_call("test_gamelog", "log_lines", seed, players) == mine


def test_mpremote_command(monkeypatch):
    monkeypatch.delenv("PICOYACHT_MPREMOTE", raising=False)
    assert tool.mpremote_cmd()[-1].endswith("mpremote")
    monkeypatch.setenv("PICOYACHT_MPREMOTE", "python3 -m mpremote")
    assert tool.mpremote_cmd() == ["python3", "-m", "mpremote"]
