"""The handheld's session: the saves, the display's power, the screens and the loop.

Functional core, imperative shell: App never reads a pin, a clock or a file by itself.
It gets the display, the set of buttons the build has, a Store, an entropy source and a
console writer as arguments, and `now_ms` with every call, so the same code runs on the
Pico, in the terminal simulator and under scripted tests. `Runner` is the only loop.

The game and its flow are the Turn's (picoyacht.turn): screens call it and draw, and App shows
the screen its answers name. Each screen is an object that owns its cursor, rows and pages
(screens.Screen). App opens one by name: go() over the current one (back() returns to it),
show() in place of all of them, home() for the title. A screen's module is imported the first
time it is opened, so setup, records and diagnostics cost no heap in a game resumed at boot.

    Runner -> App.event/tick/render -> screen.key/tick/draw -> Turn -> Game
                  App.show(name) <------------ the next screen's name
"""

import gc

from micropython import const

from picoyacht import power
from picoyacht.buttons import B_DOWN, B_MENU, B_UP, FULL_BUTTONS, NBUTTONS
from picoyacht.cues import NOTE_KEY, NOTE_TIMED
from picoyacht.debounce import PRESS, RELEASE
from picoyacht.heap import DUE, IDLE, LITTER, collect_often, forget, locked
from picoyacht.saves import Records, SaveState, Settings, load, resumable
from picoyacht.screens import Canvas, Note, game_summary
from picoyacht.ticks import ticks_diff
from picoyacht.turn import (
    DEMO_SEATS,
    END_LOADING,
    END_SHOWING,
    PLAYING,
    START_DROPPING,
    START_LOADING,
    START_SAVING,
    Turn,
)

# Display power.
AWAKE = const(0)
DIM = const(1)
BLANK = const(2)
_CONTRAST_ON = const(0xCF)
CONTRAST_DIM = const(0x08)
_DIM_MS = const(30000)
_BLANK_MS = const(120000)

# Screen name -> the module that defines it, imported on first use; the module's SCREENS
# tuple holds its screen classes, each with its NAME.
SCREENS = {
    "title": "menus", "menu": "menus", "message": "menus", "setup": "newgame",
    "name": "newgame", "play": "play", "card": "card", "handover": "handover", "scores": "scores",
    "over": "results", "ratings": "results", "records": "records", "diag": "diag",
    "rolloff": "rolloff", "bank": "rolloff", "box_help": "box_help",
}
_KEPT = "menus"  # title, menu and message: the one screen module never dropped
_PLAYING = ("play", "card", "handover")  # a game's own screen modules: kept while it lasts


