"""Soak: complete CPU-only games back to back in one MicroPython process, through the app.

Each game is set up through the buttons (New game, then Start) with every seat a CPU, then
left alone: the CPUs play at their own pace through the real loop (roll animations,
hand-overs, saves after every box, records and the game file at the end). The setup
rotates over the six rule sets, 1-4 seats and the three levels (mixed per seat). Expert
reads its table from ./tables when it has been built (else it plays as Normal).

Checked per game: it ends, every box of every seat is filled, one console line per box,
records count it, the saved game is gone. Reported: games, heap after gc.collect() at
every game end (first, last, min, max: what stays between games; and, game by game, the
last 72-game cycle of setups against the second), the live heap peak during play
(gc.collect() every 2048 loop passes), CPU decisions that failed (the app
would fall back to a simple policy; none expected), and the time.

Usage: stress_soak.py [games=1000] [seed=1]
"""

import gc
import sys
import time
from array import array

from stress_rig import app_error, opts, out, rig

from picoyacht import buttons as K
from picoyacht import menus, newgame, rules
from picoyacht.store import Store

from fakefs import FakeFs

QUIT = menus.Menu.LABELS.index("Quit to title")
CYCLE = 72  # rule set (6) x seats (4) x level rotation (3): the setup repeats


class _NoLog:
    def append(self, _x):
        pass


def has_tables():
    try:
        open("tables/yahtzee.bin", "rb").close()
        return True
    except OSError:
        return False


def main(argv):
    o = opts(argv, games=1000, seed=1)
    fs = FakeFs()
    fs.log = _NoLog()
    b, r, d, app = rig(K.FULL_BUTTONS, Store(fs, "/saves"),
                       bytes((o["seed"] & 255, 7, 0, 0)))
    events = {"cpu_error": 0, "fault": 0, "save_error": 0}
    console0 = b.console

    def console(line):
        for k in events:
            if '"ev":"' + k + '"' in line:
                events[k] += 1
        console0(line)

    app.console = console
    panel = b.i2c

    def wire(addr, bufs, stop=True):
        """The emulated panel's RAM is not needed here (and costs more than the game):
        count the bytes the real driver sends, like the wire would."""
        n = 1
        for k in range(len(bufs)):
            n += len(bufs[k])
        panel.bytes += n
        panel.writes += 1
        return n

    panel.writevto = wire
    d.run_ms(30)
    first = last = lo = hi = -1
    peak = 0
    passes = 0
    failures = 0
    per_rules = bytearray(rules.COUNT)
    lives = array("i", bytes(4 * o["games"]))  # preallocated: the record must not grow
    t0 = time.ticks_ms()
    for i in range(o["games"]):
        rid = i % rules.COUNT
        n = 1 + (i // rules.COUNT) % 4
        s = app.settings
        s.rid = rid
        s.nplayers = n
        for seat in range(6):
            s.kinds[seat] = 1 + (i // 24 + seat) % 3
        # through the buttons: title -> New game -> Start
        while app.screen.NAME != "title":
            if app.screen.NAME == "message":
                d.press(K.B_OK)
            elif app.screen.NAME == "menu" and app.turn.game.over:  # game over's menu
                d.pick(QUIT)
            else:
                d.press(K.B_MENU)
        while app.screen.items[app.screen.sel] != menus.T_NEW:
            d.press(K.B_DOWN)
        d.press(K.B_OK)
        app.screen.refresh()
        while app.screen.items[app.screen.sel] != newgame.R_START:
            d.press(K.B_DOWN)
        boxes0 = b.boxes
        played0 = app.records.games(rid)
        d.press(K.B_OK)
        g = app.turn.game
        if g is None or g.over or g.rs.id != rid or g.nseats != n:
            print("FAIL game %d did not start" % i)
            failures += 1
            break
        stop = passes + 2000000  # a game that never ends is a failure, not a hang
        while app.screen.NAME != "over" and passes < stop:
            r.step()
            passes += 1
            if not passes & 2047:  # the live heap during play (engine, tables, frames)
                gc.collect()
                m = gc.mem_alloc()
                if m > peak:
                    peak = m
        err = app_error(app)
        full = (1 << g.rs.nboxes) - 1
        if (app.screen.NAME != "over" or err or not g.over
                or any(g.filled[x] != full for x in range(n))
                or b.boxes - boxes0 != g.rs.nboxes * n
                or app.records.games(rid) != played0 + 1
                or any("game" in p for p in fs.files)):
            print("FAIL game %d (rules %d, %d seats): %s %s" % (
                i, rid, n, app.screen.NAME, err))
            failures += 1
            break
        per_rules[rid] += 1 if per_rules[rid] < 255 else 0
        gc.collect()
        live = gc.mem_alloc()
        lives[i] = live
        if first < 0:
            first = lo = hi = live
        last = live
        lo = min(lo, live)
        hi = max(hi, live)
        peak = max(peak, live)
        if events["fault"] or events["cpu_error"]:
            break
    ms = time.ticks_diff(time.ticks_ms(), t0)
    played = sum(1 for x in per_rules if x)
    out("GAMES", o["games"] if not failures and not events["fault"] else -1)
    out("RULESETS", played)
    out("EXPERT_TABLES", 1 if has_tables() else 0)
    out("LOOP_PASSES", passes)
    out("LIVE_HEAP_FIRST", first)
    out("LIVE_HEAP_LAST", last)
    out("LIVE_HEAP_MIN", lo)
    out("LIVE_HEAP_MAX", hi)
    out("LIVE_HEAP_PEAK_IN_PLAY", peak)
    # the setup repeats every CYCLE games: compare the last cycle with the second (the
    # first warms caches up) game by game, same rule set, seats and levels
    n = o["games"]
    if n >= 3 * CYCLE and not failures:
        base = n - CYCLE - (n % CYCLE)
        d = [lives[base + j] - lives[CYCLE + j] for j in range(CYCLE)]
        out("SAME_SETUP_DRIFT_MIN_MAX", min(d), max(d), "games %d-%d vs %d-%d" % (
            CYCLE, 2 * CYCLE - 1, base, base + CYCLE - 1))
    out("MS", ms)
    out("CPU_ERRORS", events["cpu_error"])
    out("SAVE_ERRORS", events["save_error"])
    out("FAULTS", events["fault"])
    out("FAILURES", failures + events["fault"] + events["cpu_error"] + events["save_error"])


if __name__ == "__main__":
    main(sys.argv[1:])
