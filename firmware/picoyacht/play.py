"""Playing a turn: the dice, the scorecard to pick a box from, and the hand-over between
seats. The screens draw the game and pass each move to the Turn (picoyacht.turn)."""

from micropython import const

from picoyacht import font
from picoyacht.buttons import B_DOWN, B_MENU, B_OK, B_ROLL, B_UP
from picoyacht.coach import CPU_HANDOVER_MS
from picoyacht.cues import NOTE_KEY, SOUND_ROLL
from picoyacht.game import FILLED, HUMAN, LOCKED, POINTS, ZERO
from picoyacht.labels import fit, row_label
from picoyacht.policy import A_ROLL, A_SCORE, can_roll
from picoyacht.rules import CPU_EXPERT, NAME
from picoyacht.screens import (
    CELL,
    DIE,
    KIND_NAMES,
    ROW_BONUS,
    ROW_UPPER,
    ROW_WALLET,
    Screen,
    W,
    card_rows,
    header,
    ndigits,
    row_sum,
)
from picoyacht.ticks import ticks_diff

_ROLL_STEP = const(7)  # a roll's box on the status row, and the gap to the next
_ANIM_FRAMES = const(4)
_ANIM_FRAME_MS = const(70)  # and any press ends it at once
_CARD_ROWS = const(7)  # card rows under the header
_MAX_BOXES = const(20)  # box indexes are below screens.ROW_UPPER
_CPU_FINISH_STEPS = const(60)  # more than any CPU turn takes: a guard, never reached
STATE_MARK = (font.LOCK, font.CHECK, ord("+"), font.CROSS)  # LOCKED FILLED POINTS ZERO
_LABEL = const(15)  # characters of a card row's label: every full box name fits


def dice_x(n, i):
    gap = 4 if n == 6 else 8
    x0 = (W - n * DIE - (n - 1) * gap) >> 1
    return x0 + i * (DIE + gap)


