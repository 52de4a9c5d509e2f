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
from picoyacht import buttons as K
from picoyacht import menus, newgame
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
    d.press(K.B_OK)  # New game
    s = app.settings
    s.nplayers = nplayers
    for i in range(6):
        s.kinds[i] = 0
    app.screen.refresh()
    while app.screen.items[app.screen.sel] != newgame.R_START:
        d.press(K.B_DOWN)
    d.press(K.B_OK)
    if app.screen.NAME == "handover":
        d.press(K.B_OK)


def pct10(n):
    """n as tenths of a percent of a full frame (integers: 257 -> "25.0")."""
    t = (1000 * n + FULL_FRAME // 2) // FULL_FRAME
    return "%d.%d" % (t // 10, t % 10)


def i2c_per_action():
    """Bytes on the wire (address bytes included) per user action, through the real loop:
    a press, then the settle time (the roll animation included), everything it flushed."""
    b, r, d, app = rig()
    start(d, app, 2)
    kinds = ("hold", "cursor_play", "cursor_card", "roll", "score", "flip", "handover")
    out = {}
    drv = {}
    for k in kinds:
        out[k] = []
        drv[k] = []
    disp = app.panel.disp

    def act(kind, btn, settle=300):
        before = b.i2c.bytes
        sent = disp.bytes_sent
        d.press(btn, 40, settle)
        out[kind].append(b.i2c.bytes - before)
        drv[kind].append(disp.bytes_sent - sent)

    g = app.turn.game
    for _ in range(24):
        if app.screen.NAME == "handover":
            act("handover", K.B_OK)
        act("roll", K.B_ROLL, 400)
        for i in range(3):
            act("hold", K.B_HOLD1 + i)
        act("cursor_play", K.B_UP)
        act("cursor_play", K.B_DOWN)
        act("roll", K.B_ROLL, 400)
        d.press(K.B_OK)  # the card
        for _ in range(8):  # walk the card: every 7th move flips a page
            row = app.screen.row
            before = b.i2c.bytes
            sent = disp.bytes_sent
            d.press(K.B_DOWN)
            kind = "flip" if row // 7 != app.screen.row // 7 else "cursor_card"
            out[kind].append(b.i2c.bytes - before)
            drv[kind].append(disp.bytes_sent - sent)
        d.press(K.B_MENU)
        d.press(K.B_OK)
        best = -1
        while app.screen.NAME == "play":
            d.press(K.B_DOWN)
            best += 1
            if best > 12:
                break
        if app.screen.NAME == "card":
            app.screen.enter()
            before = b.i2c.bytes
            sent = disp.bytes_sent
            d.press(K.B_OK)
            if app.screen.NAME == "card" and app.screen.confirm:
                d.press(K.B_OK)
            out["score"].append(b.i2c.bytes - before)
            drv["score"].append(disp.bytes_sent - sent)
        if g.over:
            break
    allv = []
    for k in kinds:
        v = out[k]
        allv += v
        print("I2C_%s n=%d median=%d max=%d pct_full=%s driver_bytes_median=%d" % (
            k, len(v), median(v), max(v) if v else 0, pct10(median(v)), median(drv[k])))
    print("I2C_all n=%d median=%d pct_full=%s (wire bytes incl. address; full frame = %d)"
          % (len(allv), median(allv), pct10(median(allv)), FULL_FRAME))


def render_times():
    """Host-side draw+flush time per screen kind (unix port, not the Pico's)."""
    b, r, d, app = rig()
    start(d, app, 2)
    d.press(K.B_ROLL)
    d.run_ms(400)
    for name in ("play", "card", "scores"):
        app.show(name)
        t0 = time.ticks_us()
        for _ in range(50):
            app.dirty = True
            app.render()
        print("RENDER_us %s %d" % (name, time.ticks_diff(time.ticks_us(), t0) // 50))
    app.show("play")


class TimedBoard(HeadlessBoard):
    """Virtual time in microseconds; each flush costs its I2C bytes at 400 kHz (9 bits per
    byte = 22.5 us, address bytes included), during which a hard-Timer sampler keeps
    sampling every 2 ms and a loop sampler does not. Loop mode sleeps like board_pico's
    idle(): up to the next 2 ms mark, not at all after a long pass. The CPU time of drawing
    is not modelled (it would make the loop's gaps longer still)."""

    PERIOD_US = 2000

    def __init__(self, timer, wave):
        HeadlessBoard.__init__(self)
        self.us = 1000000
        self.timer = timer
        self.wave = wave
        self.next_sample = self.us
        self.last = self.us
        self.flush_us = 0
        self.flushes = 0
        real = self.display.flush
        board = self

        def flush():
            before = board.i2c.bytes
            real()
            n = board.i2c.bytes - before
            if n:
                board.us += n * 45 // 2
                board.flush_us += n * 45 // 2
                board.flushes += 1

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
            self.next_sample += self.PERIOD_US

    def idle(self):
        if self.timer:
            self.us += 500  # just a yield; the Timer samples on its own
            return
        wait = self.PERIOD_US - (self.us - self.last)
        if wait > 0:
            self.us += wait
        self.last = self.us


REDRAWS = ("none", "typical", "full")


def sampling(timer, redraw):
    """60 taps of 20 ms with 10 ms of bounce at each edge (so 10 ms of clean contact),
    at pseudo-random phases, while the screen redraws on every loop pass: not at all, a
    selection move (the title's box jumps between two rows: ~two pages x ~100 columns
    through the real driver), or a whole frame (mark_all(): the driver resends
    everything, window included). A tap counts when the debouncer emits its PRESS."""
    from picoyacht.debounce import PRESS

    state = {"t0": 0}

    def wave(t):
        dt = t - state["t0"]
        if dt < 0 or dt >= 30000:
            return 0
        if dt < 10000:  # bouncing in: toggles every 1 ms
            return (1 << K.B_DOWN) if (dt // 1000) & 1 == 0 else 0
        if dt < 20000:
            return 1 << K.B_DOWN
        return (1 << K.B_DOWN) if (dt // 1000) & 1 else 0  # bouncing out

    b = TimedBoard(timer, wave)
    r = A.Runner(b)
    r.deb = Debouncer(K.NBUTTONS, repeat_mask=(1 << K.B_UP) | (1 << K.B_DOWN))
    app = r.app
    app.screen.items = bytearray((menus.T_NEW, menus.T_RECORDS, menus.T_DEMO))
    seen = [0, -1]  # presses in this tap's window, time of the first
    real_event = app.event

    def event(ev, now):
        if ev == (PRESS << 4 | K.B_DOWN):
            seen[0] += 1
            if seen[1] < 0:
                seen[1] = b.us
        real_event(ev, now)

    app.event = event
    missed = 0
    double = 0
    lat = []
    x = 12345
    r.step()
    b.flushes = 0
    b.flush_us = 0
    steps = 0
    for _ in range(60):
        x = (x * 75 + 74) % 65537
        # a phase spread over more than two loop passes of a full frame (23.3 ms each)
        state["t0"] = b.us + 50000 + (x * 17 % 47000)
        seen[0] = 0
        seen[1] = -1
        end = state["t0"] + 120000
        while b.us < end:
            if redraw == "full":
                app.panel.disp.mark_all()
                app.dirty = True
            elif redraw == "typical":
                app.screen.sel = 1 - app.screen.sel if app.screen.sel < 2 else 0
                app.dirty = True
            r.step()
            steps += 1
        if seen[0] == 0:
            missed += 1
        elif seen[0] > 1:
            double += 1
        if seen[1] >= 0:
            lat.append((seen[1] - state["t0"]) // 1000)
    name = "timer" if timer else "loop"
    fl = b.flushes or 1
    print("SAMPLING %s redraw=%s taps=60 missed=%d double=%d latency_ms_median=%d max=%d "
          "flush_ms_mean=%d.%d flushes_per_pass=%d%%" % (
              name, redraw, missed, double, median(lat), max(lat) if lat else -1,
              b.flush_us // fl // 1000, b.flush_us // fl // 100 % 10,
              100 * b.flushes // (steps or 1)))


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
        for redraw in REDRAWS:
            sampling(False, redraw)
            sampling(True, redraw)
    if what == "heap":
        heap_game()


if __name__ == "__main__":
    main(sys.argv[1:])
