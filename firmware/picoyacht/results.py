"""Scores of every seat (from the menu), game over, and each box's rating at the end."""

from picoyacht import font
from picoyacht.buttons import B_MENU, B_OK, B_ROLL
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

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


_ROWS = const(6)  # card rows per page of the scores grid
_SEATS = const(4)  # seats per page of the scores grid
_RATED = const(14)  # boxes per ratings page
RATE_MARK = (font.RATE0, font.RATELOW, font.RATEHIGH, font.RATEMAX, font.RATEABOVE)
_SHORT = ("Up", "Bn", "YB", "Cr", "Tot")


class Scores(Pages):
    """Every seat's card as a grid: 4 seats and 6 rows per page."""

    NAME = "scores"
    OK_BACK = True
    rows = b""

    def enter(self):
        self.rows = card_rows(self.app.game.rs)
        self.page = 0

    def _row_pages(self):
        return (len(self.rows) + _ROWS - 1) // _ROWS

    def pages(self):
        return self._row_pages() * ((self.app.game.nseats + _SEATS - 1) // _SEATS)

    def done(self):
        self.app.back()

    def draw(self, cv):
        g = self.app.game
        rows = self.rows
        rpages = self._row_pages()
        page = self.page
        rp = page % rpages
        sp = page // rpages
        cv.clear()
        header(cv, "Scores", -1, page, self.pages())
        for k in range(_SEATS):
            s = sp * _SEATS + k
            if s >= g.nseats:
                break
            xr = 20 + 27 * (k + 1)
            cv.text(g.names[s], xr - 25, 8, 1, 4)
            if s == g.current and not g.over:
                cv.fb.hline(xr - 25, 15, 24, 1)
        for r in range(_ROWS):
            i = rp * _ROWS + r
            if i >= len(rows):
                break
            code = rows[i]
            y = (r + 2) * 8
            if code < ROW_UPPER:
                cv.text(g.rs.boxes[code][1], 0, y)
            else:
                cv.text(_SHORT[code - ROW_UPPER], 0, y)
            for k in range(_SEATS):
                s = sp * _SEATS + k
                if s >= g.nseats:
                    break
                xr = 20 + 27 * (k + 1)
                if code < ROW_UPPER:
                    if g.is_filled(s, code):
                        cv.rnum(g.box_score(s, code), xr, y)
                    else:
                        cv.glyph(font.DOT, xr - 6, y)
                else:
                    cv.rnum(row_sum(g, s, code), xr, y)


class Over(Screen):
    """The winners and the ranking; with tips on, what each seat gave away and the
    costliest move of the game."""

    NAME = "over"
    winners = ()
    ranking = ()
    judged = False

    def enter(self):
        app = self.app
        g = app.game
        self.winners = g.winners()
        rank = list(range(g.nseats))
        rank.sort(key=lambda s: -g.total(s))
        self.ranking = rank
        self.judged = app.coach.level >= 2

    def key(self, btn):
        if btn == B_OK or btn == B_ROLL:
            self.app.show("ratings")
        elif btn == B_MENU:
            self.app.home()

    def draw(self, cv):
        app = self.app
        g = app.game
        cv.clear()
        header(cv, "Game over")
        win = self.winners
        if len(win) == 1:
            x = cv.text("Winner ", 1, 8)
            cv.text(g.names[win[0]], x, 8)
        else:
            x = cv.text("Tie: ", 1, 8)
            x = cv.num(len(win), x, 8)
            cv.text(" players", x, 8)
        coach = app.coach
        worst = coach.worst() if self.judged else None
        last_row = 48 if worst is not None else 56  # the coach's line takes the bottom row
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
                # coach summary: expected points given away (centi-points, shown -x.y)
                _centi_left(cv, -coach.given(s), 92, y)
            cv.rnum(g.total(s), W, y)
        if worst is not None:
            _draw_worst(cv, g, worst, 56)


def _centi_left(cv, v, right, y):
    """Draw centi-points v as [-]x.y ending at column `right`."""
    neg = v < 0
    v = -v if neg else v
    x = cv.rnum(v // 10 % 10, right, y)
    cv.glyph(46, x - CELL, y)
    x = cv.rnum(v // 100, x - CELL, y)
    if neg:
        cv.glyph(45, x - CELL, y)


def _draw_worst(cv, g, worst, y):
    """The coach's costliest move of the game: who, which round, which box or hold."""
    cost, seat, rnd, box = worst
    x = cv.text("Worst ", 1, y)
    x = cv.text(g.names[seat][:5], x, y)
    x = cv.text(" r", x, y)
    x = cv.num(rnd, x, y)
    cv.text(" " + (g.rs.boxes[box][1] if box >= 0 else "hold"), x, y)
    _centi_left(cv, -cost, W, y)


class Ratings(Pages):
    """Per seat, each box's score rated against its maximum (five marks); OK on the last
    page goes to the title."""

    NAME = "ratings"

    def _per_seat(self):
        return (self.app.game.rs.nboxes + _RATED - 1) // _RATED

    def pages(self):
        return self.app.game.nseats * self._per_seat()

    def key(self, btn):
        if btn == B_OK and self.page == self.pages() - 1:
            self.app.home()
        else:
            Pages.key(self, btn)

    def draw(self, cv):
        g = self.app.game
        nb = g.rs.nboxes
        per_seat = self._per_seat()
        seat = self.page // per_seat
        part = self.page % per_seat
        cv.clear()
        header(cv, g.names[seat], g.total(seat), self.page, self.pages())
        for k in range(_RATED):
            b = part * _RATED + k
            if b >= nb:
                break
            x = 0 if k < 7 else 66
            y = (k % 7 + 1) * 8
            cv.text(g.rs.boxes[b][1], x, y)
            cv.rnum(g.box_score(seat, b), x + 36, y)
            cv.glyph(RATE_MARK[g.rating(seat, b)], x + 40, y)
