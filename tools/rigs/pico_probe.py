"""Runs ON the emulated Pico (tools/emu/emulator.py uploads it as .mpy beside the `make flash`
layout).

The real board (picoyacht.board_pico.PicoBoard: pins, Timer sampling, I2C display, flash
store) and the real Runner, with two additions made between loop passes:
  * a scripted player that looks at the app and asks the host to press a button: it puts
    the button's GPIO + 1 on GP17..21 and toggles GP22; the host presses that pin for 40 ms
    of emulated time (tools/emu/emulator.mjs), or, with GP2 high, until GP2 falls (a held
    press, for a long press's action). The press then travels the whole real path: pin,
    Timer IRQ, ring, debouncer, app, screen, SSD1306 driver, I2C;
  * per-pass measurements taken from the start of poll() to the start of idle() (the pass
    the Runner makes: events, tick, draw, flush, and a save after the frame), with the
    collector off on human turns so gc.mem_alloc() deltas are exact: one record per pass
    that saw a press, drew a frame or ran while a CPU seat plays; idle passes are summed per
    screen. A pass that drew is timed to the end of its frame's flush (the budget's "press
    seen to frame on the panel"); a CPU pass is timed whole, and so is the longest press
    pass (summary max_press_pass_us).
Records go out as lines ("R ..."), a summary at the end ("S ..."): tools/emu/emulator.py
parses them.
main(opts): players, rules, cpus (CPU seats, at the end), level (CPU level 1-3), coach
(0 off, 1 hints, 2 tips), tour (menu, scores pages and cursor moves at turn 2; the box
help opened and closed twice at the first scorecard), record,
shots (toggle GP27 after each action's frame), arm (a screen name: raise GP26 there and
wait for the host's Ctrl-C), turns (stop after this many turns), seed (the boot's entropy:
the games' dice; default 1), demo (start the title's Demo instead of a new game), then
(a second start: 1, game over's Play again; 2, at `turns`, Quit to title and the title's
Resume; the run ends at that game's first frame).
"""

import gc
import time
from array import array

import config
from machine import Pin

from picoyacht import app as A
from picoyacht import board_pico
from picoyacht import buttons as K
from picoyacht.debounce import LONG, PRESS, REPEAT, Debouncer
from picoyacht.game import HUMAN
from picoyacht.heap import DUE, IDLE, forget
from picoyacht.menus import T_DEMO, T_NEW, T_RESUME, Menu
from picoyacht.policy import best_box, most_common_mask

DATA = (17, 18, 19, 20, 21)
REQ = 22
HELD = 2  # high with REQ's toggle: the host keeps the button down until it falls
ARM = 26
SHOT = 27
HOLD_MS = 40
LONG_HOLD_MS = Debouncer.LONG_MS + 200  # a held press, well past the long press
HELPS = 2  # box help openings at the first scorecard: a first and a repeat
LONG_PRESS = 0x100  # or'd into a button: hold it for LONG_HOLD_MS
GAP_MS = 60
NREC = 128
IDLE_EVERY = 40  # measure the allocation of one idle pass in this many
NA = -0x7FFFFFF  # allocation not measured on this pass
GC_ROOM = 48000  # collect between passes (collector off on human turns) below this

# Record kinds: what the pass did. help: the held Menu on the scorecard, its press and the
# long press that opens the box help; help_back: OK there, back to the card; end: a pass of
# the game's end, after its last box, up to the results' first frame (drawn or not; a
# press's pass keeps its press's kind); start: setup's Start, its key's pass first, then
# every pass up to the game's first frame (drawn or not).
K_NAV, K_HOLD, K_CURSOR, K_ROLL, K_SCORE, K_MENU, K_PAGE, K_CARD, K_ANIM, K_CPU, K_DRAW, \
    K_SAVE, K_HELP, K_HELP_BACK, K_END, K_START = range(16)
