"""Every screen drawn into one 128x64 MONO_VLSB framebuffer.

Why a Canvas of our own: text goes straight into the buffer from font.GLYPHS (so golden
images are identical under MicroPython and CPython, unlike framebuf.text), numbers are
drawn digit by digit (no str()), and strings are read by index: redrawing a screen
allocates nothing, which keeps the idle loop and cursor moves at 0 bytes. Layout works in
8-pixel pages, the SSD1306's unit, so a cursor move changes only a few of them.

Each draw_* function reads the app's state and never changes it.
"""

from picoyacht import font
from picoyacht.game import FILLED, LOCKED, POINTS
from picoyacht.rules import NAME

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


W = const(128)
CELL = const(6)
_DIE = const(17)  # odd, so a pip sits in the exact middle

# Card row codes beyond the box indexes (0..19).
ROW_UPPER = const(32)
_ROW_BONUS = const(33)
_ROW_YB = const(34)
_ROW_CREDITS = const(35)
_ROW_TOTAL = const(36)
_CARD_ROWS = const(7)  # rows under the header

# Pip layout per face: bits TL, TR, ML, C, MR, BL, BR.
_PIPS = b"\x00\x08\x41\x49\x63\x6b\x77"
_PIP_XY = (4, 4, 12, 4, 4, 8, 8, 8, 12, 8, 4, 12, 12, 12)

STATE_MARK = (font.LOCK, font.CHECK, ord("+"), font.CROSS)  # LOCKED FILLED POINTS ZERO
RATE_MARK = (font.RATE0, font.RATELOW, font.RATEHIGH, font.RATEMAX, font.RATEABOVE)
KIND_NAMES = ("Human", "CPU Easy", "CPU Normal", "CPU Expert")


class Canvas:
    """Text, numbers and dice on a FrameBuffer and its backing bytearray."""

    def __init__(self, fb, buf):
        self.fb = fb
        self.buf = buf
        self.g = font.GLYPHS

    def clear(self):
        self.fb.fill(0)

    def glyph(self, code, x, y, c=1):
        if code < 0 or code > 127:
            code = 63
        g = self.g
        buf = self.buf
        base = code * 5
        page = y >> 3
        sh = y & 7
        if y < 0 or page > 7:
            return
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
        """Draw s; returns the x after it. Reads s by index: no iterator allocation."""
        n = len(s)
        if n > maxlen:
            n = maxlen
        for i in range(n):
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
        """Integer whose last digit ends just before xr; returns its left x."""
        neg = n < 0
        if neg:
            n = -n
        x = xr - CELL + 1
        while True:
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
        """Scaled text for titles and names (slow path: one fill_rect per pixel)."""
        g = self.g
        fr = self.fb.fill_rect
        for i in range(len(s)):
            code = ord(s[i])
            if code > 127:
                code = 63
            for col in range(5):
                b = g[code * 5 + col]
                row = 0
                while b:
                    if b & 1:
                        fr(x + col * scale, y + row * scale, scale, scale, c)
                    b >>= 1
                    row += 1
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
        fb.rect(x, y, _DIE, _DIE, 1, held)
        fb.pixel(x, y, 0)  # rounded corners
        fb.pixel(x + _DIE - 1, y, 0)
        fb.pixel(x, y + _DIE - 1, 0)
        fb.pixel(x + _DIE - 1, y + _DIE - 1, 0)
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


# ---- scorecard arithmetic without slices (game.upper_total slices: it allocates) -------
def upper_of(game, seat):
    nb = game.rs.nboxes
    sc = game.scores
    t = 0
    for b in range(6):
        t += sc[seat * nb + b]
    return t


def bonus_of(game, seat):
    if upper_of(game, seat) >= game.rs.bonus_at:
        return game.rs.upper_bonus(game.options)
    return 0


def total_of(game, seat):
    nb = game.rs.nboxes
    sc = game.scores
    t = 0
    for b in range(nb):
        t += sc[seat * nb + b]
    return t + bonus_of(game, seat) + 100 * game.ybonus[seat]


