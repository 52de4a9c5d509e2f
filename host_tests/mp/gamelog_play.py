"""A complete seeded game that prints its game-log lines: the same text on both interpreters.

Used by host_tests/test_gamelog.py under CPython and, as a script, under MicroPython:
    micropython gamelog_play.py [seed [players]]
"""

from picoyacht import gamelog, rules
from picoyacht.game import FILLED, LOCKED, Game
from picoyacht.policy import best_box, most_common_mask

from scripted import LcgRoller

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


if __name__ == "__main__":
    import sys

    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    for line in play(seed, players, undo_at=5)[1]:
        print(line)
