"""Button mashing through the real loop: random gestures on every screen, for a long time.

One MicroPython process, one FakeFs, the device's 2 ms sampling. Gestures: purposeful
taps (a player who wants the game to go on: without them no game would ever end), random
taps, contact bounce on either edge, spikes shorter than the debounce rule, long holds
(LONG and auto-repeat), chords of two to four buttons in any order, pauses (up to the dim
and blank timeouts), and now and then a power cycle (a new app on the same files,
sometimes with Menu held: the diagnostics screen). Setup gets mashed too, so rule sets,
options, player counts, names and CPU seats all come up.

Checks after every gesture: no exception reached the loop's fault handler, the app and
game invariants hold (stress_rig.app_error); at every box the saved game is the game.
At the end of every completed game the live heap (after gc.collect) is recorded (not at a
boot's first game: the app keeps each screen it has opened for its life, and a boot's first
game ends before game over's screens exist, so that sample is low by their size); the
trend over consecutive games must be flat.

Usage: stress_mash.py [events=1000000] [seed=1] [buttons=0] [games=0] [purpose=450]
                      [steady=0] [leak=0]
events: raw button edges to produce; buttons 11/4 (0: alternate on each power cycle);
games>0: stop after that many heap samples instead (the heap-trend run); purpose:
per mille of gestures that are purposeful taps (more: games end sooner); steady=1: the
setup screen is not mashed and the power stays on, so consecutive games share one boot
and one configuration (the heap trend: a power cycle on this one-process rig keeps
whatever the last boot's screens left in a different order, a step that is not a leak);
leak=N: the negative control, keep N more bytes at every game end (the trend must see it).
"""

import gc
import sys
from array import array

from stress_rig import Hands, Rng, app_error, helpful, opts, out, rig

from picoyacht import app as A
from picoyacht import buttons as K
from picoyacht.store import Store

from fakefs import FakeFs

MAX_FAULTS_SHOWN = 3
HEAP_SAMPLES = 256


class Mash:
    def __init__(self, o):
        self.o = o
        self.rng = Rng(o["seed"])
        self.fs = FakeFs()
        self.faults = 0
        self.failures = 0
        self.games = 0
        self.samples = 0  # heap samples taken: games that were not a boot's first
        self.boot_games = 0
        self.leaked = []  # leak=N: what the negative control keeps
        self.boxes = 0
        self.save_checks = 0
        self.power_cycles = 0
        self.diag_boots = 0
        self.gestures = 0
        self.edges = 0
        # live heap at each game end (preallocated: the record must not grow the heap)
        self.heap = array("i", bytes(4 * HEAP_SAMPLES))
        self.heap_x = array("i", bytes(4 * HEAP_SAMPLES))  # without the strategy engine
        self.counted = None
        self.rulesets = bytearray(8)
        self.screens = set()
        self.max_seats = 0
        self.cpu_games = 0
        self.present = K.FULL_BUTTONS if o["buttons"] != 4 else K.MIN_BUTTONS
        self.boot(0)

    def fail(self, what):
        self.failures += 1
        if self.failures <= 10:
            print("FAIL", what)

    def boot(self, buttons):
        if self.gestures:
            self.edges += self.hands.edges
            # the old app goes with the power: drop it before the new one is built
            self.b = self.r = self.app = self.hands = None
            self.last = (None, -1)
            self.counted = None
            self.boot_games = 0
            st = sys.modules.get("picoyacht.strategy")
            if st is not None:
                st._engine = None
            gc.collect()
        self.fs = self.fs.reboot()
        b, r, d, app = rig(self.present, Store(self.fs, "/saves"),
                           bytes((self.rng.below(256), self.rng.below(256), 0, 0)),
                           buttons, 2)
        self.b, self.r, self.app = b, r, app
        f0 = app.fault

        def fault(e):
            self.faults += 1
            if self.faults <= MAX_FAULTS_SHOWN:
                print("FAULT on", app.screen.NAME)
                sys.print_exception(e)
            f0(e)

        app.fault = fault
        self.hands = Hands(b, r, self.rng, self.present)
        self.last = (None, -1)

    def power_cycle(self):
        self.power_cycles += 1
        if self.o["buttons"] == 0:
            self.present = K.MIN_BUTTONS if self.present == K.FULL_BUTTONS else K.FULL_BUTTONS
        boot = 0
        if self.rng.below(4) == 0:
            boot = 1 << K.B_MENU
            self.diag_boots += 1
        self.boot(boot)

    def gesture(self):
        rng = self.rng
        h = self.hands
        app = self.app
        w = rng.below(1000)
        if w < 450 and rng.below(1000) >= self.o["purpose"]:
            w = 450 + rng.below(550)
        elif w >= 450 and rng.below(1000) < self.o["purpose"]:
            w = 0
        full = self.present == K.FULL_BUTTONS
        if self.o["steady"] and app.screen.NAME in ("setup", "name"):
            w = 0  # the heap-trend run keeps one configuration: setup is not mashed
        if w < 450:
            btn = helpful(app, full, rng)
            hold = 900 if app.screen.NAME == "diag" else 15 + rng.below(100)
            h.tap(btn, hold, rng.below(120))
        elif w < 700:
            h.tap(h.random_button(), 5 + rng.below(150), rng.below(100))
        elif w < 780:
            h.tap(h.random_button(), 600 + rng.below(2000), rng.below(100), rng.below(2))
        elif w < 860:
            h.chord()
        elif w < 920:
            h.run_ms(50 + rng.below(3000))
        elif w < 950:  # a spike: one sample, never an event
            bit = 1 << h.random_button()
            h.set(self.b.raw ^ bit)
            h.run_ms(1)
            h.set(self.b.raw ^ bit)
            h.run_ms(5)
        elif w < 953:
            h.run_ms(25000 + rng.below(110000))  # dim, maybe blank
        elif w < 955:
            if self.o["steady"]:
                h.run_ms(50 + rng.below(3000))  # the heap trend is one boot's games
            else:
                self.power_cycle()
        else:
            h.tap(helpful(app, full, rng), 15 + rng.below(60), 10 + rng.below(60), False)
        self.gestures += 1

    def check(self):
        app = self.app
        self.screens.add(app.screen.NAME)
        err = app_error(app)
        if err:
            self.fail("%s on %s: %s" % (self.o["seed"], app.screen.NAME, err))
        g = app.turn.game
        if g is None:
            return
        key = (g, g.turn)
        if key != self.last:
            self.last = key
            self.boxes += 1
            if not app.turn.demo and not g.over and not g.rolls_used and app.store is not None:
                saved = app.store.load("game")
                self.save_checks += 1
                if saved != g.snapshot():
                    self.fail("saved game differs at turn %d" % g.turn)
            if g.over:
                self.game_over(g)

    def game_over(self, g):
        if g is self.counted:
            return
        self.counted = g
        self.games += 1
        self.rulesets[g.rs.id] = 1
        if g.nseats > self.max_seats:
            self.max_seats = g.nseats
        if max(g.kinds):
            self.cpu_games += 1
        for s in range(g.nseats):
            if g.filled[s] != (1 << g.rs.nboxes) - 1:
                self.fail("game over with open boxes")
        self.boot_games += 1
        if self.o["leak"]:
            self.leaked.append(bytearray(self.o["leak"]))
        i = self.samples
        if self.boot_games == 1 or i >= HEAP_SAMPLES:
            return  # a boot's first game: see the module docstring
        self.samples += 1
        gc.collect()
        self.heap[i] = gc.mem_alloc()
        st = sys.modules.get("picoyacht.strategy")
        if st is not None and st._engine is not None:
            # the CPU's search engine is a cache (work arrays, Normal's bonus-chance
            # table: bounded, but it fills over many games): measure without it too
            st._engine = None
            gc.collect()
        self.heap_x[i] = gc.mem_alloc()

    def edges_now(self):
        return self.edges + self.hands.edges


