"""Every screen drawn into one 128x64 MONO_VLSB framebuffer.

Why a Canvas of our own: text goes straight into the buffer from font.GLYPHS (so golden
images are identical under MicroPython and CPython, unlike framebuf.text), numbers are
drawn digit by digit (no str()), and strings are read by index: redrawing a screen
allocates nothing, which keeps the idle loop and cursor moves at 0 bytes. Layout works in
8-pixel pages, the SSD1306's unit, so a cursor move changes only a few of them.

Screen is the contract every screen keeps (one module per screen or family of them: menus,
newgame, play, card, ...); App opens them by name and loads their module on first use. The
standings (ranking, rank) are here for the two screens that show them, scores and results.
"""

from array import array

from micropython import const

from picoyacht import font
from picoyacht.buttons import B_DOWN, B_MENU, B_OK, B_ROLL, B_UP
from picoyacht.cues import NOTE_TIMED
from picoyacht.debounce import LONG, REPEAT
from picoyacht.fast import put_glyph, put_scaled, put_text
from picoyacht.rules import MAX_SEATS
from picoyacht.ticks import ticks_diff

W = const(128)
CELL = const(6)  # font.CELL, folded in the drawing loops (a test holds the copies equal)
DIE = const(17)  # a die's size: odd, so a pip sits in the exact middle

# Card row codes beyond the box indexes (0..19).
ROW_UPPER = const(32)
ROW_BONUS = const(33)
ROW_YB = const(34)
ROW_WALLET = const(35)
_ROW_TOTAL = const(36)
WALLET_X = const(94)  # where Casino's wallet column ends, on the scores and game over
LABEL_MAX = const(15)  # characters of the longest box name: a card row's label shows it whole

# Pip layout per face: bits TL, TR, ML, C, MR, BL, BR.
_PIPS = b"\x00\x08\x41\x49\x63\x6b\x77"
_PIP_XY = b"\x04\x04\x0c\x04\x04\x08\x08\x08\x0c\x08\x04\x0c\x0c\x0c"  # (x, y) per bit: 4, 8, 12

KIND_NAMES = ("Human", "CPU Easy", "CPU Normal", "CPU Expert")

_NOTE_MS = const(1800)  # how long a NOTE_TIMED note stays


