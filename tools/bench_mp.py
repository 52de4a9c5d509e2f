"""Figures for `make bench` measured under the MicroPython unix port (tools/bench.py runs
this with the package and board_sim as .mpy). One "KEY value ..." line per figure.

    ui R N      a complete N-player game of rule set R through the UI, button by button:
                CODE (live heap with everything imported), LIVE_PEAK (largest live heap
                after a gc.collect() at every box), ALLOC_PEAK (largest gc.mem_alloc() at
                any press: live + garbage), presses, I2C bytes, frames
    idle        bytes allocated per loop iteration, idle on four screens (gc disabled)
    boot        import / boot-to-title times and a reference loop's time (their ratio is
                what compares across machines)
    latency     debouncer press-to-event latency over synthetic bouncy presses: from the
                moment the contacts settle (negative: the event came during the bounce)
                and from the first contact
    decide      per rule set: the first CPU decision (engine built, Normal's pars) and a
                later one, in time, ref-loop units and the engine's op count
"""

import gc
import sys
import time

from allocs import allocated

REF_N = 100000


def ref_loop():
    """The reference workload: REF_N rounds of a small integer recurrence (us)."""
    t0 = time.ticks_us()
    x = 1
    for _ in range(REF_N):
        x = (x * 75 + 74) % 65537
    return time.ticks_diff(time.ticks_us(), t0)


def out(key, *v):
    print(key, *v)


def cmd_ui(argv):
    rid, n = int(argv[0]), int(argv[1])
    gc.collect()
    import ui_play

    from picoyacht import play, results, snapshot, ssd1306  # noqa: F401  (loaded in game)
    from picoyacht.buttons import FULL_BUTTONS

    gc.collect()
    code = gc.mem_alloc()
    peak = [0, 0]

    class Meter(ui_play.Player):
        def press(self, b):
            ui_play.Player.press(self, b)
            a = gc.mem_alloc()
            if a > peak[1]:
                peak[1] = a

    log = bytearray()
    p = Meter(FULL_BUTTONS, log)
    p.setup(n, rid, 0)
    g = p.app.turn.game
    turn = -1
    for _ in range(100000):
        if p.app.screen.NAME == "over":
            break
        if g.turn != turn:
            turn = g.turn
            gc.collect()
            a = gc.mem_alloc()
            if a > peak[0]:
                peak[0] = a
        st = p.app.screen.NAME
        if st == "handover":
            p.press(ui_play.K.B_OK)
        elif st == "play" and not g.rolls_used:
            p.roll()
        elif st == "play":
            want = ui_play.want_mask(g)
            if g.rolls_left and want != (1 << len(g.dice)) - 1:
                p.hold(want)
                p.roll()
            else:
                p.score()
        elif st == "card":
            p.score()
    assert g.over
    out("CODE", code)
    out("LIVE_PEAK", peak[0])
    out("ALLOC_PEAK", peak[1])
    out("PRESSES", p.d.presses)
    out("I2C_BYTES", p.board.i2c.bytes)
    out("FRAMES", p.app.frames)
    print("OK")


def cmd_idle(argv):
    from board_sim import FULL, Driver, HeadlessBoard

    from picoyacht import app as A
    from picoyacht import buttons as K
    from picoyacht import newgame

    b = HeadlessBoard(FULL)
    r = A.Runner(b)
    d = Driver(b, r)
    d.run_ms(100)

    def per_pass(n=2000):
        return allocated(r.step, n, warmup=50), n

    used, n = per_pass()
    out("IDLE_TITLE", used, n)
    d.press(K.B_OK)
    used, n = per_pass()
    out("IDLE_SETUP", used, n)
    app = r.app
    while app.screen.items[app.screen.sel] != newgame.R_START:
        d.press(K.B_DOWN)
    d.press(K.B_OK)
    if app.screen.NAME == "handover":
        d.press(K.B_OK)
    d.press(K.B_ROLL)
    d.run_ms(400)
    used, n = per_pass()
    out("IDLE_PLAY", used, n)
    d.press(K.B_OK)
    used, n = per_pass()
    out("IDLE_CARD", used, n)


def cmd_boot(argv):
    t0 = time.ticks_us()
    from board_sim import FULL, HeadlessBoard

    from picoyacht import app as A

    t1 = time.ticks_us()
    b = HeadlessBoard(FULL)
    r = A.Runner(b)
    t2 = time.ticks_us()
    r.step()  # draws and sends the title
    t3 = time.ticks_us()
    assert r.app.screen.NAME == "title" and r.app.frames == 1
    out("IMPORT_US", time.ticks_diff(t1, t0))
    out("BOOT_US", time.ticks_diff(t2, t1))
    out("TITLE_US", time.ticks_diff(t3, t2))
    out("REF_US", min(ref_loop() for _ in range(3)))
    out("REF_N", REF_N)


def cmd_latency(argv):
    from picoyacht.debounce import PRESS, Debouncer

    rng = [12345]

    def rnd(n):
        rng[0] = (rng[0] * 1103515245 + 12345) & 0x7FFFFFFF
        return (rng[0] >> 8) % n

    for period in (1, 2, 5):
        for bounce in (0, 5, 10):
            lats = []
            contact = []
            doubles = 0
            missed = 0
            for _ in range(200):
                deb = Debouncer(1)
                t = 1000 + rnd(period)  # sampling phase
                start = 2000 + rnd(7)
                stable = start + bounce  # contacts settle here (held 40 ms)
                release = stable + 40
                presses = 0
                first = -1
                while t < release + 60:
                    if t < start:
                        raw = 0
                    elif t < stable:
                        raw = rnd(2)  # bouncing
                    elif t < release:
                        raw = 1
                    elif t < release + bounce:
                        raw = rnd(2)
                    else:
                        raw = 0
                    deb.update(raw, t)
                    ev = deb.get()
                    while ev >= 0:
                        if ev >> 4 == PRESS:
                            presses += 1
                            if first < 0:
                                first = t
                        ev = deb.get()
                    t += period
                if presses == 0:
                    missed += 1
                elif presses > 1:
                    doubles += 1
                if first >= 0:
                    lats.append(first - stable)
                    contact.append(first - start)
            lats.sort()
            contact.sort()
            out("LATENCY", period, bounce, lats[len(lats) // 2], lats[-1], missed, doubles,
                contact[len(contact) // 2], contact[-1])


def cmd_decide(argv):
    from picoyacht import rules, strategy
    from picoyacht.game import Game

    from scripted import LcgRoller

    ref = min(ref_loop() for _ in range(3))
    out("REF_US", ref)
    for rid in range(rules.COUNT):
        strategy._engine = None
        gc.collect()
        g = Game(rid, ["cpu"], kinds=[2], roller=LcgRoller(rid + 3), seed=rid + 3)
        g.roll()
        t0 = time.ticks_us()
        strategy.cpu_step(g, strategy.NORMAL, None, None)  # builds the engine
        first = time.ticks_diff(time.ticks_us(), t0)
        e = strategy._engine
        ops0 = e.ops
        g.roll()
        t0 = time.ticks_us()
        strategy.cpu_step(g, strategy.NORMAL, None, None)
        later = time.ticks_diff(time.ticks_us(), t0)
        out("DECIDE", rid, first, later, e.ops - ops0, first * 1000 // ref)


def main(argv):
    globals()["cmd_" + argv[0]](argv[1:])


if __name__ == "__main__":
    main(sys.argv[1:])