class Play(Screen):
    """The dice and an action row. The cursor runs over the dice, then Roll, Score and
    (coach on) Hint; a build with hold and Roll buttons reaches them directly."""

    NAME = "play"
    ACTIONS = ("Roll", "Score", "Hint")
    def __init__(self, app):
        Screen.__init__(self, app)
        self.cursor = 0  # (every field made now: setting one in a key's pass allocates nothing)
        self.hint_mask = 0
        self.anim = 0  # roll animation frame, 0 when still
        self.anim_at = 0
        self.game = None  # the game and turn last shown here: a new one starts on Roll
        self.seen_turn = -1
        self.anim_dice = bytearray(6)
        self._rng = (app.boot_ms & 0xFFFF) | 1  # for roll animations only, never the dice
        self.legend = ""

    def enter(self):
        """A new game or a new turn (a box scored, or one undone) starts on Roll, with no
        hint showing; back from the menu or the title, the dice are as they were left."""
        g = self.turn.game
        if g is not self.game or g.turn != self.seen_turn:
            self.game = g
            self.seen_turn = g.turn
            self.cursor = len(g.dice)
            self.hint_mask = 0
        if not self.app.full:
            self.legend = "Up/Dn: move  A: pick"
        else:  # the hold keys this game's dice have
            self.legend = "1-5: hold  OK: pick" if len(g.dice) == 5 else "1-6: hold  OK: pick"
        self.anim = 0
        self.turn.coach.wait(self.app.now)

    def items(self):
        return len(self.turn.game.dice) + (3 if self.turn.coach.level else 2)

    # ---------------------------------------------------------------- keys
    def event(self, btn, kind):
        if self.anim:  # any press ends the animation
            self.anim = 0
            self.app.redraw()
        Screen.event(self, btn, kind)

    def key(self, btn):
        app = self.app
        g = self.turn.game
        if g.kinds[g.current] != HUMAN:
            if btn == B_MENU:
                app.go("menu")
            else:
                self._cpu_finish()
            return
        n = len(g.dice)
        if btn < 6:
            if btn < n:
                self.toggle(btn)
        elif btn == B_ROLL:
            self.roll()
        elif btn == B_UP:
            self.cursor = (self.cursor - 1) % self.items()
        elif btn == B_DOWN:
            self.cursor = (self.cursor + 1) % self.items()
        elif btn == B_OK:
            c = self.cursor
            if c < n:
                self.toggle(c)
            elif c == n:
                self.roll()
            elif c == n + 1:
                app.go("card")
            else:
                self.hint()
        elif btn == B_MENU:
            app.go("menu")

    # ---------------------------------------------------------------- actions
    def toggle(self, i):
        if self.turn.hold(i):
            self.hint_mask = 0

    def roll(self):
        if not self.turn.roll():
            return
        self.hint_mask = 0
        self._animate()
        if self.turn.game.rolls_left <= 0 or self.app.full:
            self.cursor = len(self.turn.game.dice) + 1
        else:
            self.cursor = 0

    def hint(self):
        """Show the recommended hold (dots under dice) or box, with its value."""
        mask = self.turn.hint()
        if mask >= 0:
            self.hint_mask = mask

    def undone(self):
        """After the menu's Undo the cursor is on Score, to pick another box."""
        self.cursor = len(self.turn.game.dice) + 1

    def _animate(self):
        """The rolled dice flicker through faces (and rattle, with a piezo) for a moment,
        in place, as on a handheld's display: only their pips change on the panel."""
        self.app.sound(SOUND_ROLL)
        self.anim = 1
        self.anim_at = self.app.now
        self._shake()

    def _shake(self):
        g = self.turn.game
        r = self._rng
        for i in range(len(g.dice)):
            if g.held >> i & 1:
                self.anim_dice[i] = g.dice[i]
            else:
                r = (r * 75 + 74) % 65537
                self.anim_dice[i] = r % 6 + 1
        self._rng = r

    # ---------------------------------------------------------------- time and CPU seats
    def tick(self, now):
        app = self.app
        if self.anim and ticks_diff(now, self.anim_at) >= _ANIM_FRAME_MS:
            self.anim += 1
            self.anim_at = now
            if self.anim > _ANIM_FRAMES:
                self.anim = 0
            else:
                self._shake()
            app.redraw()
        g = self.turn.game
        if not self.anim and not g.over and self.turn.coach.due(now, g, app.dirty):
            app.stay_awake(now)
            self._cpu_step()

    def _cpu_step(self):
        """One visible CPU action: a roll, a change of holds, or a box."""
        kind, arg = self.turn.cpu_step()
        if kind == A_ROLL:
            self._animate()
        elif kind == A_SCORE and arg is not None:
            self.app.show(arg)

    def _cpu_finish(self):
        """Skip: play the rest of the CPU's turn at once."""
        g = self.turn.game
        turn = g.turn
        for _ in range(_CPU_FINISH_STEPS):
            if g.turn != turn or g.over or self.app.screen is not self:
                break
            self._cpu_step()
        self.anim = 0

    # ---------------------------------------------------------------- drawing
    def draw(self, cv):
        app = self.app
        g = self.turn.game
        seat = g.current
        cv.clear()
        cv.bar(0)
        x = cv.text(g.names[seat], 1, 0, 0)
        if g.kinds[seat]:
            x = cv.text("CPU", x + 4, 0, 0)
        xr = cv.rnum(g.total(seat), W, 0, 0)
        if app.save_state.failed:
            xr -= 8
            cv.glyph(font.BANG, xr, 0, 0)
        # status line: a note, or the rolls left and the round
        if app.status.text:
            app.status.draw(cv, 8, 1)
            rolls_brief(cv, g.rolls_left, g.turn // g.nseats + 1, g.rs.nboxes, x, xr)
        else:
            rolls_row(cv, g.rolls_used, g.rolls_left, g.turn // g.nseats + 1, g.rs.nboxes, 8)
        n = len(g.dice)
        anim = self.anim
        dice = self.anim_dice if anim else g.dice
        rolled = g.rolls_used > 0
        for i in range(n):
            x = dice_x(n, i)
            held = rolled and g.held >> i & 1  # solid and still while the others tumble
            cv.die(x, 17, dice[i] if rolled or anim else 0, held)
            if held:
                cv.fb.fill_rect(x, 36, DIE, 2, 1)
            if self.hint_mask >> i & 1:
                cv.glyph(font.DOT, x + 6, 39)
            if self.cursor == i and not g.kinds[seat]:
                cv.glyph(font.UP, x + 6, 40)
        # action row
        if g.kinds[seat]:
            cv.text("CPU playing...", 1, 48)
            cv.text("any key: skip", 1, 56)
            return
        labels = self.ACTIONS
        x = 1
        for k in range(len(labels)):
            if k == 2 and not self.turn.coach.level:
                break
            w = len(labels[k]) * CELL + 3
            c = 1
            if self.cursor == n + k:
                cv.fb.fill_rect(x - 1, 48, w, 8, 1)
                c = 0
            if k == 0 and not can_roll(g):
                cv.fb.hline(x, 52, w - 3, c)
            cv.text(labels[k], x + 1, 48, c)
            x += w + 4
        if not (app.status.text and cv.line(app.status.text, 1, 1, 56)):  # a note's 2nd row
            cv.text(self.legend, 1, 56, 1, 21)


def rolls_brief(cv, left, rnd, nboxes, x0, xr):
    """The rolls left and the round in the title bar, between the name (ending at x0) and
    the total (from xr), while a note or a tip takes the status row: "2[#] 8/13", or only
    the rolls when both do not fit."""
    wr = (ndigits(rnd) + 1 + ndigits(nboxes)) * CELL + CELL
    wl = ndigits(left) * CELL + 7
    x = xr - CELL - wl
    if x - wr >= x0 + CELL:
        x -= wr
    elif x < x0 + CELL:
        return
    x = cv.num(left, x, 0, 0)
    cv.fb.fill_rect(x + 1, 1, 5, 5, 0)
    if x + 7 + wr <= xr - CELL:
        x = cv.num(rnd, x + 7 + CELL, 0, 0)
        cv.glyph(47, x, 0, 0)
        cv.num(nboxes, x + CELL, 0, 0)


def rolls_row(cv, used, left, rnd, nboxes, y):
    """The play screen's status row: the rolls, a hollow box for each one used and a solid
    one for each left, then the round ("8/20") on the right. Maxi's saved rolls can outgrow
    the room for a box each: then each kind is a count before its box ("2[] 12[#]")."""
    xr = cv.rnum(nboxes, W, y)
    cv.glyph(47, xr - CELL, y)
    xr = cv.rnum(rnd, xr - CELL, y)
    x = cv.text("Rolls ", 1, y)
    if x + (used + left) * _ROLL_STEP <= xr - CELL:  # a box each, and a gap before the round
        for i in range(used + left):
            if i < used:
                cv.fb.rect(x, y + 1, 5, 5, 1)
            else:
                cv.fb.fill_rect(x, y + 1, 5, 5, 1)
            x += _ROLL_STEP
        return
    x = cv.num(used, x, y)
    cv.fb.rect(x + 1, y + 1, 5, 5, 1)
    x = cv.num(left, x + 10, y)
    cv.fb.fill_rect(x + 1, y + 1, 5, 5, 1)


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
                     else row_label(code - ROW_UPPER, _LABEL))
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


class Handover(Screen):
    """Between turns: who plays next and what the last box gave. It waits for a key only
    where the handheld changes hands, from one human to another; otherwise (a CPU seat,
    or the one human's turn coming back) it goes on by itself after CPU_HANDOVER_MS,
    unless it shows a coach's tip on a human's box: that stays until a key. The one
    human then finds the last CPU box on the play screen, until a key. The first turn of
    a game with drawn seats says who starts."""

    NAME = "handover"
    at = 0
    alone = False  # one human seat at most: no hands to change
    drawn_exact = True  # the frame named an Expert seat as playing exactly

    def __init__(self, app):
        Screen.__init__(self, app)
        self.start_key = app.keys("OK: start turn")

    def enter(self):
        self.at = self.app.now
        kinds = self.turn.game.kinds
        humans = 0
        for i in range(len(kinds)):
            if kinds[i] == HUMAN:
                humans += 1
        self.alone = humans < 2

    def key(self, btn):
        app = self.app
        g = self.turn.game
        if btn == B_MENU:
            app.go("menu")
            return
        play = app.show("play")
        self.turn.heard()
        if btn == B_ROLL and g.kinds[g.current] == HUMAN:
            play.roll()

    def tick(self, now):
        app = self.app
        t = self.turn
        g = t.game
        s = t.last_scorer  # a coach's word on a human's last box waits for a key
        cpu = g.kinds[g.current] != HUMAN
        # Expert's table, loaded in a pass that draws nothing; then the frame says whether
        # that seat plays exactly or by the estimate
        if g.kinds[g.current] == CPU_EXPERT and not app.dirty:
            if t.coach.exact(g, False) != self.drawn_exact:
                app.redraw()
            else:
                t.coach.exact(g)
        if ((cpu or self.alone) and ticks_diff(now, self.at) >= CPU_HANDOVER_MS
                and not (t.coach_line and s >= 0 and g.kinds[s] == HUMAN)):
            app.show("play")
            app.stay_awake(now)
            if not cpu and t.last_box >= 0:  # the CPU's box, until the human's first key
                name = g.names[t.last_seat] + ": "
                box = g.rs.boxes[t.last_box][NAME]
                app.note(name + box[:20 - len(name) - ndigits(t.last_pts)], t.last_pts,
                         NOTE_KEY)

    def draw(self, cv):
        t = self.turn
        g = t.game
        cv.clear()
        first = g.turn == 0
        header(cv, "First turn" if first else "Next turn")
        seat = g.current
        name = g.names[seat]
        cv.big(name, (W - len(name) * 12) >> 1, 10, 2)
        tip = t.coach_line  # two rows: the rows above it move up to make room
        y = 32 if tip else 40  # the last box's row
        kind = g.kinds[seat]  # an Expert with no table for these rules says so
        words = KIND_NAMES[kind]
        self.drawn_exact = t.coach.exact(g, False)
        if kind == CPU_EXPERT and not self.drawn_exact:
            words = "Expert: estimate"
        cv.ctext(words, y - 8 if tip else 28)
        if first and (g.rs.random_seating or g.rs.rolloff):
            cv.text("drawn to go first" if g.rs.random_seating else "won the roll-off", 1, 40)
            x = cv.text("then", 1, 48)
            for i in range(1, g.nseats):  # the seating order, as far as the line goes
                other = g.names[g.order[i]]
                if x + (len(other) + 1) * CELL > W:
                    cv.text("..", x, 48)
                    break
                x = cv.text(other, x + CELL, 48)
        elif t.last_box >= 0:  # "Ann: Chance 23": a long box name is shortened, not cut
            x = cv.text(g.names[t.last_seat], 1, y)
            x = cv.text(": ", x, y)
            pts = t.last_pts
            room = 21 - (x - 1) // CELL - 1 - ndigits(pts)
            x = cv.text(fit(g.rs.boxes[t.last_box][NAME], room), x, y)
            cv.num(pts, x + CELL, y)
        if tip:
            cv.line(tip, 0, 1, 40)
            cv.line(tip, 1, 1, 48)
        if g.kinds[seat] or self.alone:
            cv.text("any key: go", 1, 56)
        else:
            cv.text(self.start_key, 1, 56)


SCREENS = (Play, Card, Handover)  # what App.find opens by NAME
