"""Smallest free heap with which a game completes on the emulated Pico, by bisection, per rule
set and per layout: the heap rows of docs/PERFORMANCE.md (`make bench-pico` calls smallest()).

    python tools/emu/heap_budget.py [--rules 0,4|maxi|all] [--layout uf2|mpy] [--seats 4]
                         [--coach 2] [--sharp] [--lo 8] [--hi 128] [--jobs 2]
                         [--config "SAMPLE_MS = 20"] [--uf2 FILE] [--check KB]
    python tools/emu/heap_budget.py --sim

Layouts: "uf2" runs the frozen build/picoyacht-pico.uf2 (`make uf2`) with a /main.py harness
(game()); "mpy" runs stock MicroPython v1.28.0 with `make flash`'s files, the package as
.mpy in the heap, with the same harness in place of make flash's /main.py. Either way a blocker
allocated before anything of the game leaves X bytes free, and X completes when the game
reaches its end with no CPU engine error, fault, failed save, MemoryError or traceback.
Every seat is an Expert CPU, and the coach judges every move. The bisection is
mpy_run.smallest_heap in 1 KB steps, --jobs probes a round, --hi checked first; --check
KB runs that one heap only.

--sim measures what sets the simulator's heap (tools/sim/sim.py): the Pico's free heap at the
REPL, and what the same objects (every module a game imports, and Maxi's engine, the
largest) take on the Pico's .mpy layout and on the unix port the simulator runs.
"""

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tools/, for paths
import paths

import emulator
from mpy_run import smallest_heap

RULE_NAMES = ("Yahtzee", "Yatzy", "Casino 5", "Casino 6", "Maxi", "Deluxe")
# The heap budgets of docs/DESIGN.md. The frozen .uf2 completes within this much free heap ...
UF2_BUDGET_KB = 72
UF2_YAHTZEE_KB = 52  # ... and Yahtzee within this;
# on the .mpy layout a 1-seat game within this, and each 4-seat game leaves this much spare.
MPY_ONE_SEAT_KB = 112
MPY_SPARE_KB = 24
WALL_S = 5400  # a whole 4-seat game on the emulator, on a busy machine
UF2 = paths.BUILD / "picoyacht-pico.uf2"
SAMPLING = "SAMPLE_MS = 20"  # slower button sampling: a faster emulator, the same heap

# The drive's /main.py: PicoYacht's own board and loop, a game set up the way the setup
# screen's START does, after a blocker that leaves `free` bytes of heap.
HARNESS = """import gc, sys
gc.collect()
_blocker = bytearray(max(16, gc.mem_free() - {free} - 48)) if {free} else None
gc.collect()
print("HEAP_LEFT", gc.mem_free())
from picoyacht.board_pico import make_board
from picoyacht import app as A
board = make_board()
runner = A.Runner(board)
app = runner.app
s = app.settings
s.rid = {rules}
s.nplayers = {seats}
s.coach = {coach}
s.options.sharp = {sharp}
for i in range({seats}):
    s.kinds[i] = 3
_fault = app.fault


def fault(e):  # where it failed, then the app's own handling
    sys.print_exception(e)
    _fault(e)


app.fault = fault
app.turn.start_soon()  # setup's Start: the game comes in over the loop's next passes
try:
    runner.run()
finally:
    board.restore()
"""

# A game that "completes" reached its end with none of these on the console.
FAILURE = r'Traceback|MemoryError|cpu_error|save_error|"ev":"fault"'


def rule_ids(text):
    """--rules: "all", ids ("0,4") or names ("maxi,casino 5")."""
    if text == "all":
        return list(range(len(RULE_NAMES)))
    names = [n.lower().replace(" ", "") for n in RULE_NAMES]
    return [int(r) if r.strip().isdigit() else names.index(r.strip().lower().replace(" ", ""))
            for r in text.split(",")]


def game(free, seats=4, rules=0, coach=0, config=None, before=(), after=(), uf2=UF2,
         sharp=False, layout="uf2"):
    """One all-Expert game with `free` bytes of heap: on the .uf2 `uf2`, or with layout "mpy"
    on stock firmware with make flash's files. `config`: a drive config.py laid over the
    built-in (on the .mpy layout, in place of make flash's); `before` and `after` it: code run
    at the REPL (the output of each in "execs")."""
    steps = [{"exec": code} for code in before]
    if config is not None:
        steps.append({"put": ["/config.py", config]})
    steps += [{"exec": code} for code in after]
    steps.append({"put": ["/main.py", HARNESS.format(free=free, seats=seats, rules=rules,
                                                     coach=coach, sharp=bool(sharp))]})
    until = '"ev":"end"|' + FAILURE
    if layout == "mpy":  # the product's own loop, not pico_probe's instrumented one
        img, files = emulator.image(False, True)
        r = emulator.run({"boot": "file", "image": str(img), "files": files, "steps": steps,
                          "until": until, "simS": 1800}, timeout=WALL_S)
    else:
        r = emulator.run_frozen(uf2, steps, until, sim_s=1800, timeout=WALL_S)
    out = r.get("out", "")
    left = re.search(r"HEAP_LEFT (\d+)", out)
    fail = re.search(r".*(%s).*(\r?\n.*){0,12}" % FAILURE, out)
    return {"completed": '"ev":"end"' in out and not fail and not r.get("error"),
            "heap_left": int(left.group(1)) if left else None,
            "sim_s": round(r.get("runMs", 0) / 1000), "failure": fail and fail.group(0),
            "execs": [e.get("out", "") + e.get("err", "") for e in r["execs"]],
            "tail": (out or r.get("error", ""))[-600:]}


