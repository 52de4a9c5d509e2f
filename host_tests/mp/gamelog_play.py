"""A complete seeded game that prints its game-log lines: the same text on both interpreters.

Used by host_tests/test_gamelog.py under CPython and, as a script, under MicroPython:
    micropython gamelog_play.py [seed [players]]
"""

from picoyacht import gamelog, rules
from picoyacht.game import FILLED, LOCKED, Game

from scripted import LcgRoller

NAMES = ("Ann", 'Bo"b', "Cy\\", "Di")


def best_box(g):
    best, pts = -1, -1
    for b in range(g.rs.nboxes):
        st = g.box_state(b)
        if st != LOCKED and st != FILLED and g.preview(b) > pts:
            best, pts = b, g.preview(b)
    return best


def keep_most_common(g):
    counts = [0] * 7
    for d in g.dice:
        counts[d] += 1
    face = 6
    for f in range(6, 0, -1):
        if counts[f] > counts[face]:
            face = f
    mask = 0
    for i in range(len(g.dice)):
        if g.dice[i] == face:
            mask |= 1 << i
    g.set_held(mask)


def play(seed, players=2, rid=rules.YAHTZEE, undo_at=-1):
    """Every log line of one game; at turn `undo_at` a box is scored, undone and re-scored
    (the app's undo line in between)."""
    g = Game(rid, list(NAMES[:players]), roller=LcgRoller(seed), seed=seed)
    lines = [gamelog.start_line(g)]
    while not g.over:
        g.roll()
        while g.rolls_left and g.turn % 3:
            keep_most_common(g)
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


if __name__ == "__main__":
    import sys

    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    for line in play(seed, players, undo_at=5)[1]:
        print(line)
