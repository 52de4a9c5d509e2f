"""The scorecard: the current seat's boxes, each with its state and what it would score
with these dice, to pick one; the rows below the boxes sum the card."""

from micropython import const

from picoyacht import font
from picoyacht.buttons import B_DOWN, B_MENU, B_OK, B_ROLL, B_UP
from picoyacht.cues import NOTE_KEY
from picoyacht.game import FILLED, LOCKED, POINTS, ZERO
from picoyacht.labels import row_label
from picoyacht.rules import NAME
from picoyacht.screens import (
    CELL,
    LABEL_MAX,
    ROW_BONUS,
    ROW_UPPER,
    ROW_WALLET,
    Screen,
    W,
    card_rows,
    header,
    row_sum,
)

_CARD_ROWS = const(7)  # card rows under the header
_MAX_BOXES = const(20)  # box indexes are below screens.ROW_UPPER
STATE_MARK = (font.LOCK, font.CHECK, ord("+"), font.CROSS)  # LOCKED FILLED POINTS ZERO


class Card(Screen):
    """The current seat's scorecard, opened from Play to pick a box (the cursor starts on
    the best one). A box that scores 0 asks for a second OK.

    Each box's state and value are worked out when the card opens, and again only if the
    dice or the turn have changed since: the rules are slow on the Pico, and a cursor move
    would otherwise pay for them on every row it redraws."""

    NAME = "card"
    NEXT = "box_help"  # a held Menu's help on the box under the cursor
    rows = b""
    row = 0
    confirm = False
    menu_down = False  # Menu pressed here: let go, back to the dice; held, the box's help

    def __init__(self, app):
        Screen.__init__(self, app)
        self.states = bytearray(_MAX_BOXES)
        self.values = [0] * _MAX_BOXES
        self.seen = bytearray(8)  # the dice, the roll and the turn the tables are for

    def enter(self):
        app = self.app
        g = self.turn.game
        self.rows = card_rows(g.rs)
        self.confirm = False
        self.menu_down = False
        app.note(app.keys("Hold Menu: box help"))
        self.work_out(g, True)
        best = -1
        best_pts = -1
        rows = self.rows
        for i in range(len(rows)):
            b = rows[i]
            if b >= ROW_UPPER:
                continue
            st = self.states[b]
            if st == POINTS or st == ZERO:
                p = self.values[b]
                if p > best_pts:
                    best, best_pts = i, p
        self.row = best if best >= 0 else 0

    def work_out(self, g, force=False):
        """Fill states and values for g's current dice, unless they already are."""
        seen = self.seen
        n = len(g.dice)
        same = not force and seen[6] == g.rolls_used & 0xFF and seen[7] == g.turn & 0xFF
        for i in range(n):
            if seen[i] != g.dice[i]:
                same = False
                seen[i] = g.dice[i]
        seen[6] = g.rolls_used & 0xFF
        seen[7] = g.turn & 0xFF
        if not same:
            g.card(self.states, self.values)

    def key(self, btn):
        app = self.app
        g = self.turn.game
        n = len(self.rows)
        if btn == B_UP or btn == B_DOWN:
            self.row = (self.row + (1 if btn == B_DOWN else -1)) % n
            self.confirm = False
            app.note("")
        elif btn == B_OK:
            self.pick()
        elif btn == B_MENU:
            self.menu_down = True  # back to the dice on release; held, the box's help
        else:  # back to the dice; Roll and the hold buttons act there at once
            app.note("")
            app.back()
            if btn == B_ROLL or (btn < 6 and btn < len(g.dice)):
                app.screen.key(btn)

    def release(self, btn):
        if btn == B_MENU and self.menu_down:
            self.menu_down = False
            self.app.note("")
            self.app.back()

    def long(self, btn):
        if btn == B_MENU and self.menu_down:
            self.menu_down = False
            self.explain()

    def explain(self):
        """The box under the cursor in words (box_help, loaded ahead: NEXT); OK comes back
        to this row."""
        self.app.go("box_help").explain(self.turn.game, self.rows[self.row])

    def pick(self):
        """OK on the cursor's row: score it, or say why not."""
        app = self.app
        g = self.turn.game
        code = self.rows[self.row]
        if code >= ROW_UPPER:
            app.note("Pick a box")
            return
        st = g.box_state(code)
        if st == FILLED:
            app.note("Already filled")
        elif st == LOCKED:
            app.note("Roll first" if not g.rolls_used else "Joker: not here")
        elif st == ZERO and not self.confirm:
            self.confirm = True  # the question waits for the next key, however late
            app.note(app.keys("Score 0? OK again"), -1, NOTE_KEY)
        else:
            self.confirm = False
            nxt = self.turn.score(code)
            if nxt is not None:
                app.show(nxt)

    def draw(self, cv):
        """One seat's card: header with page indicator, 7 rows, the four box states."""
        app = self.app
        g = self.turn.game
        seat = g.current
        rows = self.rows
        self.work_out(g)
        npages = (len(rows) + _CARD_ROWS - 1) // _CARD_ROWS
        page = self.row // _CARD_ROWS
        cv.clear()
        if app.status.text:
            cv.bar(0)
            app.status.draw(cv, 0, 0)
            if app.save_state.failed:  # a note in the title bar keeps the failed save's mark
                cv.glyph(font.BANG, W - 8, 0, 0)
        else:
            header(cv, g.names[seat], g.total(seat), page, npages)
        first = page * _CARD_ROWS
        for i in range(first, min(first + _CARD_ROWS, len(rows))):
            r = i - first
            code = rows[i]
            y = (r + 1) * 8
            label = (g.rs.boxes[code][NAME] if code < ROW_UPPER
                     else row_label(code - ROW_UPPER, LABEL_MAX))
            c = 1
            if i == self.row:
                cv.tab(r + 1, len(label) * CELL + 8)
                c = 0
            if code < ROW_UPPER:
                st = self.states[code]
                cv.glyph(STATE_MARK[st], 0, y, c)
                cv.text(label, 8, y, c)
                card_value(cv, g, seat, code, y, st, self.values[code])
            else:
                cv.text(label, 8, y, c)
                card_value(cv, g, seat, code, y, POINTS,
                           app.records.opening(seat) if code == ROW_WALLET else 0)


def card_value(cv, g, seat, code, y, state, value):
    """The right-hand value of one card row: value is a box's (g.preview), or for the rows
    below the boxes the seat's opening wallet (screens.row_sum)."""
    if code < ROW_UPPER:
        if state == LOCKED:
            cv.glyph(45, W - CELL, y)
        else:
            cv.rnum(value, W, y)
        return
    if code == ROW_UPPER:
        up = g.upper_total(seat)
        at = g.rs.bonus_at
        x = cv.rnum(at, W, y)
        cv.glyph(47, x - CELL, y)
        x = cv.rnum(up, x - CELL, y)
        # progress bar toward the bonus
        fill = up if up < at else at
        cv.fb.rect(40, y + 1, 40, 6, 1)
        cv.fb.fill_rect(40, y + 1, fill * 40 // at, 6, 1)
    elif code == ROW_BONUS and not g.upper_bonus(seat):
        x = cv.rnum(g.rs.bonus_at - g.upper_total(seat), W, y)
        cv.text("need", x - 30, y)
    else:
        cv.rnum(row_sum(g, seat, code, value), W, y)


SCREENS = (Card,)  # what App.find opens by NAME
