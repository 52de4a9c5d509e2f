"""A CPU action applied to a bare game, for the strategy tests on both interpreters
(a module of its own: 64 KB runs compile these scripts from source)."""

from picoyacht.strategy import SCORE


def apply(game, action):
    """Play a strategy action on the game: (SCORE, box), or (HOLD, mask) then a roll.
    Game's own checks raise RuleError on anything illegal."""
    if action[0] == SCORE:
        return game.score(action[1])
    if game.rolls_used:
        game.set_held(action[1])
    game.roll()
    return None
