"""Builds a game at a given solitaire position, for strategy checks on both interpreters."""

from picoyacht.game import Game
from picoyacht.rules import Options

from scripted import ScriptedRoller


def make_game(rid, joker, mask, up, y, dice, rolls_left):
    g = Game(rid, ["cpu"], options=Options(joker=joker), roller=ScriptedRoller(dice))
    g.roll()
    nb = g.rs.nboxes
    g.filled[0] = mask
    left = up
    for b in range(6):
        if mask >> b & 1 and left:
            s = left if left < 200 else 200
            g.scores[b] = s
            left -= s
    yb = g.rs.yahtzee_box
    if y and yb >= 0:
        g.scores[yb] = 50
    g.rolls_left = rolls_left
    g.rolls_used = 1 if rolls_left >= 2 else 3 - rolls_left
    g.held = 0
    assert g.upper_total(0) == up and nb
    return g


def held_code(g, mask):
    """Packed multiset (3 bits per face) of the held dice."""
    code = 0
    for i in range(len(g.dice)):
        if mask >> i & 1:
            code += 1 << (3 * (g.dice[i] - 1))
    return code
