"""Game over: the winners and the ranking, what the coach judged; then each box's rating."""

from micropython import const

from picoyacht import font
from picoyacht.buttons import B_MENU, B_OK, B_ROLL
from picoyacht.game import pot_share
from picoyacht.labels import fit, row_label
from picoyacht.rules import NAME
from picoyacht.screens import (
    CELL,
    LABEL_MAX,
    ROW_BONUS,
    ROW_UPPER,
    ROW_WALLET,
    ROW_YB,
    WALLET_X,
    Pages,
    Screen,
    W,
    header,
    rank,
    ranking,
    row_sum,
)

_RATED = const(7)  # rows per ratings page: one column, the boxes' names in full
RATE_MARK = (font.RATE0, font.RATELOW, font.RATEHIGH, font.RATEMAX, font.RATEABOVE)


class Over(Screen):
    """The winners (a solo game: how the score stands against the record) and the ranking
    with labelled columns; with tips on, what each seat gave away and the costliest move
    of the game on the last two rows."""

    NAME = "over"
    winners = ()
    judged = False
    prompt = ""

    def __init__(self, app):
        Screen.__init__(self, app)
        self.totals, self.order = ranking()

    def enter(self):
        g = self.turn.game
        rank(g, self.totals, self.order)
        self.winners = g.winners()
        self.judged = self.turn.coach.level >= 2
        self.prompt = "" if self.turn.demo else self.app.keys("Menu: play again")

    def key(self, btn):
        """OK: the ratings, which come back here; Menu: play again, the scores, the title."""
        if btn == B_OK or btn == B_ROLL:
            self.app.go("ratings")
        elif btn == B_MENU:
            self.app.go("menu")

    def draw(self, cv):
        app = self.app
        g = self.turn.game
        cv.clear()
        header(cv, "Game over")
        cv.rtext("total", W, 0, 0)
        if g.rs.casino:
            cv.rtext("wallet", WALLET_X, 0, 0)
        elif self.judged:  # "~": judged by Normal's estimate, no table serving the game
            cv.rtext("gave" if self.turn.coach.exact(g) else "~gave", 92, 0, 0)
        win = self.winners
        if app.save_state.unsaved("records") and not self.turn.demo:
            cv.text("Records not saved!", 1, 8)
        elif g.nseats == 1:
            if self.turn.new_best:
                cv.text("New best score!", 1, 8)
            else:
                x = cv.text("Best so far ", 1, 8)
                cv.num(app.records.best(g.rs.id), x, 8)
        elif len(win) == 1:
            x = cv.text("Winner ", 1, 8)
            cv.text(g.names[win[0]], x, 8)
        elif g.rs.casino:
            _draw_shares(cv, g, win, 8)
        else:
            x = cv.text("Tie: ", 1, 8)
            x = cv.num(len(win), x, 8)
            cv.text(" players", x, 8)
        coach = self.turn.coach
        worst = coach.worst() if self.judged else None
        last_row = 40 if worst is not None else 56  # the coach's lines take the bottom two
        for r in range(g.nseats):
            s = self.order[r]
            y = (r + 2) * 8
            if y > last_row:
                break
            if s in win:
                cv.glyph(font.RIGHT, 0, y)
            cv.text(g.names[s], 8, y)
            if g.rs.casino:
                cv.rnum(row_sum(g, s, ROW_WALLET, app.records.opening(s)), WALLET_X, y)
            elif self.judged:
                # what the coach says the seat gave away, as its tips say it; "-" for a
                # seat it cannot judge (a CPU playing by the coach's own estimate)
                if coach.judges(g, s):
                    _centi_left(cv, coach.given(s), 92, y)
                else:
                    cv.rtext("-", 92, y)
            cv.rnum(self.totals[s], W, y)
        if worst is not None:
            _draw_worst(cv, g, worst, 48)
        elif g.nseats < 6:  # the bottom row is free
            cv.text(self.prompt, 1, 56)


def _draw_shares(cv, g, win, y):
    """A split pot: "Pot 20: 7,7,6", the winners' shares in playing order (the odd credits
    go to the first), or "Pot 20: 10 each" when it divides."""
    pot = g.options.bet * g.nseats
    x = cv.text(": ", cv.num(pot, cv.text("Pot ", 1, y), y), y)
    if pot % len(win) == 0:
        cv.text(" each", cv.num(pot // len(win), x, y), y)
        return
    first = True
    for i in range(g.nseats):
        s = g.order[i]
        if s in win:
            if not first:
                x = cv.text(",", x, y)
            first = False
            x = cv.num(pot_share(g, s, win), x, y)


def _centi_left(cv, v, right, y):
    """Draw centi-points v >= 0 as x.y ending at column `right`; the x it starts at."""
    x = cv.rnum(v // 10 % 10, right, y)
    cv.glyph(46, x - CELL, y)
    return cv.rnum(v // 100, x - CELL, y)


def _draw_worst(cv, g, worst, y):
    """The coach's costliest move of the game on two rows from y, in words: "Worst move:
    Ann" (solo: the round), then "round 6 Aces" (as much as fits) and what it gave away."""
    cost, seat, rnd, box = worst
    x = cv.text("Worst move: ", 1, y)
    y += 8
    if g.nseats == 1:
        cv.num(rnd, cv.text("round ", x, y - 8), y - 8)
        x = 1
    else:
        cv.text(g.names[seat], x, y - 8)
        x = cv.num(rnd, cv.text("round ", 1, y), y) + CELL
    what = g.rs.boxes[box][NAME] if box >= 0 else "Hold"
    right = _centi_left(cv, cost, W, y)
    room = (right - x) // CELL - 1  # characters left of the number, a space before it
    if room - 5 >= len(what):  # "gave" fits too
        cv.text("gave", right - 5 * CELL, y)
        room -= 5
    cv.text(fit(what, room), x, y, 1, room)


def _rated_rows(rs):
    """Ratings rows per seat: the boxes, the upper bonus and (jokers) the Yahtzee bonus:
    what the total in the header adds up."""
    return rs.nboxes + (2 if rs.joker else 1)


class Ratings(Pages):
    """Per seat, each box's score rated against its maximum (five marks); Menu, or OK on
    the last page, goes back to the game's summary."""

    NAME = "ratings"

    def _per_seat(self):
        return (_rated_rows(self.turn.game.rs) + _RATED - 1) // _RATED

    def pages(self):
        return self.turn.game.nseats * self._per_seat()

    def key(self, btn):
        if btn == B_OK and self.page == self.pages() - 1:
            self.done()
        else:
            Pages.key(self, btn)

    def done(self):
        self.app.back()

    def draw(self, cv):
        g = self.turn.game
        rs = g.rs
        nb = rs.nboxes
        per_seat = self._per_seat()
        seat = self.page // per_seat
        part = self.page % per_seat
        cv.clear()
        header(cv, g.names[seat], g.total(seat), self.page, self.pages())
        for k in range(_RATED):
            b = part * _RATED + k
            if b >= _rated_rows(rs):
                break
            y = (k + 1) * 8
            if b < nb:
                cv.text(rs.boxes[b][NAME], 1, y)
                cv.rnum(g.box_score(seat, b), W - 9, y)
                cv.glyph(RATE_MARK[rs.rating(b, g.box_score(seat, b))], W - 5, y)
            else:  # the bonus rows, named and summed as on the card
                code = ROW_BONUS if b == nb else ROW_YB
                cv.text(row_label(code - ROW_UPPER, LABEL_MAX), 1, y)
                cv.rnum(row_sum(g, seat, code), W - 9, y)


SCREENS = (Over, Ratings)  # what App.find opens by NAME