def trend(heap, first, n, ng):
    """Least-squares slope (bytes per game, x1000) and min-of-window growth over n games."""
    xs = heap[first:min(ng, first + n)]
    k = len(xs)
    if k < 10:
        return 0, 0, k
    mx = (k - 1) / 2
    my = sum(xs) / k
    num = 0.0
    den = 0.0
    for i in range(k):
        num += (i - mx) * (xs[i] - my)
        den += (i - mx) * (i - mx)
    w = max(5, k // 5)
    return int(1000 * num / den), min(xs[k - w:]) - min(xs[:w]), k


def main(argv):
    o = opts(argv, events=1000000, seed=1, buttons=0, games=0, purpose=450, steady=0, leak=0)
    if o["steady"]:
        # modules the app imports on first use stay loaded: import them up front so a
        # first diagnostics boot late in the run is not mistaken for growth
        __import__("picoyacht.diag")
    m = Mash(o)
    while True:
        if o["games"]:
            if m.samples >= o["games"]:
                break
        elif m.edges_now() >= o["events"]:
            break
        m.gesture()
        m.check()
        if m.faults or m.failures > 20:
            break
    gc.collect()
    out("BUTTON_EVENTS", m.edges_now())
    out("GESTURES", m.gestures)
    out("POWER_CYCLES", m.power_cycles)
    out("DIAG_BOOTS", m.diag_boots)
    out("BOXES_CHECKED", m.boxes)
    out("SAVES_CHECKED", m.save_checks)
    out("GAMES_COMPLETED", m.games)
    out("CPU_GAMES", m.cpu_games)
    out("RULESETS_SEEN", sum(m.rulesets))
    out("SCREENS_SEEN", len(m.screens), len(A.SCREENS))
    out("SCREENS_MISSED", " ".join(sorted(n for n in A.SCREENS if n not in m.screens)) or "-")
    out("MAX_SEATS", m.max_seats)
    ng = min(m.samples, HEAP_SAMPLES)
    if ng:
        first = 5 if ng >= 30 else 0
        for name, heap in (("HEAP", m.heap), ("HEAPX", m.heap_x)):
            slope, growth, k = trend(heap, first, 100, ng)
            if name == "HEAP":
                out("HEAP_GAMES", k)
            out(name + "_FIRST", heap[first])
            out(name + "_LAST", heap[first + k - 1])
            out(name + "_MIN", min(heap[:ng]))
            out(name + "_MAX", max(heap[:ng]))
            out(name + "_SLOPE_MILLIBYTES_PER_GAME", slope)
            out(name + "_WINDOW_MIN_GROWTH", growth)
    out("EXCEPTIONS", m.faults)
    out("FAILURES", m.failures + m.faults)


if __name__ == "__main__":
    main(sys.argv[1:])
