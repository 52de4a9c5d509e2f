"""Scores of every seat (from the menu), game over, and each box's rating at the end."""

from micropython import const

from picoyacht import font
from picoyacht.buttons import B_MENU, B_OK, B_ROLL
from picoyacht.rules import NAME, YAHTZEE_BONUS
from picoyacht.screens import (
    CELL,
    ROW_UPPER,
    Pages,
    Screen,
    W,
    card_rows,
    header,
    row_sum,
)

_ROWS = const(6)  # card rows per page of the scores grid
_SEATS = const(4)  # seats per page of the scores grid
_LABEL_W = const(20)  # the grid's row-label column
_RATED = const(7)  # rows per ratings page: one column, the boxes' names in full
RATE_MARK = (font.RATE0, font.RATELOW, font.RATEHIGH, font.RATEMAX, font.RATEABOVE)
_SHORT = ("Up", "Bn", "YB", "Cr", "Tot")


class Scores(Pages):
    """Every seat's card as a grid: 4 seats and 6 rows per page."""

    NAME = "scores"
    OK_BACK = True

    def __init__(self, app):
        Pages.__init__(self, app)
        g = app.turn.game  # (as page: made with the screen, which loads ahead of its press)
        self.rows = card_rows(g.rs) if g is not None else b""

    def enter(self):
        self.rows = card_rows(self.turn.game.rs)
        self.page = 0

    def _row_pages(self):
        return (len(self.rows) + _ROWS - 1) // _ROWS

    def pages(self):
        return self._row_pages() * ((self.turn.game.nseats + _SEATS - 1) // _SEATS)

    def done(self):
        self.app.back()

    def draw(self, cv):
        g = self.turn.game
        rows = self.rows
        rpages = self._row_pages()
        page = self.page
        rp = page % rpages
        sp = page // rpages
        cv.clear()
        header(cv, "Scores", -1, page, self.pages())
        # seats share the width: fewer seats on a page, wider columns and longer names
        shown = g.nseats - sp * _SEATS
        if shown > _SEATS:
            shown = _SEATS
        cw = (W - _LABEL_W) // shown
        for k in range(shown):
            s = sp * _SEATS + k
            xr = _LABEL_W + cw * (k + 1)
            cv.text(g.names[s], xr - cw + 2, 8, 1, (cw - 2) // CELL)
            if s == g.current and not g.over:
                cv.fb.hline(xr - cw + 2, 15, cw - 3, 1)
        first = rp * _ROWS
        for i in range(first, min(first + _ROWS, len(rows))):
            code = rows[i]
            y = (i - first + 2) * 8
            if code < ROW_UPPER:
                cv.text(g.rs.boxes[code][1], 0, y)
            else:
                cv.text(_SHORT[code - ROW_UPPER], 0, y)
            for k in range(shown):
                s = sp * _SEATS + k
                xr = _LABEL_W + cw * (k + 1)
                if code < ROW_UPPER:
                    if g.is_filled(s, code):
                        cv.rnum(g.box_score(s, code), xr, y)
                    else:
                        cv.glyph(font.DOT, xr - 6, y)
                else:
                    cv.rnum(row_sum(g, s, code), xr, y)


class Over(Screen):
    """The winners (a solo game: how the score stands against the record) and the ranking
    with labelled columns; with tips on, what each seat gave away and the costliest move
    of the game on the last two rows."""

    NAME = "over"
    winners = ()
    ranking = ()
    judged = False

    def enter(self):
        g = self.turn.game
        self.winners = g.winners()
        rank = list(range(g.nseats))
        rank.sort(key=lambda s: -g.total(s))
        self.ranking = rank
        self.judged = self.turn.coach.level >= 2

    def key(self, btn):
        if btn == B_OK or btn == B_ROLL:
            self.app.show("ratings")
        elif btn == B_MENU:
            self.app.home()

    def draw(self, cv):
        app = self.app
        g = self.turn.game
        cv.clear()
        header(cv, "Game over")
        cv.rtext("total", W, 0, 0)
        if g.rs.casino:
            cv.rtext("cred", 84, 0, 0)
        elif self.judged:
            cv.rtext("gave", 92, 0, 0)
        win = self.winners
        if app.save_state.unsaved("records") and not self.turn.demo:
            cv.text("Records not saved!", 1, 8)
        elif g.nseats == 1:
            if self.turn.new_best:
                cv.text("New best score!", 1, 8)
            else:
                x = cv.text("Best so far ", 1, 8)
                cv.num(app.records.best[g.rs.id], x, 8)
        elif len(win) == 1:
            x = cv.text("Winner ", 1, 8)
            cv.text(g.names[win[0]], x, 8)
        else:
            x = cv.text("Tie: ", 1, 8)
            x = cv.num(len(win), x, 8)
            cv.text(" players", x, 8)
        coach = self.turn.coach
        worst = coach.worst() if self.judged else None
        last_row = 40 if worst is not None else 56  # the coach's lines take the bottom two
        rank = self.ranking
        for r in range(len(rank)):
            s = rank[r]
            y = (r + 2) * 8
            if y > last_row:
                break
            if s in win:
                cv.glyph(font.RIGHT, 0, y)
            cv.text(g.names[s], 8, y)
            if g.rs.casino:
                cv.rnum(g.credits[s], 84, y)
            elif self.judged:
                # what the coach says the seat gave away, as its tips say it; "-" for a
                # seat it cannot judge (a CPU playing by the coach's own estimate)
                if coach.judges(g, s):
                    _centi_left(cv, coach.given(s), 92, y)
                else:
                    cv.rtext("-", 92, y)
            cv.rnum(g.total(s), W, y)
        if worst is not None:
            _draw_worst(cv, g, worst, 48)


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
    cv.text(what, x, y, 1, room)


def _rated_rows(rs):
    """Ratings rows per seat: the boxes, the upper bonus and (jokers) the Yahtzee bonus:
    what the total in the header adds up."""
    return rs.nboxes + (2 if rs.joker else 1)


class Ratings(Pages):
    """Per seat, each box's score rated against its maximum (five marks); OK on the last
    page goes to the title."""

    NAME = "ratings"

    def _per_seat(self):
        return (_rated_rows(self.turn.game.rs) + _RATED - 1) // _RATED

    def pages(self):
        return self.turn.game.nseats * self._per_seat()

    def key(self, btn):
        if btn == B_OK and self.page == self.pages() - 1:
            self.app.home()
        else:
            Pages.key(self, btn)

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
                cv.glyph(RATE_MARK[g.rating(seat, b)], W - 5, y)
            elif b == nb:
                cv.text("Upper bonus", 1, y)
                cv.rnum(g.upper_bonus(seat), W - 9, y)
            else:
                cv.text("Yahtzee bonus", 1, y)
                cv.rnum(YAHTZEE_BONUS * g.ybonus[seat], W - 9, y)


SCREENS = (Scores, Over, Ratings)  # what App.find opens by NAME