class Canvas:
    """Text, numbers and dice on a FrameBuffer and its backing bytearray."""

    def __init__(self, fb, buf):
        self.fb = fb
        self.buf = buf
        self.saves = None  # a saves.SaveState: while a save is failing, headers show a "!"
        self.g = font.GLYPHS

    def clear(self):
        self.fb.fill(0)

    def glyph(self, code, x, y, c=1):
        if code < 0 or code > 127:
            code = 63
        page = y >> 3
        if y < 0 or page > 7:
            return
        if 0 <= x <= W - 5:  # the whole glyph on screen: fast.put_glyph
            put_glyph(self.buf, self.g, code, page * W + x, y & 7, W if page < 7 else 0, c)
            return
        g = self.g
        buf = self.buf
        base = code * 5
        sh = y & 7
        i0 = page * W
        for i in range(5):
            xx = x + i
            if xx < 0 or xx >= W:
                continue
            b = g[base + i]
            lo = (b << sh) & 0xFF
            if c:
                buf[i0 + xx] |= lo
            else:
                buf[i0 + xx] &= ~lo
            if sh and page < 7:
                hi = b >> (8 - sh)
                if c:
                    buf[i0 + W + xx] |= hi
                else:
                    buf[i0 + W + xx] &= ~hi

    def text(self, s, x, y, c=1, maxlen=99):
        """Draw s; returns the x after it. Reads s by index: no iterator allocation.
        Text on a page boundary and all on screen (nearly all of it) is one call of
        fast.put_text; the rest goes glyph by glyph."""
        n = len(s)
        if n > maxlen:
            n = maxlen
        if (y & 7 or y < 0 or y >= 64 or x < 0 or x + n * CELL > W + 1
                or not put_text(self.buf, self.g, s, n, (y >> 3) * W + x, c)):
            for i in range(n):
                self.glyph(ord(s[i]), x, y, c)
                x += CELL
            return x
        return x + n * CELL

    def line(self, s, k, x, y, c=1):
        """Row k (0 or 1) of a text of two rows split by a newline (a hint, a coach's tip),
        at most 21 characters; the x after it, or 0 when it has no such row. Reads s by
        index."""
        nl = s.find("\n")
        if k == 0:
            return self.text(s, x, y, c, 21 if nl < 0 or nl > 21 else nl)
        if nl < 0:
            return 0
        for i in range(nl + 1, min(len(s), nl + 22)):
            self.glyph(ord(s[i]), x, y, c)
            x += CELL
        return x

    def rtext(self, s, xr, y, c=1):
        """Right-aligned: the last column of s ends just before xr."""
        return self.text(s, xr - len(s) * CELL + 1, y, c)

    def ctext(self, s, y, c=1):
        return self.text(s, (W - len(s) * CELL + 1) >> 1, y, c)

    def num(self, n, x, y, c=1):
        """Left-aligned integer; returns the x after it."""
        return self.rnum(n, x + ndigits(n) * CELL - 1, y, c) + ndigits(n) * CELL - 1

    def rnum(self, n, xr, y, c=1):
        """Integer whose last digit ends just before xr; returns its left x. A number on a
        page boundary and on screen (nearly every one) goes digit by digit to
        fast.put_glyph itself: a table's page is mostly numbers."""
        neg = n < 0
        if neg:
            n = -n
        x = xr - CELL + 1
        row = (y >> 3) * W if not y & 7 and 0 <= y < 64 and xr <= W else -1
        while True:
            if row >= 0 and x >= 0:
                put_glyph(self.buf, self.g, 48 + n % 10, row + x, 0, 0, c)
            else:
                self.glyph(48 + n % 10, x, y, c)
            n //= 10
            if not n:
                break
            x -= CELL
        if neg:
            x -= CELL
            self.glyph(45, x, y, c)
        return x

    def big(self, s, x, y, scale=2, c=1):
        """Scaled text for titles and names: each pixel a scale x scale square."""
        if scale == 1:
            return self.text(s, x, y, c)
        for i in range(len(s)):
            code = ord(s[i])
            put_scaled(self.buf, self.g, code if code < 128 else 63, x, y, scale, c)
            x += CELL * scale
        return x

    def bar(self, page, c=1):
        self.fb.fill_rect(0, page * 8, W, 8, c)

    def tab(self, page, w):
        """The selected row: an inverted box over its first w columns (the label), right
        corners rounded. Not the whole row: moving the selection then changes w columns
        of two pages, not 128 (the driver sends only the changed span)."""
        y = page * 8
        fb = self.fb
        fb.fill_rect(0, y, w, 8, 1)
        fb.pixel(w - 1, y, 0)
        fb.pixel(w - 1, y + 7, 0)

    def die(self, x, y, face, held):
        """A 17x17 die with pips; held dice are solid with dark pips."""
        fb = self.fb
        fb.rect(x, y, DIE, DIE, 1, held)
        fb.pixel(x, y, 0)  # rounded corners
        fb.pixel(x + DIE - 1, y, 0)
        fb.pixel(x, y + DIE - 1, 0)
        fb.pixel(x + DIE - 1, y + DIE - 1, 0)
        pc = 0 if held else 1
        if not 1 <= face <= 6:
            self.glyph(63, x + 6, y + 5, pc)
            return
        bits = _PIPS[face]
        for k in range(7):
            if bits >> k & 1:
                fb.fill_rect(x + _PIP_XY[2 * k] - 1, y + _PIP_XY[2 * k + 1] - 1, 3, 3, pc)


def ndigits(n):
    d = 2 if n < 0 else 1
    if n < 0:
        n = -n
    while n >= 10:
        n //= 10
        d += 1
    return d


_rows_of = [None, b""]  # the last rule set card_rows() was asked for, and its rows


def card_rows(rs):
    """Row codes of a rule set's scorecard: upper boxes, the upper subtotal, the rest,
    then bonuses and the total. Kept for the last rule set: opening a card allocates
    nothing."""
    if _rows_of[0] is not rs:
        rows = bytearray()
        for b in range(rs.nboxes):
            rows.append(b)
            if b == 5:
                rows.append(ROW_UPPER)
        rows.append(ROW_BONUS)
        if rs.joker:
            rows.append(ROW_YB)
        if rs.casino:
            rows.append(ROW_WALLET)
        rows.append(_ROW_TOTAL)
        _rows_of[0] = rs
        _rows_of[1] = rows
    return _rows_of[1]


def row_sum(g, seat, code, opening=0):
    """The number on a card row below the boxes: subtotal, bonuses, wallet or total.
    opening: the seat's wallet as the game opened it (saves.Records.opening())."""
    if code == ROW_UPPER:
        return g.upper_total(seat)
    if code == ROW_BONUS:
        return g.upper_bonus(seat)
    if code == ROW_YB:
        return 100 * g.ybonus[seat]
    if code == ROW_WALLET:  # less the stake, plus the bank's rewards and, at the end, the pot
        return opening + g.credits[seat]
    return g.total(seat)


def header(cv, s, right_num=-1, page=0, pages=0):
    """Inverted title bar; optional number and page indicator on the right."""
    cv.bar(0)
    cv.text(s, 1, 0, 0, 14)
    xr = W
    if pages > 1:
        xr = cv.rnum(pages, W, 0, 0)
        cv.glyph(47, xr - CELL, 0, 0)
        xr = cv.rnum(page + 1, xr - CELL, 0, 0) - 8
    if right_num >= 0:
        xr = cv.rnum(right_num, xr, 0, 0)
    if cv.saves is not None and cv.saves.failed:
        cv.glyph(font.BANG, xr - 8, 0, 0)


