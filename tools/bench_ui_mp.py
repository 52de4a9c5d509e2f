"""UI budgets, measured under the MicroPython unix port (run by tools/bench_ui.py).

Prints one "KEY value" line per figure. Sections: I2C bytes per user action, allocation in
the steady state, render time per screen, Timer-vs-loop button sampling with the I2C time
of each flush modelled at 400 kHz, and a whole game's heap peak.
"""

import gc
import sys
import time

from board_sim import FULL, Driver, HeadlessBoard

from picoyacht import app as A
from picoyacht.debounce import Debouncer

FULL_FRAME = 1030  # 1024 data + 6 command bytes: a show()


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2] if xs else 0


def rig(present=FULL):
    b = HeadlessBoard(present)
    r = A.Runner(b)
    d = Driver(b, r)
    d.run_ms(30)
    return b, r, d, r.app


def start(d, app, nplayers=1):
    d.press(A.B_OK)  # New game
    s = app.settings
    s.nplayers = nplayers
    for i in range(6):
        s.kinds[i] = 0
    app._setup_items()
    while app.items[app.sel] != A.R_START:
        d.press(A.B_DOWN)
    d.press(A.B_OK)
    if app.state == A.S_HANDOVER:
        d.press(A.B_OK)


def i2c_per_action():
    b, r, d, app = rig()
    start(d, app, 2)
    out = {"hold": [], "cursor": [], "roll": [], "score": [], "flip": [], "handover": []}

    def act(kind, btn, settle=300):
        before = b.i2c.bytes
        d.press(btn, 40, settle)
        out[kind].append(b.i2c.bytes - before)

    g = app.game
    for _ in range(24):
        if app.state == A.S_HANDOVER:
            act("handover", A.B_OK)
        act("roll", A.B_ROLL, 400)
        for i in range(3):
            act("hold", A.B_HOLD1 + i)
        act("cursor", A.B_UP)
        act("cursor", A.B_DOWN)
        act("roll", A.B_ROLL, 400)
        d.press(A.B_OK)  # the card
        for _ in range(8):  # walk the card: every 7th move flips a page
            row = app.row
            before = b.i2c.bytes
            d.press(A.B_DOWN)
            kind = "flip" if row // 7 != app.row // 7 else "cursor"
            out[kind].append(b.i2c.bytes - before)
        d.press(A.B_MENU)
        d.press(A.B_OK)
        best = -1
        while app.state == A.S_PLAY:
            d.press(A.B_DOWN)
            best += 1
            if best > 12:
                break
        if app.state == A.S_CARD:
            app._open_card()
            before = b.i2c.bytes
            d.press(A.B_OK)
            if app.confirm:
                d.press(A.B_OK)
            out["score"].append(b.i2c.bytes - before)
        if g.over:
            break
    allv = []
    for k in out:
        v = out[k]
        allv += v
        print("I2C_%s n=%d median=%d max=%d pct_full=%d" % (
            k, len(v), median(v), max(v) if v else 0, 100 * median(v) // FULL_FRAME))
    print("I2C_all median=%d pct_full=%d" % (median(allv), 100 * median(allv) // FULL_FRAME))


def render_times():
    """Host-side draw+flush time per screen kind (unix port, not the Pico's)."""
    b, r, d, app = rig()
    start(d, app, 2)
    d.press(A.B_ROLL)
    d.run_ms(400)
    for name, st in (("play", A.S_PLAY), ("card", A.S_CARD), ("scores", A.S_SCORES)):
        app.state = st
        app.page = 0
        t0 = time.ticks_us()
        for _ in range(50):
            app.dirty = True
            app.render()
        print("RENDER_us %s %d" % (name, time.ticks_diff(time.ticks_us(), t0) // 50))
    app.state = A.S_PLAY


class TimedBoard(HeadlessBoard):
    """Virtual time in microseconds; each flush costs its I2C bytes at 400 kHz (9 bits per
    byte = 22.5 us), during which a hard-Timer sampler keeps sampling and a loop does not."""

    def __init__(self, timer, wave):
        HeadlessBoard.__init__(self)
        self.us = 1000000
        self.timer = timer
        self.wave = wave
        self.next_sample = self.us
        self.period_us = 2000 if timer else 0
        real = self.display.flush
        board = self

        def flush():
            before = board.i2c.bytes
            real()
            board.us += (board.i2c.bytes - before) * 45 // 2

        self.display.flush = flush

    def ticks_ms(self):
        return (self.us // 1000) & 0x3FFFFFFF

    def poll(self, deb, now):
        if not self.timer:
            deb.update(self.wave(self.us), now)
            return
        while self.next_sample <= self.us:
            t = self.next_sample
            deb.update(self.wave(t), (t // 1000) & 0x3FFFFFFF)
            self.next_sample += 2000

    def idle(self):
        self.us += 2000 if not self.timer else 500


def sampling(timer, full_frames):
    """Taps of 20 ms with 10 ms of bounce at each edge, while the screen keeps changing."""
    state = {"t0": 0}

    def wave(t):
        dt = t - state["t0"]
        if dt < 0 or dt >= 30000:
            return 0
        if dt < 10000:  # bouncing in: toggles every 1 ms
            return (1 << A.B_DOWN) if (dt // 1000) & 1 == 0 else 0
        if dt < 20000:
            return 1 << A.B_DOWN
        return (1 << A.B_DOWN) if (dt // 1000) & 1 else 0  # bouncing out

    b = TimedBoard(timer, wave)
    r = A.Runner(b)
    r.deb = Debouncer(A.NBUTTONS, repeat_mask=(1 << A.B_UP) | (1 << A.B_DOWN))
    app = r.app
    app.items = bytearray((A.T_NEW, A.T_RECORDS, A.T_DEMO, A.T_NEW, A.T_RECORDS))
    missed = 0
    double = 0
    lat = []
    x = 12345
    for _ in range(60):
        x = (x * 75 + 74) % 65537
        state["t0"] = b.us + 50000 + (x % 7000)
        sel0 = app.sel
        presses = 0
        first = -1
        end = state["t0"] + 120000
        while b.us < end:
            if full_frames:
                for i in range(1024):
                    b.i2c.ram[i] ^= 0xFF  # the panel lost it all: a full redraw
                app.dirty = True
            elif x & 1:
                app.dirty = True
                b.i2c.ram[0] ^= 1
                b.i2c.ram[300] ^= 1
            r.step()
            if app.sel != sel0 and first < 0:
                first = b.us
        presses = (app.sel - sel0) % len(app.items)
        if presses == 0:
            missed += 1
        elif presses > 1:
            double += 1
        if first >= 0:
            lat.append((first - state["t0"]) // 1000)
    name = "timer" if timer else "loop"
    print("SAMPLING %s full_frames=%d taps=60 missed=%d double=%d latency_ms_median=%d max=%d"
          % (name, full_frames, missed, double, median(lat), max(lat) if lat else -1))


def heap_game():
    import micropython

    gc.collect()
    base = gc.mem_alloc()
    import ui_play

    log = bytearray()
    p = ui_play.Player(FULL, log)
    p.setup(2, 0, 0)
    p.play()
    gc.collect()
    peak = micropython.mem_peak() if hasattr(micropython, "mem_peak") else -1
    print("HEAP base=%d after_game_live=%d mem_peak=%d" % (base, gc.mem_alloc(), peak))


def main(argv):
    what = argv[0] if argv else "all"
    if what in ("all", "i2c"):
        i2c_per_action()
    if what in ("all", "render"):
        render_times()
    if what in ("all", "sampling"):
        for full in (0, 1):
            sampling(False, full)
            sampling(True, full)
    if what == "heap":
        heap_game()


if __name__ == "__main__":
    main(sys.argv[1:])
