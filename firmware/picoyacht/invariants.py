"""The game's invariants: one check that a position is one legal play can reach.

snapshot.load runs it on every saved game before the app may resume it, and the tests run
it on every position they play through. A module of its own so that the snapshot taken at
every scored box does not load it. It reads the game it is given and imports only the rules
core, so that game, snapshot and this module form no import circle.
"""

from picoyacht.reachable import by_a_yahtzee, possible
from picoyacht.rules import CPU_EXPERT, MAX_NAME, MAX_SEATS, ROLLS_PER_TURN, pot_share


class Invalid(ValueError):
    """A position no legal play reaches."""


def _check(cond, what):
    if not cond:
        raise Invalid("snapshot invalid: " + what)


def popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


def _yahtzee_rolls(game, seat, sharp):
    """How many of the seat's filled boxes (the Yahtzee box aside) a roll of all dice alike
    could have scored: each Yahtzee bonus went into one of them."""
    rs = game.rs
    filled = game.filled[seat]
    base = seat * rs.nboxes
    n = 0
    for b in range(rs.nboxes):
        if b != rs.yahtzee_box and filled >> b & 1 and by_a_yahtzee(
                rs, b, game.scores[base + b], sharp):
            n += 1
    return n


def _credits_possible(game, seat, over, winners):
    """Whether the seat's credits are its bet back out, plus what the bank paid for its
    first-roll Large Straight, Full House and Yatzy, plus its share of the pot at the end."""
    rs = game.rs
    bet = game.options.bet
    base = seat * rs.nboxes
    want = game.credits[seat] + bet
    if over and seat in winners:
        want -= pot_share(game, seat, winners)
    pays = []
    for box in range(rs.nboxes):
        pay = rs.first_roll_reward(box, bet)
        if pay and game.filled[seat] >> box & 1 and game.scores[base + box]:
            pays.append(pay)
    for pick in range(1 << len(pays)):  # each box pays once: any subset of them
        t = 0
        for i in range(len(pays)):
            if pick >> i & 1:
                t += pays[i]
        if t == want:
            return True
    return False


def validate(game):
    """Raise Invalid unless ``game`` is a position legal play can reach.

    Every field in range (rolls bounded per rule set, Maxi's carried rolls included), the
    scorecards consistent with the turn, every filled box a score some dice make, bonuses
    and credits earned by the boxes, and the player to move has a legal action (a roll or
    a box to score)."""
    rs = game.rs
    opts = game.options
    n = game.nseats
    nb = rs.nboxes
    _check(1 <= n <= MAX_SEATS and len(game.names) == n, "seat count")
    order = game.order
    _check(sorted(order) == list(range(n)), "seat order")
    if not rs.random_seating:
        first = order[0] if rs.rolloff else 0
        for i in range(n):
            _check(order[i] == (first + i) % n, "seat order")
    turn = game.turn
    _check(0 <= turn <= nb * n, "turn")
    over = turn == nb * n
    maxi = rs.saved_rolls and opts.saved_rolls
    sharp = rs.sharp and opts.sharp
    winners = game.winners() if over and rs.casino else ()
    for pos in range(n):
        seat = order[pos]
        name = game.names[seat]
        _check(1 <= len(name) <= MAX_NAME and all(" " <= ch <= "~" for ch in name), "name")
        _check(game.kinds[seat] <= CPU_EXPERT, "seat kind")
        filled = game.filled[seat]
        done = turn // n + (1 if pos < turn % n else 0)
        _check(filled >> nb == 0 and popcount(filled) == done, "boxes filled vs turn")
        base = seat * nb
        for b in range(nb):
            points = game.scores[base + b]
            if filled >> b & 1:
                _check(possible(rs, b, points, sharp), "box score")
            else:
                _check(points == 0, "score in an open box")
        bonuses = game.ybonus[seat]
        if bonuses:
            ybox = rs.yahtzee_box
            _check(rs.joker and filled >> ybox & 1 and game.scores[base + ybox]
                   and bonuses <= _yahtzee_rolls(game, seat, sharp), "Yahtzee bonus count")
        # Maxi: a seat carries at most 2 unused rolls per turn it played; the seat to move
        # has already taken its carried rolls into rolls_left.
        saved = game.saved[seat]
        _check(not saved or maxi and saved <= 2 * done and (over or seat != game.current),
               "saved rolls")
        credits = game.credits[seat]
        if rs.casino:
            _check(_credits_possible(game, seat, over, winners), "credits")
        else:
            _check(credits == 0, "credits")
    used = game.rolls_used
    left = game.rolls_left
    _check(used >= 0 and left >= 0, "rolls")
    if over:
        _check(used == 0 and left == 0, "rolls after the end")
    else:
        extra = used + left - ROLLS_PER_TURN
        carried = 2 * popcount(game.filled[game.current]) if maxi else 0
        _check(0 <= extra <= carried, "rolls")
    dice = game.dice
    all_held = (1 << rs.ndice) - 1
    _check(len(dice) == rs.ndice and game.held & all_held == game.held, "dice flags")
    if used == 0:
        _check(game.held == 0 and not game.single_roll and not any(dice), "dice before a roll")
    else:
        _check(all(1 <= d <= 6 for d in dice) and (used > 1 or game.single_roll), "dice faces")
    if not over:
        can_roll = left > 0 and not (used and game.held == all_held)
        _check(can_roll or game.allowed(), "no legal action")