class App:
    """The session around one Turn, and navigation between screens."""

    def __init__(self, display, present=FULL_BUTTONS, store=None, urandom=None,
                 console=None, now_ms=0, boot_buttons=0, tone=None, notes=None):
        self.panel = power.Panel(display, now_ms)
        self.cv = Canvas(display, display.buffer)
        self.full = (present & 0x7F) == 0x7F  # six hold buttons and Roll
        self.player = None  # a sound.Player on tone(freq_hz, duty_u16), if a piezo is fitted
        self.store = store
        self.console = console
        self.now = now_ms
        self.boot_ms = now_ms
        self.settings = Settings()
        self.records = Records()
        self.status = Note()  # the note over the play or card screen: note()
        self.save_msg = ""  # why the last save failed, or ""
        self.save_state = self.cv.saves = SaveState()  # what failed, until a save of it works
        self.turn = Turn(self, urandom, now_ms)
        self.screen = None
        self._stack = []  # screens back() returns to
        self._next = None  # a screen to load ahead in a quiet pass: Screen.NEXT
        self._screens = {}  # name -> screen object, once opened
        self._extra = False  # a module beyond menus and play is loaded: see show()
        self.dirty = True
        self.power = AWAKE
        self.off = False  # "Power off" was picked: the loop puts the board to sleep
        self.last_input = now_ms
        self.swallow = 0
        self.frames = 0
        for name in SCREENS:  # the screens always at hand, made now: opening one allocates
            if SCREENS[name] == _KEPT:  # nothing (their module is never dropped)
                self.find(name)
        _boot(self, boot_buttons, tone, notes)

    # ---------------------------------------------------------------- session services
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
        return text if self.full else text.replace("OK", "A").replace("Menu", "B")

    def note(self, text, num=-1, stay=NOTE_TIMED):
        """The one way to show (or, with "", clear) the note over the play or card screen:
        `num` >= 0 is drawn after the text (no string made); stay: cues.NOTE_*."""
        st = self.status
        st.text = text
        st.num = num
        st.stay = stay
        st.at = self.now
        self.dirty = True

    def redraw(self):  # the frame changed: draw it on this pass
        self.dirty = True

    def stay_awake(self, now):
        """A CPU's move counts as input: the display stays lit while the CPU plays."""
        self.last_input = now
        self.dirty = True

    def _report(self, head, msg, e=None):
        """An error's line on the console, msg quoted, and a fault's traceback. gamelog,
        which quotes them, loads with the first report, not with the boot; a report that
        fails (out of heap) is dropped, for the game goes on without it."""
        if self.console is None:
            return
        try:
            from picoyacht import gamelog

            self.log(head + gamelog.q(msg) + "}")
            if e is not None:
                gamelog.trace(e)
        except Exception:
            pass

    def log(self, line):
        if self.console is not None:
            try:
                self.console(line)
            except Exception:
                pass

    # ---------------------------------------------------------------- navigation
    def find(self, name):
        """The screen called name, created (and its module imported) on first use."""
        s = self._screens.get(name)
        if s is None:
            mod = SCREENS[name]
            classes = getattr(__import__("picoyacht." + mod), mod).SCREENS
            for cls in classes:
                if cls.NAME == name:
                    s = cls(self)
            self._screens[name] = s
            self._extra = self._extra or (mod != _KEPT and mod not in _PLAYING)
        return s

    def go(self, name):
        """Open a screen over the current one; back() returns to it as it was."""
        self._stack.append(self.screen)
        return self._open(name)

    def show(self, name):
        """Open a screen in place of every open one. Screen modules it cannot reach without
        another show() leave the heap, so the peak is the largest phase, not all of them:
        setup is gone during play, the results during setup, the game's once it is over."""
        stack = self._stack
        while stack:  # pops: a slice's delete would allocate
            stack.pop()
        s = self._open(name)
        g = self.turn.game
        if self._extra or (("play" in self._screens or "handover" in self._screens)
                           and (g is None or g.over)):
            self._drop_unused(SCREENS[name])
        return s

    def _drop_unused(self, shown):
        g = self.turn.game
        playing = g is not None and not g.over
        screens = self._screens
        for name in SCREENS:  # (no list of names, no string made: this allocates nothing)
            mod = SCREENS[name]
            if (name in screens and mod != _KEPT and mod != shown
                    and not (playing and mod in _PLAYING)):
                del screens[name]
                forget(mod)  # (with the first of the module's screens)
        self._extra = shown != _KEPT and shown not in _PLAYING
        if self.turn.saving == IDLE:  # else a sweep (after_move) collects in the next pass
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

    def message(self, title, lines, hint, then=None, answers=None):
        """A note screen; OK calls then(button), or goes to the title (menus.Message)."""
        self.find("message").set(title, lines, hint, then, answers)
        self.show("message")

    def ask(self, title, lines, act, then):
        """A question whose yes (`act`) loses something: Keep is chosen (menus.Message)."""
        self.message(title, lines, self.keys("Down, OK: " + act), then, ("Keep", act))

    # ---------------------------------------------------------------- boot and saves
    def offer_resume(self, btn=0):
        self.message("Saved game", game_summary(self.turn.game), self.keys("OK resume  Menu: new"),
                     self._resume_or_new)

    def _resume_or_new(self, btn):
        if btn == B_MENU:  # a new game: the title's, which asks before replacing this one
            return self.home().new_game()
        self.turn.start_soon(self.turn.resume)  # its screen comes in over the next passes

    def new_game(self):
        """A new game from the settings, whole (setup's Start takes passes: _start): setup's
        module leaves the heap (for the title) before the game's modules come in."""
        self.show("title")
        self.show(self.turn.start())

    def save(self, kind, payload):
        """Save a payload; a failure is logged and kept in save_msg for the screens."""
        return self.write(kind, payload) and self.commit(kind)

    def write(self, kind, payload):
        """A save's first half (Store.write): reported only if it fails; commit() ends it."""
        return _stored(self, kind, payload)

    def commit(self, kind):
        """A save's second half (Store.commit), reported."""
        return _stored(self, kind, None)

    def delete(self, kind):
        """Remove every copy of a kind; True if none is left (a failed save of it is moot)."""
        try:
            if self.store is not None and not self.store.delete(kind):
                return False
        except Exception:
            return False
        self.save_msg = self.save_state.saved(kind, True)
        self.dirty = True
        return True

    # ---------------------------------------------------------------- events and time
    def event(self, ev, now):
        """One debounced event (kind << 4 | button) at time now. A save still due is finished
        first, whole (a release's too: the next press has none to do); a game's end goes on."""
        if not (self.turn.ending or self.turn.starting):
            self.turn.after_move(True)
        self.now = now
        kind = ev >> 4
        btn = ev & 15
        bit = 1 << btn
        if kind == RELEASE:
            if self.swallow & bit:
                self.swallow &= ~bit
            elif self.power == AWAKE:
                self.screen.release(btn)
            return
        if self.swallow & bit:
            return  # LONG/REPEAT of the press that woke the screen
        if self.power != AWAKE:
            if kind == PRESS:  # wakes the display, and does nothing else
                self.panel.command("wake", -1, now)
                self.panel.command("contrast", _CONTRAST_ON, now)
                self.power = AWAKE
                self.last_input = now
                self.dirty = True
                self.swallow |= bit
            return
        self.last_input = now
        if self.turn.ending or self.turn.starting:  # a game ends or starts: the key is spent
            self.swallow |= bit
            return
        if self.status.stay == NOTE_KEY and kind == PRESS:  # a tip read: the key acts too
            self.note("")
        self.screen.event(btn, kind)

    def tick(self, now):
        """Advance timers: notes, the screen's own (animation, CPU pacing), dimming."""
        self.now = now
        if self.player is not None:
            self.player.tick(now)
        if self.status.expire(now):
            self.dirty = True
        self.screen.tick(now)
        t = self.turn
        if t.saving == IDLE and (t.ending >= END_LOADING or t.starting):
            _results(self, now) if t.ending else _start(self, now)
        nxt = self._next
        if nxt is not None and not self.dirty:
            # A quiet pass (this screen's frame is up, no key came): the module of the
            # screen it likely opens next loads now, not in the pass of the press that
            # opens it. It leaves the heap with the next show() that cannot reach it.
            self._next = None  # tried once per opening
            try:
                self.find(nxt)
            except Exception:  # out of heap, a damaged file: the press that opens it
                pass  # tries again, and reports what went wrong then
        idle = ticks_diff(now, self.last_input)
        if self.power == AWAKE and idle >= _DIM_MS:
            self.power = DIM
            self.panel.command("contrast", CONTRAST_DIM, now)
        elif self.power == DIM and idle >= _BLANK_MS:
            self.power = BLANK
            self.panel.command("sleep", -1, now)

    def power_off(self):
        """Menu's "Power off": the loop saves, blanks the display and sleeps the board."""
        self.off = True

    def sleep(self, board_sleep, now_fn):
        """Power off or idle: the move's save first, then the display off and the board
        asleep. The press that wakes it comes next, on a blank panel: it only wakes it."""
        self.turn.after_move(True)
        self.power = BLANK
        self.panel.command("sleep", -1, self.now)
        board_sleep()
        self.off = False
        self.last_input = now_fn()

    # ---------------------------------------------------------------- drawing
    def fault(self, e):
        """Last line of defence: log, show a note, go back to a safe screen, keep the game."""
        self._report('{"ev":"fault","msg":', repr(e)[:60], e)
        self.message("Oops", [repr(e)[:21], "the game is kept"], self.keys("OK: title"))

    def render(self):
        """Redraw the whole frame if anything changed (the driver sends only what changed),
        or send it again if the panel refused it (see power.Panel)."""
        retry = self.panel.retry_due(self.now)
        if self.power == BLANK:
            if retry:
                self.panel.flush(self.now)  # the re-init leaves the panel asleep
            return False
        if not self.dirty and not retry:
            return False
        self.dirty = False
        locked(_draw, self.screen, self.cv, None)
        self.frames += 1
        self.panel.flush(self.now)
        return True