def card_rows(rs):
    """Row codes of a rule set's scorecard: upper boxes, the upper subtotal, the rest,
    then bonuses and the total."""
    rows = bytearray()
    for b in range(rs.nboxes):
        rows.append(b)
        if b == 5:
            rows.append(ROW_UPPER)
    rows.append(_ROW_BONUS)
    if rs.joker:
        rows.append(_ROW_YB)
    if rs.casino:
        rows.append(_ROW_CREDITS)
    rows.append(_ROW_TOTAL)
    return rows


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
        cv.rnum(right_num, xr, 0, 0)


def menu_list(cv, app, labels, codes, first_page=1):
    """A vertical list of labels[codes[i]] with app.sel highlighted, scrolled to fit."""
    rows = 8 - first_page
    top = 0
    if app.sel >= rows:
        top = app.sel - rows + 1
    for r in range(rows):
        i = top + r
        if i >= len(codes):
            break
        y = (first_page + r) * 8
        label = labels[codes[i]]
        c = 1
        if i == app.sel:
            cv.tab(first_page + r, len(label) * CELL + 12)
            c = 0
            cv.glyph(font.RIGHT, 2, y, c)
        cv.text(label, 12, y, c)


# ---------------------------------------------------------------- title
TITLE_LABELS = ("Resume game", "New game", "Records", "Demo (all CPU)", "Diagnostics")


def draw_title(cv, app):
    cv.clear()
    cv.die(2, 1, 5, False)
    cv.die(109, 1, 6, True)
    cv.big("PicoYacht", 22, 2, 1)
    cv.text("dice games", 34, 11)
    menu_list(cv, app, TITLE_LABELS, app.items, 3)


