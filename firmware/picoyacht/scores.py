"""All scores, from the menu in a game and after it: the standings (every seat's rank and
total), then every seat's card as a grid."""

from micropython import const

from picoyacht import font
from picoyacht.labels import fit, row_label
from picoyacht.rules import NAME
from picoyacht.screens import (
    CELL,
    LABEL_MAX,
    ROW_UPPER,
    ROW_WALLET,
    WALLET_X,
    Pages,
    W,
    card_rows,
    header,
    rank,
    ranking,
    row_sum,
)

_ROWS = const(6)  # card rows per page of the scores grid
_SEATS = const(3)  # seats per page of the scores grid, at most
_SEAT_W = const(26)  # a seat's column in the grid: a 4-digit total and a gap


class Scores(Pages):
    """First the standings (every seat's rank and total on one page), then every seat's
    card as a grid: 6 rows and up to 3 seats a page, so that box names have room."""

    NAME = "scores"
    OK_BACK = True

    def __init__(self, app):
        Pages.__init__(self, app)
        g = app.turn.game  # (as page: made with the screen, which loads ahead of its press)
        self.rows = card_rows(g.rs) if g is not None else b""
        # Every seat's total and the seats best first, made by enter(): the standings then
        # draw without summing each card for every rank (no move is made while they show).
        self.totals, self.order = ranking()

    def enter(self):
        g = self.turn.game
        self.rows = card_rows(g.rs)
        self.page = 0
        rank(g, self.totals, self.order)

    def _row_pages(self):
        return (len(self.rows) + _ROWS - 1) // _ROWS

    def pages(self):
        return 1 + self._row_pages() * seat_pages(self.turn.game.nseats)

    def done(self):
        self.app.back()

    def draw(self, cv):
        cv.clear()
        header(cv, "Scores", -1, self.page, self.pages())
        if self.page == 0:
            self._standings(cv)
        else:
            self._grid(cv, self.page - 1)

    def _standings(self, cv):
        """Rank, name and total of every seat, best first (a tie shares its rank); in
        Casino also each one's wallet."""
        g = self.turn.game
        n = g.nseats
        totals = self.totals
        rec = self.app.records
        cv.text("rank", 0, 8)
        cv.rtext("total", W, 8)
        if g.rs.casino:
            cv.rtext("wallet", WALLET_X, 8)
        for r in range(n):
            s = self.order[r]
            y = (r + 2) * 8
            cv.rnum(1 + _above(totals, n, s), 12, y)
            x = cv.text(g.names[s], 24, y)
            if s == g.current and not g.over:
                cv.glyph(font.LEFT, x + 2, y)
            if g.rs.casino:
                cv.rnum(row_sum(g, s, ROW_WALLET, rec.opening(s)), WALLET_X, y)
            cv.rnum(totals[s], W, y)

    def _grid(self, cv, page):
        g = self.turn.game
        rows = self.rows
        rpages = self._row_pages()
        rp = page % rpages
        part = page // rpages
        first_seat = first_of(g.nseats, part)
        shown = first_of(g.nseats, part + 1) - first_seat
        room = label_room(shown)
        lw = room * CELL + 2
        cw = (W - lw) // shown
        for k in range(shown):
            s = first_seat + k
            xr = lw + cw * (k + 1)
            if shown == 1:  # a whole name: the label column has no heading to cover
                cv.rtext(g.names[s], W, 8)
            else:
                cv.text(g.names[s], xr - cw + 2, 8, 1, (cw - 2) // CELL)
            if s == g.current and not g.over:
                cv.fb.hline(xr - cw + 2, 15, cw - 3, 1)
        first = rp * _ROWS
        for i in range(first, min(first + _ROWS, len(rows))):
            code = rows[i]
            y = (i - first + 2) * 8
            if code < ROW_UPPER:
                cv.text(fit(g.rs.boxes[code][NAME], room), 0, y)
            else:
                cv.text(row_label(code - ROW_UPPER, room), 0, y)
            for k in range(shown):
                s = first_seat + k
                xr = lw + cw * (k + 1)
                if code < ROW_UPPER:
                    if g.is_filled(s, code):
                        cv.rnum(g.box_score(s, code), xr, y)
                    else:
                        cv.glyph(font.DOT, xr - 6, y)
                elif code == ROW_WALLET:
                    cv.rnum(row_sum(g, s, code, self.app.records.opening(s)), xr, y)
                else:
                    cv.rnum(row_sum(g, s, code), xr, y)


def seat_pages(nseats):
    """How many pages the grid's seats take: at most 3 seats a page."""
    return (nseats + _SEATS - 1) // _SEATS


def first_of(nseats, part):
    """The first seat on the grid's part-th page of seats (nseats past the last): the
    seats split as evenly as the pages allow, so 4 players show as 2 and 2, not 3 and 1.
    (An int, not a tuple: turning the page allocates nothing.)"""
    return part * nseats // seat_pages(nseats)


def label_room(shown):
    """Characters of the grid's label column with `shown` seats beside it: each seat keeps
    a 4-digit column."""
    room = (W - 2 - shown * _SEAT_W) // CELL
    return room if room < LABEL_MAX else LABEL_MAX


def _above(totals, n, seat):
    """How many of n seats total more than seat: its rank less one, shared on a tie."""
    t = totals[seat]
    k = 0
    for s in range(n):
        if totals[s] > t:
            k += 1
    return k


SCREENS = (Scores,)  # what App.find opens by NAME