def _boot(app, boot_buttons, tone, board_notes):
    """The session as the flash left it: settings, records, and a game to offer again.
    board_notes: what the board refused at boot (config.py's settings), all of them on
    the console already; the first is shown, and how many more there are."""
    notes = []
    s = load(app.store, "settings", Settings.unpack, notes)
    if s is not None:
        app.settings = s
    if tone is not None:
        from picoyacht.sound import Player  # only with a piezo: see picoyacht.cues

        app.player = Player(tone, app.settings.volume)
    r = load(app.store, "records", Records.unpack, notes)
    if r is not None:
        app.records = r
    # a saved game that is finished is refused, so its backup wins
    g = load(app.store, "game", lambda data: resumable(app.turn.restore(data)), notes)
    if g is not None and app.records.counted(g):  # its delete failed at game over
        app.delete("game")
        g = None
    offer = g is not None
    if offer:
        app.turn.adopt(g, app.settings.coach)
    app.home()
    title = "Fresh start" if notes and g is None else "Note"
    if board_notes:
        more = len(board_notes) - 1
        notes = board_notes[:1] + (["+%d more on the console" % more] if more else []) + notes
    if notes:
        app.message(title, notes, app.keys("OK: continue"), app.offer_resume if offer else None)
    elif offer:
        app.offer_resume()
    if boot_buttons & (1 << B_MENU):
        try:
            app.show("diag")
        except MemoryError as e:  # a builder's screen must never stop the game booting
            app.fault(e)