# ---------------------------------------------------------------- setup
def draw_setup(cv, app):
    cv.clear()
    header(cv, "New game", -1, app.sel // 7, (len(app.items) + 6) // 7)
    top = (app.sel // 7) * 7
    for r in range(7):
        i = top + r
        if i >= len(app.items):
            break
        y = (r + 1) * 8
        c = 1
        if i == app.sel:
            cv.tab(r + 1, setup_label_w(app.items[i]))
            c = 0
        setup_row(cv, app, app.items[i], y, c)


SETUP_LABELS = ("Game", "Joker", "Sharp dice", "Bet", "Saved rolls", "Upper bonus",
                "Players", "Coach", "Start game")
ON_OFF = ("Off", "On")


def setup_label_w(code):
    """Width of the selection box over a setup row's label, as setup_row draws it."""
    if code >= 16:
        return (7 if code >= 32 else 8) * CELL + 1  # "P1 name" / "P1 plays"
    return len(SETUP_LABELS[code]) * CELL + (9 if code == 8 else 1)


def setup_row(cv, app, code, y, c):
    """One setup row: the label in colour c (0 inside the selection box), the value."""
    from picoyacht.rules import JOKER_NAMES, RULESETS

    s = app.settings
    o = s.options
    if code >= 16:
        seat = code & 15
        x = cv.text("P", 1, y, c)
        x = cv.num(seat + 1, x, y, c)
        if code >= 32:
            cv.text(" name", x, y, c)
            cv.rtext(s.names[seat], W, y)
        else:
            cv.text(" plays", x, y, c)
            cv.rtext(KIND_NAMES[s.kinds[seat]], W, y)
        return
    if code == 8:
        cv.glyph(font.RIGHT, 1, y, c)
        cv.text(SETUP_LABELS[code], 9, y, c)
        return
    cv.text(SETUP_LABELS[code], 1, y, c)
    if code == 0:
        cv.rtext(RULESETS[s.rid].name, W, y)
    elif code == 1:
        cv.rtext(JOKER_NAMES[o.joker], W, y)
    elif code == 2:
        cv.rtext(ON_OFF[o.sharp], W, y)
    elif code == 3:
        cv.rnum(o.bet, W, y)
    elif code == 4:
        cv.rtext(ON_OFF[o.saved_rolls], W, y)
    elif code == 5:
        cv.rnum(100 if o.bonus100 else 50, W, y)
    elif code == 6:
        cv.rnum(s.nplayers, W, y)
    elif code == 7:
        cv.rtext(("Off", "Hints", "Hints+tips")[s.coach], W, y)


def draw_name(cv, app):
    cv.clear()
    header(cv, "Player name")
    cv.text("Player", 1, 12)
    cv.num(app.edit_seat + 1, 44, 12)
    name = app.edit
    x = 10
    for i in range(len(name)):
        if i == app.edit_pos:
            cv.fb.fill_rect(x - 1, 24, 14, 18, 1)
            cv.big(name[i], x, 26, 2, 0)
        else:
            cv.big(name[i], x, 26, 2, 1)
        x += 14
    cv.text("Up/Dn letter OK next", 1, 48)
    cv.text("Menu: done", 1, 56)


# ---------------------------------------------------------------- play
def dice_x(n, i):
    gap = 4 if n == 6 else 8
    x0 = (W - n * _DIE - (n - 1) * gap) >> 1
    return x0 + i * (_DIE + gap)


def draw_play(cv, app):
    g = app.game
    seat = g.current
    cv.clear()
    cv.bar(0)
    x = cv.text(g.names[seat], 1, 0, 0)
    if g.kinds[seat]:
        cv.text("CPU", x + 4, 0, 0)
    xr = cv.rnum(total_of(g, seat), W, 0, 0)
    if app.save_msg:
        cv.glyph(font.BANG, xr - 8, 0, 0)
    # status line: a message, or the rolls left and the round
    if app.msg:
        cv.text(app.msg, 1, 8, 1, 21)
    else:
        x = cv.text("Rolls ", 1, 8)
        for i in range(g.rolls_left + g.rolls_used):
            if i < g.rolls_used:
                cv.fb.rect(x, 9, 5, 5, 1)
            else:
                cv.fb.fill_rect(x, 9, 5, 5, 1)
            x += 7
        xr = cv.rnum(g.rs.nboxes, W, 8)
        cv.glyph(47, xr - CELL, 8)
        cv.rnum(g.turn // g.nseats + 1, xr - CELL, 8)
    n = len(g.dice)
    dice = app.anim_dice if app.anim else g.dice
    rolled = g.rolls_used > 0
    for i in range(n):
        x = dice_x(n, i)
        held = rolled and not app.anim and g.held >> i & 1
        yo = 1 if app.anim and (i + app.anim) & 1 else 0
        cv.die(x, 17 + yo, dice[i] if rolled or app.anim else 0, held)
        if held:
            cv.fb.fill_rect(x, 36, _DIE, 2, 1)
        if app.hint_mask >> i & 1:
            cv.glyph(font.DOT, x + 6, 39)
        if app.cursor == i and not g.kinds[seat]:
            cv.glyph(font.UP, x + 6, 40)
    # action row
    if g.kinds[seat]:
        cv.text("CPU playing...", 1, 48)
        cv.text("any key: skip", 1, 56)
        return
    labels = app.ACTIONS
    x = 1
    for k in range(len(labels)):
        if k == 2 and not app.coach:
            break
        w = len(labels[k]) * CELL + 3
        c = 1
        if app.cursor == n + k:
            cv.fb.fill_rect(x - 1, 48, w, 8, 1)
            c = 0
        if k == 0 and not app.can_roll():
            cv.fb.hline(x, 52, w - 3, c)
        cv.text(labels[k], x + 1, 48, c)
        x += w + 4
    cv.text(app.legend, 1, 56, 1, 21)


# ---------------------------------------------------------------- scorecard
def card_value(cv, g, seat, code, y, state):
    """The right-hand value of one card row."""
    if code < ROW_UPPER:
        if state == LOCKED:
            cv.glyph(45, W - CELL, y)
        elif state == FILLED:
            cv.rnum(g.box_score(seat, code), W, y)
        else:
            cv.rnum(g.preview(code), W, y)
        return
    if code == ROW_UPPER:
        up = upper_of(g, seat)
        at = g.rs.bonus_at
        x = cv.rnum(at, W, y)
        cv.glyph(47, x - CELL, y)
        x = cv.rnum(up, x - CELL, y)
        # progress bar toward the bonus
        fill = up if up < at else at
        cv.fb.rect(40, y + 1, 40, 6, 1)
        cv.fb.fill_rect(40, y + 1, fill * 40 // at, 6, 1)
    elif code == _ROW_BONUS:
        b = bonus_of(g, seat)
        if b:
            cv.rnum(b, W, y)
        else:
            x = cv.rnum(g.rs.bonus_at - upper_of(g, seat), W, y)
            cv.text("need", x - 30, y)
    elif code == _ROW_YB:
        cv.rnum(100 * g.ybonus[seat], W, y)
    elif code == _ROW_CREDITS:
        cv.rnum(g.credits[seat], W, y)
    else:
        cv.rnum(total_of(g, seat), W, y)


ROW_NAMES = ("Upper", "Bonus", "Yahtzee bonus", "Credits", "Total")


def draw_card(cv, app):
    """One seat's card: header with page indicator, 7 rows, the four box states."""
    g = app.game
    seat = g.current
    rows = app.rows
    npages = (len(rows) + _CARD_ROWS - 1) // _CARD_ROWS
    page = app.row // _CARD_ROWS
    cv.clear()
    if app.msg:
        cv.bar(0)
        cv.text(app.msg, 1, 0, 0, 21)
    else:
        header(cv, g.names[seat], total_of(g, seat), page, npages)
    for r in range(_CARD_ROWS):
        i = page * _CARD_ROWS + r
        if i >= len(rows):
            break
        code = rows[i]
        y = (r + 1) * 8
        label = g.rs.boxes[code][NAME] if code < ROW_UPPER else ROW_NAMES[code - ROW_UPPER]
        c = 1
        if i == app.row:
            n = len(label)
            cv.tab(r + 1, (n if n < 14 else 14) * CELL + 8)
            c = 0
        if code < ROW_UPPER:
            st = g.box_state(code)
            cv.glyph(STATE_MARK[st], 0, y, c)
            cv.text(label, 8, y, c, 14)
            card_value(cv, g, seat, code, y, st)
        else:
            cv.text(label, 8, y, c, 14)
            card_value(cv, g, seat, code, y, POINTS)


# ---------------------------------------------------------------- all players
def draw_scores(cv, app):
    """Every seat's card as a grid: 4 seats and 6 rows per page."""
    g = app.game
    rows = app.rows
    rpages = (len(rows) + 5) // 6
    spages = (g.nseats + 3) // 4
    page = app.page
    rp = page % rpages
    sp = page // rpages
    cv.clear()
    header(cv, "Scores", -1, page, rpages * spages)
    for k in range(4):
        s = sp * 4 + k
        if s >= g.nseats:
            break
        xr = 20 + 27 * (k + 1)
        cv.text(g.names[s], xr - 25, 8, 1, 4)
        if s == g.current and not g.over:
            cv.fb.hline(xr - 25, 15, 24, 1)
    for r in range(6):
        i = rp * 6 + r
        if i >= len(rows):
            break
        code = rows[i]
        y = (r + 2) * 8
        if code < ROW_UPPER:
            cv.text(g.rs.boxes[code][1], 0, y)
        else:
            cv.text(("Up", "Bn", "YB", "Cr", "Tot")[code - ROW_UPPER], 0, y)
        for k in range(4):
            s = sp * 4 + k
            if s >= g.nseats:
                break
            xr = 20 + 27 * (k + 1)
            if code < ROW_UPPER:
                if g.is_filled(s, code):
                    cv.rnum(g.box_score(s, code), xr, y)
                else:
                    cv.glyph(font.DOT, xr - 6, y)
            elif code == ROW_UPPER:
                cv.rnum(upper_of(g, s), xr, y)
            elif code == _ROW_BONUS:
                cv.rnum(bonus_of(g, s), xr, y)
            elif code == _ROW_YB:
                cv.rnum(100 * g.ybonus[s], xr, y)
            elif code == _ROW_CREDITS:
                cv.rnum(g.credits[s], xr, y)
            else:
                cv.rnum(total_of(g, s), xr, y)


# ---------------------------------------------------------------- hand-over
def draw_handover(cv, app):
    g = app.game
    cv.clear()
    header(cv, "Next turn")
    seat = g.current
    name = g.names[seat]
    cv.big(name, (W - len(name) * 12) >> 1, 10, 2)
    cv.ctext(KIND_NAMES[g.kinds[seat]], 28)
    if app.last_line:
        cv.text(app.last_line, 1, 40, 1, 21)
    if app.coach_line:
        cv.text(app.coach_line, 1, 48, 1, 21)
    if g.kinds[seat] and app.auto_cpu():
        cv.text("any key: go", 1, 56)
    else:
        cv.text("OK: start turn", 1, 56)


# ---------------------------------------------------------------- menu
MENU_LABELS = ("Back to game", "All scores", "Undo last box", "Hint", "Quit to title",
               "Stop demo")


def draw_menu(cv, app):
    cv.clear()
    header(cv, "Menu")
    menu_list(cv, app, MENU_LABELS, app.items)


# ---------------------------------------------------------------- game over
def draw_over(cv, app):
    g = app.game
    cv.clear()
    header(cv, "Game over")
    win = app.winners
    if len(win) == 1:
        x = cv.text("Winner ", 1, 8)
        cv.text(g.names[win[0]], x, 8)
    else:
        x = cv.text("Tie: ", 1, 8)
        x = cv.num(len(win), x, 8)
        cv.text(" players", x, 8)
    worst = app.worst if app.proficiency[0] >= 0 else None
    last_row = 48 if worst is not None else 56  # the coach's line takes the bottom row
    rank = app.ranking
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
        elif app.proficiency[s] >= 0:
            # coach summary: expected points given away (centi-points, shown -x.y)
            _centi_left(cv, -app.proficiency[s], 92, y)
        cv.rnum(total_of(g, s), W, y)
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


def draw_ratings(cv, app):
    """Per seat, each box's score rated against its maximum (five marks)."""
    g = app.game
    nb = g.rs.nboxes
    per_seat = (nb + 13) // 14
    seat = app.page // per_seat
    part = app.page % per_seat
    cv.clear()
    header(cv, g.names[seat], total_of(g, seat), app.page, per_seat * g.nseats)
    for k in range(14):
        b = part * 14 + k
        if b >= nb:
            break
        x = 0 if k < 7 else 66
        y = (k % 7 + 1) * 8
        cv.text(g.rs.boxes[b][1], x, y)
        cv.rnum(g.box_score(seat, b), x + 36, y)
        cv.glyph(RATE_MARK[g.rating(seat, b)], x + 40, y)


# ---------------------------------------------------------------- records
def draw_records(cv, app):
    from picoyacht.rules import RULESETS

    rec = app.records
    cv.clear()
    header(cv, "Records", -1, app.page, 2)
    if app.page == 0:
        cv.text("game", 0, 8)
        cv.text("plays", 60, 8)
        cv.text("best", 104, 8)
        for r in range(len(RULESETS)):
            y = (r + 2) * 8
            cv.text(RULESETS[r].name, 0, y, 1, 10)
            cv.rnum(rec.games[r], 90, y)
            cv.rnum(rec.best[r], W, y)
    else:
        cv.text("best by", 0, 8)
        for r in range(len(RULESETS)):
            y = (r + 2) * 8
            cv.text(RULESETS[r].name, 0, y, 1, 10)
            cv.text(rec.names[r] if rec.best[r] else "-", 66, y)


# ---------------------------------------------------------------- messages
def draw_message(cv, app):
    cv.clear()
    header(cv, app.msg_title)
    lines = app.msg_lines
    for i in range(len(lines)):
        if i > 5:
            break
        cv.text(lines[i], 1, 10 + i * 8, 1, 21)
    cv.text(app.msg_hint, 1, 56, 1, 21)
