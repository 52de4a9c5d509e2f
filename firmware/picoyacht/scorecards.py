"""Every seat's scorecard: which boxes are filled and with how many points, the Yahtzee
bonuses and the Casino credits, and what the screens and the end of a game read from
them (totals, winners, ratings).

A class of its own so that picoyacht.game is the turn's state machine only: Game extends
Scorecards with the dice, the turn order and what a move may do.
"""

from micropython import const

from picoyacht.rules import YAHTZEE_BONUS

# End-of-game ratings of a box against its maximum.
RATE_ZERO = const(0)
RATE_LOW = const(1)  # at most half the maximum
RATE_HIGH = const(2)  # more than half, below the maximum
RATE_MAX = const(3)
RATE_ABOVE = const(4)  # only with Sharp Dice


class Scorecards:
    """The cards of n seats for rule set rs played with options."""

    def __init__(self, rs, options, n):
        self.rs = rs
        self.options = options
        self.nseats = n
        self.filled = [0] * n  # per seat, a bit per box
        self.scores = bytearray(n * rs.nboxes)
        self.ybonus = bytearray(n)  # Yahtzee bonuses earned
        self.credits = [0] * n  # Casino: this game's net credits per seat
        if rs.casino:
            for s in range(n):
                self.credits[s] = -options.bet

    def box_score(self, seat, box):
        return self.scores[seat * self.rs.nboxes + box]

    def is_filled(self, seat, box):
        return bool(self.filled[seat] >> box & 1)

    def upper_total(self, seat):
        return self._sum(seat, 6)

    def _sum(self, seat, n):
        """The first n boxes of a seat's card; by index, so screens redraw allocation-free."""
        sc = self.scores
        base = seat * self.rs.nboxes
        t = 0
        for b in range(base, base + n):
            t += sc[b]
        return t

    def upper_bonus(self, seat):
        """Credited the moment the upper total reaches the threshold."""
        if self.upper_total(seat) >= self.rs.bonus_at:
            return self.rs.upper_bonus(self.options)
        return 0

    def total(self, seat):
        boxes = self._sum(seat, self.rs.nboxes)
        return boxes + self.upper_bonus(seat) + YAHTZEE_BONUS * self.ybonus[seat]

    def winners(self):
        """Seats with the highest total (several on a tie)."""
        best = max(self.total(s) for s in range(self.nseats))
        return [s for s in range(self.nseats) if self.total(s) == best]

    def pay_pot(self):
        """Casino: the pot, every seat's bet, goes to the winners in equal shares."""
        win = self.winners()
        share = self.options.bet * self.nseats // len(win)
        for s in win:
            self.credits[s] += share

    def rating(self, seat, box):
        s = self.box_score(seat, box)
        m = self.rs.box_max(box)
        if s == 0:
            return RATE_ZERO
        if s > m:
            return RATE_ABOVE
        if s == m:
            return RATE_MAX
        return RATE_LOW if 2 * s <= m else RATE_HIGH
