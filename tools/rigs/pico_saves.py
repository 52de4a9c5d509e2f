"""Runs ON the emulated Pico (tools/stress/pico_stress.py uploads it as .mpy beside `make flash`'s
layout): the real board (picoyacht.board_pico: Timer sampling into its ring, display, flash
store) and the real Runner and App, for two proofs: no tap is lost to a save, and the heap
stays flat over many games.

presses(opts): the app saves its game every `every` ms from its main loop, as scoring does,
and raises GP28 for the length of each save. The host (tools/emu/emulator.mjs) taps buttons
timed to land during those saves and their flash erases and programs, which it stalls for
a real flash chip's time with the interrupts off, as the rp2 port runs them. Every event the
app receives is logged: the host compares it with the taps it made (none lost or doubled).
opts: saves, every (ms), sampling ("timer" or "loop": the negative control).

longplay(opts): `games` all-CPU games back to back (Easy CPUs, rule sets in turn, `seats`
seats), each CPU turn played at once as a player's "skip" key press does, and the free heap
after gc.collect() at the end of each game; leak=N keeps N bytes per game (the negative
control). Lines out: "KEY value" (tools/stress/pico_stress.py parses them).
"""

import gc
import time
from array import array

import config
from machine import Pin

from picoyacht import app as A
from picoyacht import board_pico
from picoyacht import buttons as K
from picoyacht.debounce import PRESS, RELEASE, event
from picoyacht.game import HUMAN

SAVE_PIN = 28  # high while the app saves (the host times its taps on it)
MAX_EVENTS = 1024


class SaveBoard(board_pico.PicoBoard):
    """The real board; its idle() also saves the game every `every` ms."""

    def __init__(self, cfg, opts):
        self.save_pin = Pin(SAVE_PIN, Pin.OUT, value=0)
        self.every = opts.get("every", 150)
        self.want = opts.get("saves", 40)
        self.app = None
        self.saves = 0
        self.save_ms = 0
        self.save_max_ms = 0
        self.next_at = 0
        self.tail = opts.get("tail", 800)
        self.end_at = 0
        super().__init__(cfg)  # last: the sampling Timer starts in there

    def running(self):
        """On for `tail` ms after the last save: the taps timed on it come to an end."""
        if self.saves < self.want:
            self.end_at = time.ticks_add(time.ticks_ms(), self.tail)
            return True
        return time.ticks_diff(time.ticks_ms(), self.end_at) < 0

    def idle(self):
        app = self.app
        now = time.ticks_ms()
        if (app is not None and self.saves < self.want
                and time.ticks_diff(now, self.next_at) >= 0):
            self.save_pin.value(1)
            t0 = time.ticks_ms()
            app.save("game", app.turn.game.snapshot())
            ms = time.ticks_diff(time.ticks_ms(), t0)
            self.save_pin.value(0)
            self.saves += 1
            self.save_ms += ms
            self.save_max_ms = max(self.save_max_ms, ms)
            self.next_at = time.ticks_add(time.ticks_ms(), self.every)
        super().idle()


def one_human_game(app, rid=0):
    """A game to save, started as setup's Start does."""
    s = app.settings
    s.rid = rid
    s.nplayers = 1
    s.kinds[0] = HUMAN
    app.new_game()


def presses(opts):
    if "sampling" in opts:
        config.SAMPLING = opts["sampling"]
    b = SaveBoard(config, opts)
    r = A.Runner(b)
    app = r.app
    one_human_game(app)
    b.app = app
    log = bytearray()
    when = array("i", bytes(4 * MAX_EVENTS))
    inner = app.event

    def logged(ev, now):
        if len(log) < MAX_EVENTS:
            when[len(log)] = now
            log.append(ev)
        inner(ev, now)

    app.event = logged
    print("SAMPLING", b.sampling)
    try:
        r.run()
    finally:
        b.restore()
    print("SAVES", b.saves)
    print("SAVE_MS_MEAN", b.save_ms // max(1, b.saves))
    print("SAVE_MS_MAX", b.save_max_ms)
    print("LOST_SAMPLES", b.lost)
    print("IRQ_ERRORS", b.irq_errors)
    print("END_MS", time.ticks_ms())
    print("QUEUE_DROPPED", r.deb.dropped)
    print("PRESSES", "".join("%x" % (ev & 15) for ev in log if ev >> 4 == PRESS) or "-")
    print("RELEASES", "".join("%x" % (ev & 15) for ev in log if ev >> 4 == RELEASE) or "-")
    print("EVENT_MS", " ".join("%x:%d" % (log[i], when[i]) for i in range(len(log))))
    print("SAVE_ERROR", app.save_msg or "-")
    print("END")


class QuietBoard(board_pico.PicoBoard):
    """The real board with its watchdog off (a long run at the REPL must not reset) and a
    console that counts faults instead of printing every game's log over USB."""

    def __init__(self, cfg):
        self.faults = 0  # before the Timer starts: no attribute may be added after it
        super().__init__(cfg)
        self.wdt_ms = 0

    def console(self, line):
        if '"ev":"fault"' in line or '"ev":"cpu_error"' in line:
            self.faults += 1
            if self.faults < 4:
                print(line)



def cpu_to_play(app):
    g = app.turn.game
    return g is not None and not g.over and g.kinds[g.current] != HUMAN


def longplay(opts):
    games = opts.get("games", 100)
    seats = opts.get("seats", 2)
    leak = opts.get("leak", 0)
    kept = []
    b = QuietBoard(config)
    r = A.Runner(b)
    app = r.app
    deb = r.deb
    heap = array("i", bytes(4 * games))
    n = 0
    ok = event(PRESS, K.B_OK)
    errors = 0
    turns = 0
    t0 = time.ticks_ms()
    try:
        while n < games:
            if app.turn.game is None or app.turn.game.over:
                if app.turn.game is not None:
                    gc.collect()
                    heap[n] = gc.mem_free()
                    print("G", n, heap[n], time.ticks_diff(time.ticks_ms(), t0) // 1000)
                    n += 1
                    if leak:
                        kept.append(bytearray(leak))
                    if n == games:
                        break
                s = app.settings
                s.rid = n % 6
                s.nplayers = seats
                for i in range(seats):
                    s.kinds[i] = 1  # Easy
                app.new_game()
            elif cpu_to_play(app) and not deb.pending():
                deb._push(ok)  # the skip key: hand-over goes on, play runs the turn at once
                turns += 1
            r.step()
            if app.save_msg:
                errors += 1
                app.save_msg = ""
    except MemoryError as e:
        print("MEMORY_ERROR", n, repr(e))
    finally:
        b.restore()
    print("GAMES", n)
    print("TURN_SKIPS", turns)
    print("SAVE_ERRORS", errors)
    print("FAULTS", b.faults)
    print("SIM_S", time.ticks_diff(time.ticks_ms(), t0) // 1000)
    print("END")
