"""The handheld's session: one game, the saves, the display's power, and the screens.

Functional core, imperative shell: App never reads a pin, a clock or a file by itself.
It gets the display, the set of buttons the build has, a Store, an entropy source and a
console writer as arguments, and `now_ms` with every call, so the same code runs on the
Pico, in the terminal simulator and under scripted tests. `Runner` is the only loop.

Each screen is an object that owns its cursor, rows and pages (screens.Screen). App opens
one by name: go() over the current one (back() returns to it), show() in place of all of
them, home() for the title. A screen's module is imported the first time it is opened,
so setup, records and diagnostics cost no heap in a game resumed at boot.
"""

import gc

from micropython import const

from picoyacht import gamelog
from picoyacht.buttons import B_DOWN, B_MENU, B_UP, FULL_BUTTONS, MIN_BUTTONS, NBUTTONS
from picoyacht.coach import Coach
from picoyacht.cues import GAME_OVER, SCORE, SCRATCH
from picoyacht.cues import YAHTZEE as FANFARE
from picoyacht.debounce import PRESS, RELEASE
from picoyacht.fast import locked
from picoyacht.game import Game, RuleError, copy_into
from picoyacht.rules import NAME, YAHTZEE, Options
from picoyacht.saves import Records, Settings
from picoyacht.screens import Canvas
from picoyacht.ticks import ticks_diff

# Display power.
AWAKE = const(0)
DIM = const(1)
BLANK = const(2)
_CONTRAST_ON = const(0xCF)
CONTRAST_DIM = const(0x08)
_DIM_MS = const(30000)
_BLANK_MS = const(120000)
_NOTE_MS = const(1800)  # a status note clears itself after this
_RETRY_MS = const(250)  # a frame or display command the panel refused is sent again

# Screen name -> its module, imported on first use; the class is the name capitalised.
SCREENS = {
    "title": "menus", "menu": "menus", "message": "menus", "setup": "newgame",
    "name": "newgame", "play": "play", "card": "play", "handover": "play", "scores": "results",
    "over": "results", "ratings": "results", "records": "records", "diag": "diag",
}
_KEPT = "menus"  # title, menu and message: the one screen module never dropped


