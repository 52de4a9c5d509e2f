"""The fallback policy: "keep the most common face, score the best box".

What a CPU seat plays when picoyacht.strategy is missing or out of heap, and what the
scripted test games play. Kept apart from coach.py so that a bare game (the smallest
heaps, no app) can import it.
"""

from micropython import const

from picoyacht.game import POINTS, ZERO

# Actions, as the screens apply them.
A_ROLL = const(0)
A_HOLD = const(1)
A_SCORE = const(2)


def most_common_mask(dice):
    """Hold the dice of the most common face (ties: the higher face)."""
    counts = bytearray(7)
    for d in dice:
        counts[d] += 1
    best = 6
    for f in range(6, 0, -1):
        if counts[f] > counts[best]:
            best = f
    mask = 0
    for i in range(len(dice)):
        if dice[i] == best:
            mask |= 1 << i
    return mask


def best_box(game):
    """The selectable box with the highest score now (ties: the first), or -1."""
    best = -1
    best_pts = -1
    for b in range(game.rs.nboxes):
        st = game.box_state(b)
        if st == POINTS or st == ZERO:
            p = game.preview(b)
            if p > best_pts:
                best, best_pts = b, p
    return best


def fallback(game, level):
    """(A_ROLL, 0) | (A_HOLD, mask) | (A_SCORE, box): keep the most common face while
    rolls are left (level 0: never re-roll), then score the best box."""
    if not game.rolls_used:
        return A_ROLL, 0
    if game.rolls_left and level > 0:
        want = most_common_mask(game.dice)
        if want != game.held:
            return A_HOLD, want
        if want != (1 << len(game.dice)) - 1:
            return A_ROLL, 0
    return A_SCORE, best_box(game)


def can_roll(game):
    """A roll is left, and not every die is held."""
    if game.rolls_left <= 0:
        return False
    return not (game.rolls_used and game.held == (1 << len(game.dice)) - 1)
