"""Scores of every seat (from the menu), game over, and each box's rating at the end."""

from micropython import const

from picoyacht import font
from picoyacht.buttons import B_MENU, B_OK, B_ROLL
from picoyacht.rules import ABBR, NAME
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
_RATED = const(14)  # boxes per ratings page
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
    prompt = ""

    def enter(self):
        g = self.turn.game
        self.winners = g.winners()
        rank = list(range(g.nseats))
        rank.sort(key=lambda s: -g.total(s))
        self.ranking = rank
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
                # coach summary: expected points given away (centi-points, shown -x.y)
                _centi_left(cv, -coach.given(s), 92, y)
            cv.rnum(g.total(s), W, y)
        if worst is not None:
            _draw_worst(cv, g, worst, 48)
        elif len(rank) < 6:  # the bottom row is free
            cv.text(self.prompt, 1, 56)


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
    """The coach's costliest move of the game on two rows from y: "Worst move: <who>"
    (solo: the round), then the round and the box (or hold), and the points it cost."""
    cost, seat, rnd, box = worst
    x = cv.text("Worst move: ", 1, y)
    what = g.rs.boxes[box][NAME] if box >= 0 else "hold"
    y += 8
    if g.nseats == 1:
        x = cv.text("round ", x, y - 8)
        cv.num(rnd, x, y - 8)
        x = 1
    else:
        cv.text(g.names[seat], x, y - 8)
        x = cv.text("r", 1, y)
        x = cv.num(rnd, x, y) + CELL
        if len(what) > 11:  # keeps a gap before the points
            what = g.rs.boxes[box][ABBR]
    cv.text(what, x, y)
    _centi_left(cv, -cost, W, y)


class Ratings(Pages):
    """Per seat, each box's score rated against its maximum (five marks); Menu, or OK on
    the last page, goes back to the game's summary."""

    NAME = "ratings"

    def _per_seat(self):
        return (self.turn.game.rs.nboxes + _RATED - 1) // _RATED

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


SCREENS = (Scores, Over, Ratings)  # what App.find opens by NAME