def completes(layout, rid, free, seats=4, coach=2, config=SAMPLING, uf2=UF2, sharp=False):
    """(whether the game completes with `free` bytes of heap, why not)."""
    r = game(free, seats, rid, coach, config and config + "\n", uf2=uf2, sharp=sharp,
             layout=layout)
    return r["completed"], r["failure"] or r["tail"]


def smallest(layout, rid, seats=4, lo=8, hi=128, jobs=2, step=1, log=print, **kw):
    """(smallest KB, a multiple of `step`, that completes or None, the first failure seen
    below it). lo: KB known (or assumed) to fail; hi: KB checked first."""
    fails = {}

    def one(x):
        kb = x * step
        ok, why = completes(layout, rid, kb * 1024, seats, **kw)
        log("heap %s %s %d seat(s), free %3d KB: %s" % (
            layout, RULE_NAMES[rid], seats, kb, "completes" if ok else "FAILS"))
        if not ok:
            fails[kb] = why
        return ok

    x = smallest_heap(one, lo // step + 1, hi // step, jobs)
    kb = None if x is None else x * step
    below = [k for k in fails if kb is None or k < kb]
    return kb, fails[max(below)] if below else None


def pico_free():
    """The heap (bytes) stock v1.28.0 has free at its REPL with `make flash`'s files on the
    drive, before anything of the game: what the .mpy layout's game can have."""
    out, err = emulator.run_code("import gc\ngc.collect()\nprint('FREE', gc.mem_free())")
    words = out.split()
    if "FREE" not in words:
        raise SystemExit("no heap figure from the device: " + (out + err)[-600:])
    return int(words[words.index("FREE") + 1])


def uf2_budget_kb(rid):
    """The frozen .uf2's budget (KB of free heap a game completes with) for this row."""
    return UF2_YAHTZEE_KB if rid == 0 else UF2_BUDGET_KB


def verdict(layout, rid, seats, kb, free=None):
    """(budget, figure, ok) of one heap row: docs/DESIGN.md's budget for that layout and game."""
    if layout == "uf2" or seats == 1:
        limit = MPY_ONE_SEAT_KB if layout == "mpy" else uf2_budget_kb(rid)
        budget = "at most %d KB" % limit
        if kb is None:
            return budget, "does not complete", False
        return budget, "%d KB" % kb, kb <= limit
    budget = "at least %d KB spare" % MPY_SPARE_KB
    if kb is None:
        return budget, "does not complete", False
    if free is None:
        return budget, "%d KB (spare unknown)" % kb, None
    spare = free // 1024 - kb
    return budget, "%d KB spare (needs %d of %d KB)" % (spare, kb, free // 1024), \
        spare >= MPY_SPARE_KB


# The objects whose size sets the simulator's scale: what a game imports, and Maxi's engine.
LIVE_CODE = """import gc
gc.collect()
base = gc.mem_alloc()
from picoyacht import app, card, coach, dice, engine, game, play, rules, screens, strategy
e = engine.Engine(rules.RULESETS[rules.MAXI])
gc.collect()
print('LIVE', gc.mem_alloc() - base)
"""


def live_bytes(out):
    for line in out.splitlines():
        if line.startswith("LIVE "):
            return int(line.split()[1])
    raise SystemExit("no live figure: " + out[-600:])


def sim_figures():
    """(the Pico's free heap, live bytes there, live bytes on the unix port), in bytes."""
    import mpy_run

    out = mpy_run.build(paths.BUILD / "heap-sim-mpy")
    r = mpy_run.run(LIVE_CODE, [out], "1M")
    host = live_bytes(r.stdout + r.stderr)
    return pico_free(), live_bytes("".join(emulator.run_code(LIVE_CODE))), host


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="0", help="rule set ids or names (0,4 or maxi), or all")
    ap.add_argument("--layout", choices=("uf2", "mpy"), default="uf2")
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--coach", type=int, default=2, help="0 off, 1 hints, 2 tips")
    ap.add_argument("--lo", type=int, default=8, help="KB known (or assumed) to fail")
    ap.add_argument("--hi", type=int, default=128, help="KB checked first")
    ap.add_argument("--check", type=int, help="run this KB only")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--config", default=SAMPLING, help="a /config.py over the built-in")
    ap.add_argument("--uf2", default=str(UF2))
    ap.add_argument("--sim", action="store_true", help="the simulator's heap figures")
    ap.add_argument("--sharp", action="store_true", help="Sharp Dice on (Yahtzee, Yatzy)")
    a = ap.parse_args(argv)
    if a.sim:
        free, pico_live, host = sim_figures()
        print("PICO_FREE = %d\nPICO_LIVE = %d\nHOST_LIVE = %d\nsimulator heap: %d KB"
              % (free, pico_live, host, free * host // pico_live // 1024))
        return
    if a.check:
        a.lo, a.hi = a.check - 1, a.check
    free = pico_free() if a.layout == "mpy" else None
    rows = []
    for rid in rule_ids(a.rules):
        kb, failure = smallest(a.layout, rid, a.seats, a.lo, a.hi, a.jobs, coach=a.coach,
                               config=a.config, uf2=a.uf2, sharp=a.sharp)
        if failure:
            print("first failure below the answer:\n" + failure)
        budget, figure, ok = verdict(a.layout, rid, a.seats, kb, free)
        if a.check and kb is not None:
            figure = "completes at %d KB (not bisected)" % kb
        rows.append((RULE_NAMES[rid], kb))
        print("%s %s%s, %d seats: %s (budget %s): %s" % (
            a.layout, RULE_NAMES[rid], " + Sharp Dice" if a.sharp else "", a.seats, figure, budget,
            {True: "ok", False: "OVER", None: "?"}[ok]))
    return rows


if __name__ == "__main__":
    main()