KIND_NAMES = ("nav", "hold", "cursor", "roll", "score", "menu", "page", "card_cursor", "anim",
              "cpu", "draw", "save", "help", "help_back", "end", "start")
WAIT = -1
DONE = -2
THEN_AGAIN = 1  # the `then` option: game over's Play again
THEN_RESUME = 2  # the `then` option: Quit to title at `turns`, then the title's Resume
AGAIN = Menu.LABELS.index("Play again")
QUIT = Menu.LABELS.index("Quit to title")
# Screens by index (the records keep a byte); an unknown screen is "other".
SCREENS = ("other", "title", "setup", "name", "play", "card", "handover", "menu", "scores",
           "over", "ratings", "message", "records", "diag", "box_help")
OVER = SCREENS.index("over")


def screen_index(app):
    name = app.screen.NAME
    for i in range(1, len(SCREENS)):
        if SCREENS[i] == name:
            return i
    return 0


def cpu_plays(app):
    """A CPU seat is to play: the game runs itself."""
    g = app.turn.game
    return g is not None and not g.over and g.kinds[g.current] != HUMAN


def animating(app):
    return getattr(app.screen, "anim", 0) > 0


class Player:
    """Decides the next press from what the screen shows: the firmware's fallback policy
    (picoyacht.policy), as tools/rigs/ui_play.py plays."""

    def __init__(self, opts):
        self.rid = opts.get("rules", 0)
        self.np = opts.get("players", 1)
        self.cpus = opts.get("cpus", 0)
        self.level = opts.get("level", 2)
        self.tour = opts.get("tour", 0)
        self.turns = opts.get("turns", 0)
        self.coach = opts.get("coach", 0)
        self.sharp = bool(opts.get("sharp", 0))  # Sharp Dice (Yahtzee, Yatzy)
        self.demo = opts.get("demo", 0)  # the title's Demo in place of a new game
        self.then = opts.get("then", 0)  # a second start: THEN_AGAIN or THEN_RESUME
        self.leaving = False  # on the way to the menu item that leaves the game
        self.restarted = False  # the second start's key is pressed
        self.toured = False
        self.tour_step = 0
        self.helps = 0  # box help openings asked for
        self.started = False

    def pick(self, app, code, ok_kind=K_NAV):
        """Down to the list's item `code`, then OK, whose kind is ok_kind (K_START: the key
        that starts a game)."""
        sc = app.screen
        if sc.items[sc.sel] == code:
            return K.B_OK, ok_kind
        return K.B_DOWN, K_NAV

    def setup(self, app):
        """The setup row to change next; Start when it is all as asked (and whether so)."""
        from picoyacht import newgame  # not held: the app drops it when the game starts

        s = app.settings
        if s.rid != self.rid:
            return newgame.R_RULES, False
        if s.nplayers != self.np:
            return newgame.R_PLAYERS, False
        if s.coach != self.coach:
            return newgame.R_COACH, False
        if s.options.sharp != self.sharp:
            return newgame.R_SHARP, False
        for seat in range(self.np):
            want = self.level if seat >= self.np - self.cpus else HUMAN
            if s.kinds[seat] != want:
                return newgame.R_KIND + seat, False
        return newgame.R_START, True

    def tour_press(self, app):
        """Menu, its cursor, the scores pages, back; then play-screen cursor moves."""
        steps = ((K.B_MENU, K_MENU), (K.B_DOWN, K_MENU), (K.B_UP, K_MENU), (K.B_DOWN, K_MENU),
                 (K.B_OK, K_MENU), (K.B_DOWN, K_PAGE), (K.B_DOWN, K_PAGE), (K.B_UP, K_PAGE),
                 (K.B_MENU, K_MENU), (K.B_MENU, K_MENU), (K.B_DOWN, K_CURSOR),
                 (K.B_DOWN, K_CURSOR), (K.B_UP, K_CURSOR), (K.B_UP, K_CURSOR))
        if self.tour_step < len(steps):
            self.tour_step += 1
            return steps[self.tour_step - 1]
        self.toured = True
        return WAIT, 0

    def leave(self, app):
        """Menu, then its item that leaves the game: Play again (the second start's key) or
        Quit to title."""
        if app.screen.NAME != "menu":
            return K.B_MENU, K_NAV
        if self.then == THEN_RESUME:
            btn, kind = self.pick(app, QUIT)
            self.leaving = btn != K.B_OK
            return btn, kind
        btn, kind = self.pick(app, AGAIN, K_START)
        if btn == K.B_OK:
            self.leaving, self.restarted = False, True
        return btn, kind

    def next(self, app):
        sc = app.screen
        st = sc.NAME
        g = app.turn.game
        if self.restarted:  # the second start: over at its game's first frame
            return (DONE, 0) if st in ("play", "handover") and not app.turn.starting else (
                WAIT, 0)
        if self.leaving:
            return self.leave(app)
        if st == "title":
            if self.started and self.then == THEN_RESUME:
                btn, kind = self.pick(app, T_RESUME, K_START)
                self.restarted = btn == K.B_OK
                return btn, kind
            if self.started:
                return DONE, 0
            if not self.demo:
                return self.pick(app, T_NEW)
            btn, kind = self.pick(app, T_DEMO, K_START)  # measured as setup's Start is
            self.started = btn == K.B_OK
            return btn, kind
        if st == "setup":
            code, start = self.setup(app)
            if start:
                self.started = True
            return self.pick(app, code, K_START if start else K_NAV)
        if st == "box_help":
            return K.B_OK, K_HELP_BACK
        if st == "message":
            return K.B_OK, K_NAV
        if st == "over" and self.then == THEN_AGAIN:
            self.leaving = True
            return self.leave(app)
        if g is None or st == "over":
            return DONE, 0
        if g.over:  # the game's end: a player waits for the results
            return WAIT, 0
        if self.turns and g.turn >= self.turns:
            if self.then != THEN_RESUME:
                return DONE, 0
            self.leaving = True
            return self.leave(app)
        if st == "handover":
            return (K.B_OK, K_NAV) if g.kinds[g.current] == HUMAN else (WAIT, 0)
        if g.kinds[g.current] != HUMAN or animating(app):
            return WAIT, 0
        if st == "menu" or st == "scores" or (
                self.tour and not self.toured and g.turn >= 1 and g.rolls_used and st == "play"):
            return self.tour_press(app)
        if st == "play":
            if not g.rolls_used:
                return K.B_ROLL, K_ROLL
            want = most_common_mask(g.dice)
            if g.rolls_left and want != (1 << len(g.dice)) - 1:
                diff = g.held ^ want
                if diff:
                    i = 0
                    while not diff >> i & 1:
                        i += 1
                    return K.B_HOLD1 + i, K_HOLD
                return K.B_ROLL, K_ROLL
            target = len(g.dice) + 1  # the play screen's "Score" item opens the card
            if sc.cursor == target:
                return K.B_OK, K_NAV
            n = sc.items()
            fwd = (target - sc.cursor) % n
            return (K.B_DOWN if fwd <= n - fwd else K.B_UP), K_CURSOR
        if st == "card":
            if self.tour and self.helps < HELPS:
                self.helps += 1
                return K.B_MENU | LONG_PRESS, K_HELP
            box = best_box(g)
            idx = sc.rows.find(bytes((box,)))
            n = len(sc.rows)
            if sc.confirm or sc.row == idx:
                return K.B_OK, K_SCORE
            fwd = (idx - sc.row) % n
            return (K.B_DOWN if fwd <= n - fwd else K.B_UP), K_CARD
        return K.B_MENU, K_NAV