class App:
    """The session around one Game, and navigation between screens."""

    def __init__(self, display, present=FULL_BUTTONS, store=None, urandom=None,
                 console=None, now_ms=0, boot_buttons=0, tone=None):
        from picoyacht.roller import Roller, seed_from_entropy

        self.disp = display
        self.cv = Canvas(display, display.buffer)
        self.present = present | MIN_BUTTONS
        self.full = (present & 0x7F) == 0x7F  # six hold buttons and Roll
        self.player = None  # a sound.Player on tone(freq_hz, duty_u16), if a piezo is fitted
        self.store = store
        self.console = console
        self._Roller = Roller
        self.boot_roller = Roller(seed_from_entropy(urandom or _no_entropy, now_ms))
        self.now = now_ms
        self.boot_ms = now_ms
        self.coach = Coach(self.log)
        self.settings = Settings()
        self.records = Records()
        self.game = None
        self.demo = False
        self.play = None  # the play screen while there is a game: it runs the turn
        self.screen = None
        self._stack = []  # screens back() returns to
        self._next = None  # a screen to load ahead in a quiet pass: Screen.NEXT
        self._screens = {}  # name -> screen object, once opened
        self._extra = False  # a module beyond menus and play is loaded: see show()
        self._start = False  # setup asked for a new game: started once its key returns
        self.dirty = True
        self.note = ""  # a status note over the play or card screen
        self.note_num = -1  # a number the note ends with (a box's points), or -1
        self.note_at = 0
        self.note_key = False  # the note stays until the next key (a coach's tip)
        self.save_msg = ""
        self._save_due = False  # the game is saved on the pass after its frame: after_move()
        self._swept = False  # the heap was collected for that save
        # The last box scored, for the hand-over ("Ann: Chance 23"; box -1: none) and for
        # its log line, written after its frame: kept without a tuple or a string, so that
        # scoring allocates nothing
        self.last_seat = self.last_box = self.last_pts = -1
        self._log_due = False  # the last box's log line is still to write
        self._log_bonus = 0
        self._log_dice = bytearray(0)  # sized to the game's dice: _adopt()
        self.coach_line = ""
        self.last_scorer = -1
        self.new_best = False  # the game just over set a record
        self.power = AWAKE
        self.last_input = now_ms
        self.swallow = 0
        self.frames = 0
        self.unsent = False  # the panel refused the last frame or command: retry
        self.unsent_at = now_ms
        for name in SCREENS:  # the screens always at hand, made now: opening one allocates
            if SCREENS[name] == _KEPT:  # nothing (their module is never dropped)
                self.find(name)
        self._boot(boot_buttons, tone)

    # ---------------------------------------------------------------- sound
    def sound(self, snd):
        """Start one of picoyacht.sound's sounds; silent without a piezo. Never blocks."""
        if self.player is not None:
            self.player.play(snd)

    def set_volume(self, level):
        self.settings.volume = level
        if self.player is not None:
            self.player.set_volume(level)

    def keys(self, text):
        """A prompt in the build's key names: OK and Menu are A and B on 4 buttons."""
        if self.full:
            return text
        return text.replace("OK", "A").replace("Menu", "B")

    # ---------------------------------------------------------------- navigation
    def find(self, name):
        """The screen called name, created (and its module imported) on first use."""
        s = self._screens.get(name)
        if s is None:
            mod = SCREENS[name]
            cls = getattr(getattr(__import__("picoyacht." + mod), mod), name[0].upper() + name[1:])
            s = cls(self)
            self._screens[name] = s
            self._extra = self._extra or (mod != _KEPT and mod != "play")
        return s

    def go(self, name):
        """Open a screen over the current one; back() returns to it as it was."""
        self._stack.append(self.screen)
        return self._open(name)

    def show(self, name):
        """Open a screen in place of every open one. Screen modules the new screen cannot
        reach without another show() leave the heap, so the peak is the largest phase,
        not all of them: setup is gone during play, the results during setup, and the
        play screens once the game is over."""
        stack = self._stack
        while stack:  # pops: a slice's delete would allocate
            stack.pop()
        s = self._open(name)
        g = self.game
        if self._extra or (self.play is not None and (g is None or g.over)):
            self._drop_unused(SCREENS[name])
        return s

    def _drop_unused(self, shown):
        import sys

        import picoyacht

        g = self.game
        playing = g is not None and not g.over
        if not playing:
            self.play = None
        screens = self._screens
        for name in SCREENS:  # (no list of names, no string made: this allocates nothing)
            mod = SCREENS[name]
            if (name in screens and mod != _KEPT and mod != shown
                    and not (playing and mod == "play")):
                del screens[name]
                m = getattr(picoyacht, mod, None)
                if m is not None:  # (the first of the module's screens)
                    sys.modules.pop(m.__name__, None)
                    delattr(picoyacht, mod)
        self._extra = shown != _KEPT and shown != "play"
        if not self._save_due:  # else after_move collects in the next pass, not this one
            gc.collect()  # now, so what comes next fills the hole they leave

    def home(self):
        return self.show("title")

    def back(self):
        self.screen = self._stack.pop()
        self.dirty = True

    def _open(self, name):
        s = self.find(name)
        self.screen = s
        self._next = s.NEXT
        s.enter()
        self.dirty = True
        return s

    def message(self, title, lines, hint, then=None):
        """A note screen; OK calls then(button), or goes to the title."""
        self.find("message").set(title, lines, hint, then)
        self.show("message")

    def show_note(self, text, num=-1):
        """A short status note over the play or card screen, gone after _NOTE_MS; `num`
        (0 or more) is drawn after the text, so a box's note needs no string made."""
        self.note = text
        self.note_num = num
        self.note_at = self.now
        self.note_key = False
        self.dirty = True

    def keep_note(self, text):
        """A note read at the player's pace (a coach's tip): it stays until the next key,
        which then acts as usual."""
        self.show_note(text)
        self.note_key = True

    # ---------------------------------------------------------------- boot and saves
    def _load(self, kind, parse, notes):
        """Payload parsed, or None; every failure becomes a line for the boot message."""
        if self.store is None:
            return None

        accepted = []  # (payload, parsed) of each copy the check took: parsed once only

        def check(payload):  # the store skips copies this refuses, and never backs them up
            obj = parse(payload)
            if obj is not None:
                accepted.append((bytes(payload), obj))
            return obj is not None

        try:
            data = self.store.load(kind, check)
            err = self.store.last_error
        except Exception as e:  # a Store must not raise, but a flaky flash might
            data, err = None, "read error " + str(e)
        if err:
            notes.append(kind + ": " + err)
        if data is None:
            return None
        for payload, obj in accepted:
            if payload == data:
                return obj
        try:
            return parse(data)
        except Exception:
            notes.append(kind + ": unreadable, reset")
            return None

    def _boot(self, boot_buttons, tone):
        notes = []
        s = self._load("settings", Settings.unpack, notes)
        if s is not None:
            self.settings = s
        if tone is not None:
            from picoyacht.sound import Player  # only with a piezo: see picoyacht.cues

            self.player = Player(tone, self.settings.volume)
        r = self._load("records", Records.unpack, notes)
        if r is not None:
            self.records = r
        g = self._load("game", self._restore, notes)
        resumable = g is not None and not g.over
        if resumable:
            self._adopt(g, self.settings.coach)
        self.home()
        if notes:
            self.message("Fresh start" if g is None else "Note", notes, self.keys("OK: continue"),
                         self.offer_resume if resumable else None)
        elif resumable:
            self.offer_resume()
        if boot_buttons & (1 << B_MENU):
            try:
                self.show("diag")
            except MemoryError as e:  # a builder's screen must never stop the game booting
                self.fault(e)

    def offer_resume(self, btn=0):
        g = self.game
        lines = [g.rs.name + ", " + str(g.nseats) + " player" + ("s" if g.nseats > 1 else ""),
                 "turn " + str(g.turn // g.nseats + 1) + " of " + str(g.rs.nboxes)]
        for s in range(g.nseats):
            if len(lines) > 4:
                break
            lines.append(g.names[s] + " " + str(g.total(s)))
        self.message("Saved game", lines, self.keys("OK resume  Menu: new"),
                     self._resume_or_new)

    def _resume_or_new(self, btn):
        if btn == B_MENU:  # a new game: its setup, over the title (where setup's Menu goes)
            self.home()
            self.go("setup")
        else:
            self.resume()

    def _restore(self, data):
        return Game.restore(data, self._Roller(1))

    def save(self, kind, payload):
        if self.store is None:
            return True
        try:
            ok = self.store.save(kind, payload)
            err = self.store.last_error
        except Exception as e:
            ok, err = False, "not saved: " + str(e)
        if not ok:
            self.save_msg = err or "not saved"
            self.log('{"ev":"save_error","kind":"' + kind + '","msg":' + gamelog.q(self.save_msg)
                     + "}")
        elif kind == "game":
            self.save_msg = ""
        return ok

    def save_game(self):
        if self.game is not None and not self.demo and self.store is not None:
            self.save("game", self.game.snapshot())

    def save_game_soon(self):
        """Save the game once the move's frame is on the panel: a save is tens of ms of
        flash work, and the player should see the move first."""
        self._save_due = True

    def after_move(self, whole=False):
        """What a move left for after its frame, in loop passes of their own (a frame and
        a save in one pass took 55-67 ms on the emulated Pico, over the 50 ms a pass may
        take): its log line (5 ms to build on a Pico) and a collection, then the game's
        save, which then never sets off a collection halfway (that pass took 84 ms).
        `whole`: all of it now, before an event, so the order holds. True if it ran."""
        if not self._log_due and not self._save_due:
            return False
        self._log_score()
        if self._save_due:
            if not whole and not self._swept:
                self._swept = True
                gc.collect()
                return True
            self._swept = False
            self._save_due = False
            shown = self.save_msg
            self.save_game()
            if self.save_msg != shown:  # "not saved", or its end, shows next pass
                self.dirty = True
        return True

    def _log_score(self):
        if self._log_due:
            self._log_due = False
            self.log(gamelog.score_line(self.game, self.last_seat, self.last_box,
                                        self.last_pts, self._log_dice, self._log_bonus))

    def log(self, line):
        if self.console is not None:
            try:
                self.console(line)
            except Exception:
                pass

    # ---------------------------------------------------------------- the play flow
    def _adopt(self, game, level):
        self.game = game
        self.coach.start(game, level)
        self.play = self.find("play")
        self.play.reset()
        self.note = ""
        self.last_scorer = -1
        self._log_dice = bytearray(len(game.dice))

    def resume(self):
        g = self.game
        self.demo = False
        self.coach.level = self.settings.coach
        if g.rolls_used == 0 and g.nseats > 1:
            self.last_box = -1
            self.coach_line = ""
            self.show("handover")
        else:
            self.show("play")

    def _new_seed(self):
        r = self.boot_roller
        return (r.rand15() << 15) | r.rand15()

    def start_game(self):
        """Setup's Start: the game begins when setup's key handler has returned, so its
        module is out of the heap before the play screen and the game come in."""
        self._start = True

    def _start_game(self):
        self._start = False
        self.show("title")  # leaves setup: its module goes
        s = self.settings
        self.save("settings", s.pack())
        seed = self._new_seed()
        n = s.nplayers
        g = Game(s.rid, s.names[:n], s.kinds[:n], s.options_copy(), self._Roller(seed), seed)
        self.demo = False
        self._begin(g, s.coach)

    def start_demo(self):
        seed = self._new_seed()
        g = Game(YAHTZEE, ["Easy", "Normal", "Expert"], bytearray((1, 2, 3)), Options(),
                 self._Roller(seed), seed)
        self.demo = True
        self._begin(g, 0)

    def _begin(self, g, level):
        self._adopt(g, level)
        self.save_msg = ""
        self.last_box = -1
        self.coach_line = ""
        self.log(gamelog.start_line(g))
        self.save_game_soon()
        self.show("handover" if g.nseats > 1 else "play")

    def score(self, box):
        """The current seat scores box (from the card, or a CPU's step)."""
        g = self.game
        seat = g.current
        bonus = g.pending_yahtzee_bonus()
        tip = self.coach.tip(g, box)
        copy_into(self._log_dice, g.dice)  # as scored: the game moves on to the next turn's
        try:
            pts = g.score(box)
        except RuleError as e:
            self.show_note(str(e)[:21])
            return
        self.last_scorer = self.last_seat = seat
        self.last_box = box
        self.last_pts = pts
        self.coach_line = tip
        self._log_bonus = bonus
        self._log_due = True
        if bonus or (pts and box == g.rs.yahtzee_box):
            self.sound(FANFARE)
        else:
            self.sound(SCORE if pts else SCRATCH)
        self.save_game_soon()
        self.note = ""
        self.play.scored()
        if g.over:
            self._game_over()
        elif g.nseats > 1:
            self.show("handover")
        else:
            self.show("play")
            if tip:  # the player's eyes are on the dice: the tip stays there until a key
                self.keep_note(tip)
            else:
                self.show_note(g.rs.boxes[box][NAME], pts)

    def _game_over(self):
        g = self.game
        self.new_best = False
        self._save_due = False  # a finished game is not kept: its save is deleted below
        if not self.demo:
            self.new_best = self.records.add(g)
            self.save("records", self.records.pack())
            if self.store is not None:
                try:
                    self.store.delete("game")
                except Exception:
                    pass
        self._log_score()
        self.log(gamelog.end_line(g))
        self.sound(GAME_OVER)
        self.show("over")

    # ---------------------------------------------------------------- events and time
    def event(self, ev, now):
        """One debounced event (kind << 4 | button) at time now."""
        self.after_move(True)
        self.now = now
        kind = ev >> 4
        btn = ev & 15
        bit = 1 << btn
        if kind == RELEASE:
            self.swallow &= ~bit
            return
        if self.swallow & bit:
            return  # LONG/REPEAT of the press that woke the screen
        if self.power != AWAKE:
            if kind == PRESS:  # wakes the display, and does nothing else
                self._display("wake", -1)
                self._display("contrast", _CONTRAST_ON)
                self.power = AWAKE
                self.last_input = now
                self.dirty = True
                self.swallow |= bit
            return
        self.last_input = now
        if self.note_key and kind == PRESS:  # a tip read: this key acts as usual too
            self.note_key = False
            self.note = ""
            self.dirty = True
        self.screen.event(btn, kind)
        if self._start:
            self._start_game()

    def tick(self, now):
        """Advance timers: notes, the screen's own (animation, CPU pacing), dimming."""
        self.now = now
        if self.player is not None:
            self.player.tick(now)
        if self.note and not self.note_key and ticks_diff(now, self.note_at) >= _NOTE_MS:
            self.note = ""
            self.dirty = True
        self.screen.tick(now)
        nxt = self._next
        if nxt is not None and not self.dirty:
            # A quiet pass (this screen's frame is up, no key came): the module of the
            # screen it likely opens next loads now, not in that press's pass (the import
            # made opening the scores a 58 ms pass on the emulated Pico). It leaves the
            # heap with the next show() that cannot reach it, as if it had been opened.
            self._next = None  # tried once per opening
            try:
                self.find(nxt)
            except Exception:  # out of heap, a damaged file: the press that opens it
                pass  # tries again, and reports what went wrong then
        idle = ticks_diff(now, self.last_input)
        if self.power == AWAKE and idle >= _DIM_MS:
            self.power = DIM
            self._display("contrast", CONTRAST_DIM)
        elif self.power == DIM and idle >= _BLANK_MS:
            self.power = BLANK
            self._display("sleep", -1)

    def _display(self, what, arg):
        """Display power calls; a display that stops answering must not stop the game."""
        f = getattr(self.disp, what, None)
        if f is None:
            return
        try:
            ok = f(arg) if arg >= 0 else f()
        except OSError:
            ok = False
        if ok is False:  # the driver re-applies it with its re-init: see render()
            self.unsent = True
            self.unsent_at = self.now

    # ---------------------------------------------------------------- drawing
    def fault(self, e):
        """Last line of defence: log, show a note, go back to a safe screen, keep the game."""
        self.log('{"ev":"fault","msg":' + gamelog.q(repr(e)[:60]) + "}")
        if self.console is not None:
            gamelog.trace(e)
        self.message("Oops", [repr(e)[:21], "the game is kept"], self.keys("OK: title"))

    def render(self):
        """Redraw the whole frame if anything changed; the driver sends only what changed.

        If the panel refused the last frame or command (a bus error: the driver then
        re-inits it and sends the whole frame on its next flush), try again every
        _RETRY_MS, so the display recovers by itself when the bus comes back."""
        retry = self.unsent and ticks_diff(self.now, self.unsent_at) >= _RETRY_MS
        if self.power == BLANK:
            if retry:
                self._flush()  # the re-init leaves the panel asleep
            return False
        if not self.dirty and not retry:
            return False
        self.dirty = False
        locked(_draw, self.screen, self.cv, None)
        self.frames += 1
        self._flush()
        return True

    def _flush(self):
        try:
            ok = self.disp.flush()
        except OSError:
            ok = False
        self.unsent = ok is False
        self.unsent_at = self.now


def _draw(screen, cv, _):
    """screen.draw(cv), for fast.locked: a frame is clear and repaint, so a screen that
    does allocate is simply drawn again unlocked, and nothing is lost."""
    screen.draw(cv)


def _no_entropy(n):
    raise OSError("no entropy source")


class Runner:
    """The main loop: sample buttons, feed the debouncer, hand events to the app, draw.

    `board` supplies ticks_ms(), poll(debouncer, now) (loop sampling, or draining the
    samples a Timer took), idle() (sleep until the next sample), running(), display,
    present, store, urandom, console and boot_buttons."""

    def __init__(self, board, app=None):
        from picoyacht.debounce import Debouncer

        self.board = board
        self.deb = Debouncer(NBUTTONS, repeat_mask=(1 << B_UP) | (1 << B_DOWN))
        now = board.ticks_ms()
        self.app = app or App(board.display, board.present, board.store, board.urandom,
                              board.console, now, board.boot_buttons,
                              getattr(board, "tone", None))

    def step(self):
        b = self.board
        app = self.app
        deb = self.deb
        now = b.ticks_ms()
        b.poll(deb, now)
        if not deb.pending():  # the last pass's move: its save, in a pass of its own
            try:
                moved = app.after_move()  # (a press waiting gets it first: see event())
            except Exception as e:
                app.fault(e)
                moved = True
            if moved:
                b.idle()
                return
        ev = deb.get()
        while ev >= 0:
            try:
                app.event(ev, now)
            except Exception as e:  # a bug must not lose the game: note it, carry on
                app.fault(e)
            ev = deb.get()
        try:
            app.tick(now)
            if app.screen.NAME == "diag":
                self._diag(now)
            app.render()
        except Exception as e:
            app.fault(e)
        b.idle()

    def _diag(self, now):
        """Feed the diagnostics screen: live buttons, I2C devices, heap, versions, battery."""
        app = self.app
        seed = app.game.seed if app.game is not None else app.boot_roller.seed
        buttons = None if hasattr(self.board, "read") else self.deb.pressed
        app.screen.update(self.board, now, seed, buttons)

    def run(self):
        while self.board.running():
            self.step()
