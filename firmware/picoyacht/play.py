"""The play screen: the dice of the seat whose turn it is, and its actions (roll, the
scorecard, the hint). It passes each move to the Turn (picoyacht.turn)."""

from micropython import const

from picoyacht import font
from picoyacht.buttons import B_DOWN, B_MENU, B_OK, B_ROLL, B_UP
from picoyacht.cues import SOUND_ROLL
from picoyacht.game import HUMAN
from picoyacht.policy import A_ROLL, A_SCORE, can_roll
from picoyacht.screens import CELL, DIE, Screen, W, ndigits
from picoyacht.ticks import ticks_diff

_ROLL_STEP = const(7)  # a roll's box on the status row, and the gap to the next
_ANIM_FRAMES = const(4)
_ANIM_FRAME_MS = const(70)  # and any press ends it at once
_CPU_FINISH_STEPS = const(60)  # more than any CPU turn takes: a guard, never reached


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


SCREENS = (Play,)  # what App.find opens by NAME