def _results(app, now):
    """The game's end is on flash (Turn.ending): the results' module comes in in a quiet pass
    (no frame, no key), their frame in the next, and the next sweep collects (LITTER)."""
    t = app.turn
    if t.ending == END_SHOWING:
        t.ending, t.saving = PLAYING, LITTER
        app.show("over")
    elif (not app.dirty or app.power == BLANK) and now != app.last_input:  # (BLANK: no frame)
        t.ending = END_SHOWING
        try:
            app.find("over")
        except Exception:  # out of heap, a damaged file: show() says so, next pass
            pass


# What a game brings in at its start, one a pass (the hand-over's with two seats or more).
_GAME_MODULES = ("snapshot", "gamelog", "labels", "coach", "play", "card", "handover")


def _start(app, now):
    """A game's start after its key (Turn.starting): a step a pass with no key in it (the
    key's own pass draws its answer). The key's screen leaves the heap (the title is current
    but not drawn: that screen's frame stays up); once setup's settings are on flash, the
    game's modules come in one a pass, with the collector's own runs off (as in a game: else
    one falls inside an import's pass), their garbage swept after the last; then the game
    and its frame."""
    if now == app.last_input:
        return
    t = app.turn
    step = t.starting
    if step == START_DROPPING:
        app.show("title")
        app.dirty, app._next = False, None  # (the title's next: setup, which has just left)
        if t.begins is None:  # setup's Start: the settings' save first, Turn.after_move
            t.starting, t.saving = START_SAVING, DUE
        else:  # a collection, then the modules
            t.starting, t.saving = START_LOADING, LITTER
        return
    i = step - START_LOADING
    last = len(_GAME_MODULES) - (_start_seats(app) < 2) - 1
    if i <= last:
        if i == 0:
            collect_often(False)  # the collector runs in no import's pass: swept after the last
        try:
            __import__("picoyacht." + _GAME_MODULES[i])
        except Exception:  # out of heap, a damaged file: the game's start says so
            pass
        t.starting = step + 1
        if i == last:
            t.saving = LITTER
    else:
        t.starting = 0  # first: a start that raises is not tried again
        collect_often(True)  # as between games, if it raises (the game's coach turns it off)
        app.show(t.start(True) if t.begins is None else t.begins())