def menu_list(cv, sel, labels, codes, first_page=1):
    """A vertical list of labels[codes[i]] with item sel highlighted, scrolled to fit."""
    rows = 8 - first_page
    top = 0
    if sel >= rows:
        top = sel - rows + 1
    for r in range(rows):
        i = top + r
        if i >= len(codes):
            break
        y = (first_page + r) * 8
        label = labels[codes[i]]
        c = 1
        if i == sel:
            cv.tab(first_page + r, len(label) * CELL + 12)
            c = 0
            cv.glyph(font.RIGHT, 2, y, c)
        cv.text(label, 12, y, c)


class Note:
    """The status note over the play or card screen: text, then a number if num >= 0 (a
    box's points, drawn without a string made). App.note() sets it; draws read it."""

    def __init__(self):
        self.text = ""  # (every field made now: setting one later allocates nothing)
        self.num = -1
        self.at = 0
        self.stay = NOTE_TIMED

    def expire(self, now):
        """Clear a timed note once its time is up; True if it was cleared."""
        if self.text and self.stay == NOTE_TIMED and ticks_diff(now, self.at) >= _NOTE_MS:
            self.text = ""
            return True
        return False

    def draw(self, cv, y, c):
        """Its first row at y (a second row, if any, is the screen's to place: line())."""
        x = cv.line(self.text, 0, 1, y, c)
        if self.num >= 0:
            cv.num(self.num, x + CELL, y, c)


class Screen:
    """What App asks of every screen. It owns its cursor, rows and pages; `app` is the
    session (settings, records, notes, navigation) and `turn` the game's flow: a screen
    calls them and draws, and never sets their fields. enter() runs when App.go or
    App.show opens it (not when back() returns to it), event() for each debounced event
    of an awake display, tick() on every loop pass, draw() when the frame is dirty."""

    NAME = ""
    NEXT = None  # the screen a press here most likely opens: its module loads in advance

    def __init__(self, app):
        self.app = app
        self.turn = app.turn

    def enter(self):
        pass

    def event(self, btn, kind):
        """Presses (and Up/Down repeats) go to key(), long presses to long()."""
        if kind == LONG:
            self.long(btn)
            return
        if kind == REPEAT and btn != B_UP and btn != B_DOWN:
            return
        self.key(btn)
        self.app.redraw()

    def key(self, btn):
        pass

    def long(self, btn):
        pass

    def release(self, btn):
        """A button let go (not the one that woke the display): most screens act on the
        press; one that also takes a long press of that button acts here."""

    def tick(self, now):
        pass

    def draw(self, cv):
        pass


class Choice(Screen):
    """A list of item codes with a cursor: OK (or Roll) picks, Menu picks -1."""

    LABELS = ()

    def __init__(self, app):
        Screen.__init__(self, app)
        self.items = b""  # the instance's own, made now: opening it allocates nothing
        self.sel = 0

    def key(self, btn):
        n = len(self.items)
        if btn == B_UP:
            self.sel = (self.sel - 1) % n
        elif btn == B_DOWN:
            self.sel = (self.sel + 1) % n
        elif btn == B_OK or btn == B_ROLL:
            self.pick(self.items[self.sel])
        elif btn == B_MENU:
            self.pick(-1)

    def pick(self, code):
        pass


class Pages(Screen):
    """Up/Down flip pages; OK turns the page (OK_BACK: goes back), Menu goes back."""

    OK_BACK = False

    def __init__(self, app):
        Screen.__init__(self, app)
        self.page = 0  # the instance's own, made now: opening it allocates nothing

    def enter(self):
        self.page = 0

    def pages(self):
        return 1

    def key(self, btn):
        n = self.pages()
        if btn == B_UP:
            self.page = (self.page - 1) % n
        elif btn == B_DOWN or (btn == B_OK and not self.OK_BACK):
            self.page = (self.page + 1) % n
        elif btn == B_MENU or btn == B_OK:
            self.done()

    def done(self):
        self.app.home()


# ---------------------------------------------------------------- the standings
def starting(screen):
    """A screen's answer to a key that starts a game, while the game comes in over the next
    passes (Turn.starting); else ""."""
    return "Starting the game..." if screen.turn.starting else ""


def game_summary(g):
    """A game in a few lines, for the offer to resume it and the question before replacing it."""
    lines = [g.rs.name + ", " + str(g.nseats) + " player" + ("s" if g.nseats > 1 else ""),
             "turn " + str(g.turn // g.nseats + 1) + " of " + str(g.rs.nboxes)]
    for s in range(min(g.nseats, 3)):  # five lines at most
        lines.append(g.names[s] + " " + str(g.total(s)))
    return lines


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