class ProbeBoard(board_pico.PicoBoard):
    def __init__(self, cfg, opts):
        self.data = [Pin(p, Pin.OUT, value=0) for p in DATA]
        self.req = Pin(REQ, Pin.OUT, value=0)
        self.held_pin = Pin(HELD, Pin.OUT, value=0)
        self.arm_pin = Pin(ARM, Pin.OUT, value=0)
        self.shot_pin = Pin(SHOT, Pin.OUT, value=0)
        self.player = Player(opts)
        self.record = opts.get("record", 1)
        self.shots = opts.get("shots", 0)
        self.arm = opts.get("arm", "")
        self.armed_at = -1
        self.req_level = self.shot_level = 0
        self.app = None
        self.done = False
        self.next_at = 0
        self.kind = K_NAV
        self.pressed = bytearray()  # logical buttons, in order (host replays them)
        self.t0 = self.a0 = self.f0 = self.b0 = self.w0 = 0
        self.press_seen = False
        self.saving = IDLE  # the turn's save split (heap.sweep) at the start of the pass
        self.watch = False  # measure allocation on this pass
        self.waiting = False  # a press was asked for and not seen yet
        self.idle_count = 0
        self.held_at = -1  # ticks_ms a held press began; -1: none down
        self.long_seen = False  # a long press reached the app in this pass
        self.help_alloc = -1  # gc.mem_alloc() collected before the box help opened
        self.help_closed = False  # the box help has just closed: what it kept is due
        self.help_kept = array("i", bytes(4 * HELPS))  # heap kept after each closing
        self.help_closes = 0
        self.ended = False  # the results' first frame is recorded: the game's end is over
        self.starting = False  # from setup's Start key to the game's first frame
        self.n = 0
        self.r_kind = bytearray(NREC)
        self.r_state = bytearray(NREC)
        self.r_us = array("i", bytes(4 * NREC))
        self.r_alloc = array("i", bytes(4 * NREC))
        self.r_bytes = array("i", bytes(4 * NREC))
        self.r_writes = array("i", bytes(4 * NREC))
        self.idle_n = array("i", bytes(4 * 16))
        self.idle_alloc = array("i", bytes(4 * 16))
        self.idle_max = array("i", bytes(4 * 16))
        self.idle_all = array("i", bytes(4 * 16))  # every idle pass, and their time: the
        self.idle_us = array("i", bytes(4 * 16))  # CPU's busy share between presses
        self.passes = 0
        self.max_cpu_us = 0
        self.max_press_pass_us = 0
        self.t_frame = 0  # ticks_us at the end of the last flush
        self.seed = opts.get("seed", 1)
        # last: the sampling Timer starts in there, and no attribute may be added after it
        super().__init__(cfg)
        flush = self.display.flush

        def timed_flush():
            ok = flush()
            self.t_frame = time.ticks_us()
            return ok

        self.display.flush = timed_flush

    def running(self):
        return not self.done

    def urandom(self, n):
        """The boot's entropy from opts "seed": every run plays the same games. With
        os.urandom (the SDK's generator mixes in the timer) any change of the code moved
        the boot's timing, so the games, and the tour's per-action figures with them."""
        s = self.seed
        return bytes((s >> (8 * (i & 3))) & 255 for i in range(n))

    def poll(self, deb, now):
        d = self.display
        # gc.mem_alloc() scans the whole heap, longer than a pass may take: only on watched
        # passes, and outside the timed span.
        self.a0 = gc.mem_alloc() if self.watch else -1
        self.b0 = d.bytes_sent
        self.w0 = d.writes
        self.f0 = self.app.frames if self.app is not None else 0
        super().poll(deb, now)
        # timed from here: "press seen" (draining the ring would also count the samples
        # taken during this probe's own heap scans, which a normal loop never has)
        self.t0 = time.ticks_us()
        seen = long = False
        q = deb._q
        for k in range(deb._count):
            kind = q[(deb._head + k) & deb._qmask] >> 4
            if kind == PRESS or kind == REPEAT or kind == LONG:
                seen = True
            if kind == LONG:
                long = True
        self.press_seen = seen
        self.long_seen = long
        self.saving = self.app.turn.saving if self.app is not None else IDLE

    def ending(self, app):
        g = app.turn.game
        return g is not None and g.over and not self.ended

    def saved(self, app):
        """This pass was one of the two after a move that saves the game (Turn.after_move:
        a collection, then the save)."""
        return self.saving >= DUE and app.turn.saving != self.saving

    def idle(self):
        t1 = time.ticks_us()
        app = self.app
        if app is not None:
            alloc = gc.mem_alloc() - self.a0 if self.a0 >= 0 else NA
            self.measure(app, time.ticks_diff(t1, self.t0), alloc)
            self.play(app)
        super().idle()

    def measure(self, app, us, alloc):
        self.passes += 1
        d = self.display
        drew = app.frames != self.f0
        cpu = cpu_plays(app)
        whole = us
        if drew and not cpu:
            us = time.ticks_diff(self.t_frame, self.t0)
        end = self.ending(app)
        if end and drew and screen_index(app) == OVER:  # the results' first frame, whatever
            self.ended = True  # the pass's kind: the end's last pass
        start = False  # a pass of the game's start after its key's
        if self.press_seen and self.kind == K_START:
            self.starting = True
        elif self.starting:
            start = True
            if drew and app.turn.game is not None and not app.turn.starting:
                self.starting = False  # the game's first frame: the start's last pass
        if self.press_seen:
            if whole > self.max_press_pass_us:
                self.max_press_pass_us = whole
            # a player reacts to the frame: the next press comes GAP_MS after it at the
            # earliest, not at once when a slow pass (a module loading) outlasted the press
            at = time.ticks_add(time.ticks_ms(), GAP_MS)
            if time.ticks_diff(at, self.next_at) > 0:
                self.next_at = at
            self.waiting = False
            kind = self.kind
            if self.held_at < 0 or self.long_seen:  # a held press's kind is its long press's too
                self.kind = K_NAV
            if kind == K_HELP_BACK:
                self.help_closed = True
        elif end:
            kind = K_END
            us = whole
        elif start:
            kind = K_START
            us = whole
        elif self.saved(app):
            kind = K_SAVE
            if cpu and whole > self.max_cpu_us:
                self.max_cpu_us = whole
        elif cpu:
            kind = K_CPU
            if whole > self.max_cpu_us:
                self.max_cpu_us = whole
            if not drew:
                return
        elif drew:
            kind = K_ANIM if animating(app) else K_DRAW
        else:
            st = screen_index(app)
            if alloc != NA:
                self.idle_n[st] += 1
                self.idle_alloc[st] += alloc
            if us > self.idle_max[st]:
                self.idle_max[st] = us
            self.idle_all[st] += 1
            self.idle_us[st] += us
            return
        if self.shots and (self.press_seen or self.passes == 1):  # 1: the boot frame
            self.shot_level ^= 1
            self.shot_pin.value(self.shot_level)
        if not self.record:
            return
        i = self.n
        self.r_kind[i] = kind
        self.r_state[i] = screen_index(app)
        self.r_us[i] = us
        self.r_alloc[i] = alloc
        self.r_bytes[i] = d.bytes_sent - self.b0
        self.r_writes[i] = d.writes - self.w0
        self.n = i + 1
        if self.n == NREC:
            self.dump()

    def dump(self):
        for i in range(self.n):
            print("R", KIND_NAMES[self.r_kind[i]], SCREENS[self.r_state[i]], self.r_us[i],
                  self.r_alloc[i],
                  self.r_bytes[i], self.r_writes[i])
        self.n = 0

    def play(self, app):
        """Between passes: the collector, the Ctrl-C arm, a held press let go, and the next
        press."""
        self.watch = False
        gc.enable()
        now = time.ticks_ms()
        if self.held_at >= 0 and time.ticks_diff(now, self.held_at) >= LONG_HOLD_MS:
            self.held_at = -1
            self.held_pin.value(0)
        if self.help_closed:
            self.help_closed = False
            self.help_kept[self.help_closes % HELPS] = collected() - self.help_alloc
            self.help_closes += 1
        if self.record and not cpu_plays(app):
            self.idle_count += 1
            if (self.idle_count >= IDLE_EVERY or self.waiting or self.held_at >= 0
                    or app.turn.saving >= DUE):
                self.idle_count = 0
                self.begin_watch()
        if self.arm and self.armed_at < 0 and self.on_arm_screen(app):
            self.armed_at = now
        if self.armed_at >= 0:
            if time.ticks_diff(now, self.armed_at) >= 300:
                self.arm_pin.value(1)  # settled on the screen: the host sends Ctrl-C
            return
        if time.ticks_diff(now, self.next_at) < 0 or self.starting:  # (the game's first
            return  # frame comes first)
        btn, kind = self.player.next(app)
        if btn == DONE:
            self.done = True
            return
        if btn == WAIT:
            self.next_at = time.ticks_add(now, 20)
            return
        held = btn & LONG_PRESS
        btn &= ~LONG_PRESS
        if kind == K_HELP:
            self.help_alloc = collected()
        gpio = self.cfg.BUTTONS.get(K.BUTTON_NAMES[btn])
        v = gpio + 1
        for k in range(5):
            self.data[k].value(v >> k & 1)
        if held:
            self.held_pin.value(1)
            self.held_at = now
        self.req_level ^= 1
        self.req.value(self.req_level)
        self.kind = kind
        self.waiting = True
        if self.record:
            self.begin_watch()
        self.pressed.append(btn)
        self.next_at = time.ticks_add(now, (LONG_HOLD_MS if held else HOLD_MS) + GAP_MS)

    def begin_watch(self):
        """Measure the next pass exactly: the collector off, with room left."""
        if gc.mem_free() < GC_ROOM:
            gc.collect()
        gc.disable()
        self.watch = True

    def on_arm_screen(self, app):
        name = self.arm
        if name == "cpu":
            return cpu_plays(app) and app.screen.NAME == "play"
        if name == "anim":
            return animating(app)
        return app.screen.NAME == name and not cpu_plays(app)


