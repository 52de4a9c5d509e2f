"""Scores of every seat (from the menu), game over, and each box's rating at the end."""

from array import array

from micropython import const

from picoyacht import font
from picoyacht.buttons import B_MENU, B_OK, B_ROLL
from picoyacht.game import pot_share
from picoyacht.labels import fit, row_label
from picoyacht.rules import MAX_SEATS, NAME
from picoyacht.screens import (
    CELL,
    ROW_BONUS,
    ROW_UPPER,
    ROW_WALLET,
    ROW_YB,
    Pages,
    Screen,
    W,
    card_rows,
    header,
    row_sum,
)

_ROWS = const(6)  # card rows per page of the scores grid
_SEATS = const(3)  # seats per page of the scores grid, at most
_SEAT_W = const(26)  # a seat's column in the grid: a 4-digit total and a gap
_LABEL_MAX = const(15)  # the longest full box name
_WALLET_X = const(94)  # where Casino's wallet column ends: room for a name before it
_RATED = const(7)  # rows per ratings page: one column, the boxes' names in full
RATE_MARK = (font.RATE0, font.RATELOW, font.RATEHIGH, font.RATEMAX, font.RATEABOVE)


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
            cv.rtext("wallet", _WALLET_X, 8)
        for r in range(n):
            s = self.order[r]
            y = (r + 2) * 8
            cv.rnum(1 + _above(totals, n, s), 12, y)
            x = cv.text(g.names[s], 24, y)
            if s == g.current and not g.over:
                cv.glyph(font.LEFT, x + 2, y)
            if g.rs.casino:
                cv.rnum(row_sum(g, s, ROW_WALLET, rec.opening(s)), _WALLET_X, y)
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
    return room if room < _LABEL_MAX else _LABEL_MAX


def ranking():
    """Room for every seat's total and the seats best first (see rank())."""
    return array("i", bytes(4 * MAX_SEATS)), bytearray(MAX_SEATS)


def rank(g, totals, order):
    """Each seat's total into totals, once, and the seats best first into order (a tie
    in seat order): the standings and game over then draw without summing a card per
    rank, which took six seats' standings far over a pass's budget."""
    n = g.nseats
    for s in range(n):
        totals[s] = g.total(s)
    s = -1
    for r in range(n):
        s = next_ranked(totals, n, s)
        order[r] = s


def next_ranked(totals, n, after):
    """Of n seats with these totals, the one ranked next after seat `after` (-1: the
    first), by total and then by seat: a scan, not a sorted list, so that opening the page
    allocates nothing."""
    t0 = totals[after] if after >= 0 else 1 << 30
    pick = -1
    pick_t = -1
    for s in range(n):
        t = totals[s]
        if (t < t0 or t == t0 and s > after) and t > pick_t:
            pick = s
            pick_t = t
    return pick


def _above(totals, n, seat):
    """How many of n seats total more than seat: its rank less one, shared on a tie."""
    t = totals[seat]
    k = 0
    for s in range(n):
        if totals[s] > t:
            k += 1
    return k


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
            cv.rtext("wallet", _WALLET_X, 0, 0)
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
                cv.rnum(row_sum(g, s, ROW_WALLET, app.records.opening(s)), _WALLET_X, y)
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
                cv.text(row_label(code - ROW_UPPER, _LABEL_MAX), 1, y)
                cv.rnum(row_sum(g, seat, code), W - 9, y)


SCREENS = (Scores, Over, Ratings)  # what App.find opens by NAME