def _start_seats(app):
    """The seats of the game a start begins: the hand-over's module comes in for two or more."""
    t = app.turn
    if t.begins is None:
        return app.settings.nplayers
    if t.game is None or t.begins == t.start_demo:
        return DEMO_SEATS
    return t.game.nseats


def _stored(app, kind, payload):
    """App.write (payload) or App.commit (payload None): the store's answer, a failure
    logged and kept in save_msg for the screens."""
    if app.store is None:
        return True
    shown = app.save_msg
    ok, err = _store_save(app, kind, payload)
    if ok and payload is not None:
        return True
    app.save_msg = app.save_state.saved(kind, ok, err)
    if not ok:
        app._report('{"ev":"save_error","kind":"' + kind + '","msg":', app.save_msg)
    if app.save_msg != shown:  # "not saved", or its end, shows on the next frame
        app.dirty = True
    return ok


def _store_save(app, kind, payload):
    """(ok, error) of one save's write (payload), or of its commit (payload None). Out of
    heap (a file's buffer needs a run the CPU search's arrays may have split), the search
    lends it one of them and it is tried again; then it lets go of them all and it has a
    last try: a search is remade at the next decision, a lost save is not."""
    store = app.store
    for attempt in range(3):
        try:
            ok = store.write(kind, payload) if payload is not None else store.commit(kind)
            return ok, store.last_error
        except MemoryError as e:
            coach = app.turn.coach
            if attempt == 2 or coach is None:
                return False, "not saved: " + str(e)
            coach.release(lend=not attempt)
        except Exception as e:
            return False, "not saved: " + str(e)


def _draw(screen, cv, _):
    """screen.draw(cv), for heap.locked: a frame is clear and repaint, so a screen that
    does allocate is simply drawn again unlocked, and nothing is lost."""
    screen.draw(cv)


class Runner:
    """The main loop: sample buttons, feed the debouncer, hand events to the app, draw.
    `board` is a picoyacht.board.Board."""

    def __init__(self, board, app=None):
        from picoyacht.debounce import Debouncer

        collect_often(True)
        self.board = board
        self.deb = Debouncer(NBUTTONS, repeat_mask=(1 << B_UP) | (1 << B_DOWN))
        now = board.ticks_ms()
        self.app = app or App(board.display, board.present, board.store, board.urandom,
                              board.console, now, board.boot_buttons, board.tone, board.notes)
        self.power = power.Power(board)
        board.attach(self.app)

    def step(self):
        b = self.board
        app = self.app
        deb = self.deb
        now = b.ticks_ms()
        b.poll(deb, now)
        if not deb.pending():  # the last pass's move: its save, in a pass of its own
            try:
                moved = app.turn.after_move()  # (a press waiting gets it first: see event())
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
            quiet = app.turn.saving == IDLE
            app.tick(now)
            if app.screen.NAME == "diag":
                self._diag(now)
            # A move the loop made by itself (a CPU's) is drawn after its save: its pass
            # already holds the search and the scoring, and with the next screen's whole
            # frame as well it outran a pass. A player's move is drawn in its own pass.
            if not (quiet and app.turn.saving == DUE):
                app.render()
            self.power.step(app, app.power != AWAKE, now)
        except Exception as e:
            app.fault(e)
        b.idle()

    def _diag(self, now):
        """Feed the diagnostics screen: live buttons, I2C devices, heap, versions, battery."""
        app = self.app
        t = app.turn  # the game's seed, or the boot roller's before a game
        seed = t.game.seed if t.game is not None else t.roller.seed
        app.screen.update(self.board, now, seed, self.deb.pressed)

    def run(self):
        while self.board.running():
            self.step()