def collected():
    """The heap in use after a collection: what is held, not garbage."""
    gc.collect()
    return gc.mem_alloc()


def import_cost(name):
    """(bytes an import of the package's module `name` allocates, its time in us, bytes
    still held after heap.forget and a collection), the collector off for the import."""
    before = collected()
    gc.disable()
    t0 = time.ticks_us()
    __import__("picoyacht." + name)
    us = time.ticks_diff(time.ticks_us(), t0)
    took = gc.mem_alloc() - before
    forget(name)
    gc.enable()
    return took, us, collected() - before


def main(opts):
    gc.collect()
    free0 = gc.mem_free()
    b = ProbeBoard(config, opts)
    r = A.Runner(b)
    b.app = r.app
    print("S sampling", getattr(b, "sampling", "?"))
    try:
        r.run()
    finally:
        b.restore()
        gc.enable()
        b.dump()
        app = r.app
        for st in range(len(SCREENS)):
            if b.idle_n[st]:
                print("I", SCREENS[st], b.idle_n[st], b.idle_alloc[st], b.idle_max[st],
                      b.idle_all[st], b.idle_us[st])
        g = app.turn.game
        print("S passes", b.passes, "max_cpu_us", b.max_cpu_us, "free0", free0,
              "max_press_pass_us", b.max_press_pass_us)
        print("S presses", "".join("%x" % x for x in b.pressed))
        if b.help_closes:
            print("S help_kept", *b.help_kept[:min(b.help_closes, HELPS)])
            try:
                print("S help_import", *import_cost("box_help"))
            except MemoryError:
                print("S help_import none")
        if g is not None:
            print("S game seed", g.seed, "turn", g.turn, "over", int(g.over), "state",
                  app.screen.NAME)
        print("S end")
