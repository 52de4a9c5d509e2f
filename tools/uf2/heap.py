"""Smallest free heap with which an all-Expert game completes on the emulated Pico, with the
coach judging every move, per rule set and per layout.

    python tools/uf2/heap.py [--rules 0,4|all] [--layout uf2|mpy] [--seats 4] [--coach 2]
                             [--lo 8] [--hi 128] [--jobs 2] [--config "SAMPLE_MS = 20"]
                             [--uf2 FILE] [--check KB]
    python tools/uf2/heap.py --sim

Layouts: "uf2" runs the frozen build/picoyacht-pico.uf2 (`make uf2`) with a /main.py harness
(tools/uf2/emu.mjs game); "mpy" runs stock MicroPython v1.28.0 with `make flash`'s files,
the package as .mpy in the heap, played through the buttons (tools/pico.py's probe). Either
way a blocker allocated before anything of the game leaves X bytes free; X completes when
the game reaches its end with no CPU engine error, fault, failed save, MemoryError or
traceback. Bisection in 1 KB steps; each round runs --jobs probes at once, splitting the
interval evenly, and --hi is checked first. --check KB runs that one heap only. On the
.mpy layout the table also gives the heap the Pico has free to spare beyond the answer.

--sim measures what sets the simulator's heap (tools/sim.py): the Pico's free heap at the
REPL, and what the same objects (every module a game imports, and Maxi's engine, the
largest) take on the Pico's .mpy layout and on the unix port the simulator runs.

table(rows) is the Markdown table docs/PERFORMANCE.md carries; main(argv) prints it last
and returns it.
"""

import argparse
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
RULE_NAMES = ("Yahtzee", "Yatzy", "Casino 5", "Casino 6", "Maxi", "Deluxe")
# What the issue holds them to: the frozen .uf2 completes within this much free heap ...
UF2_BUDGET_KB = 72
# ... and on the .mpy layout this much of the Pico's heap stays spare.
MPY_SPARE_KB = 24
WALL_S = 5400  # a whole 4-seat game on the emulator, on a busy machine


def run_uf2(a, rid, free):
    cmd = ["node", str(HERE / "emu.mjs"), "game", str(a.uf2), "--free", str(free),
           "--seats", str(a.seats), "--rules", str(rid), "--coach", str(a.coach)]
    if a.config:
        cmd += ["--config", a.config + "\n"]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if r.returncode != 0:
        sys.exit(r.stderr[-2000:])
    out = json.loads(r.stdout.strip().splitlines()[-1])
    return out["completed"], out["failure"] or out["tail"]


def _pico():
    sys.path.insert(0, str(ROOT / "tools"))
    import pico

    return pico


def run_mpy(a, rid, free):
    p = _pico().probe({"players": a.seats, "cpus": a.seats, "level": 3, "rules": rid,
                       "coach": a.coach, "record": 0}, free=free, timeout=WALL_S)
    ok = p.completed and not p.faults()
    return ok, "\n".join(p.faults()[:8]) or p.error[-600:]


def pico_heap_kb():
    """The heap stock v1.28.0 has free at its REPL, before anything of the game: what the
    .mpy layout's blocker divides."""
    out, err = _pico().run_code("import gc\ngc.collect()\nprint('FREE', gc.mem_free())")
    for line in out.splitlines():
        if line.startswith("FREE "):
            return int(line.split()[1]) / 1024
    raise SystemExit("no heap figure from the device: " + (out + err)[-600:])


# The objects whose size sets the simulator's scale: what a game imports, and Maxi's engine.
LIVE_CODE = """import gc
gc.collect()
base = gc.mem_alloc()
from picoyacht import app, coach, dice, engine, game, play, rules, screens, strategy
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
    pico = _pico()
    import mpy_run

    out = mpy_run.build(ROOT / "build" / "heap-sim-mpy")
    r = mpy_run.run(LIVE_CODE, [out], "1M")
    host = live_bytes(r.stdout + r.stderr)
    return int(pico_heap_kb() * 1024), live_bytes("".join(pico.run_code(LIVE_CODE))), host


def smallest(a, rid, log=print):
    """(smallest KB that completes or None, the first failure seen below it)."""
    probe = run_uf2 if a.layout == "uf2" else run_mpy
    lo, hi = a.lo, a.hi
    failure = None
    pool = ThreadPoolExecutor(a.jobs)

    def one(kb):
        ok, why = probe(a, rid, kb * 1024)
        log("%s %-8s free %3d KB: %s" % (a.layout, RULE_NAMES[rid], kb,
                                          "completes" if ok else "FAILS"))
        return kb, ok, why

    kb, ok, why = one(hi)
    if not ok:
        return None, why
    while hi - lo > 1:
        n = min(a.jobs, hi - lo - 1)
        probes = sorted({lo + (hi - lo) * (i + 1) // (n + 1) for i in range(n)})
        for kb, ok, why in sorted(pool.map(one, probes)):
            if ok:
                hi = min(hi, kb)
            elif kb > lo:
                lo, failure = kb, why
    return hi, failure


def table(rows, pico_kb=None):
    """Markdown: one row per (layout, rule set, smallest KB or None)."""
    out = ["| layout | rule set | smallest free heap that completes | budget | verdict |",
           "|---|---|---|---|---|"]
    for layout, rid, kb in rows:
        if layout == "uf2":
            budget = "<= %d KB" % UF2_BUDGET_KB
            ok = kb is not None and kb <= UF2_BUDGET_KB
            cell = "-" if kb is None else "%d KB" % kb
        else:
            budget = ">= %d KB spare" % MPY_SPARE_KB
            spare = None if kb is None or pico_kb is None else pico_kb - kb
            ok = spare is not None and spare >= MPY_SPARE_KB
            cell = "-" if kb is None else "%d KB (%s spare)" % (
                kb, "?" if spare is None else "%.0f KB" % spare)
        out.append("| %s | %s | %s | %s | %s |" % (
            "frozen .uf2" if layout == "uf2" else ".mpy (stock v1.28.0)", RULE_NAMES[rid], cell,
            budget, "ok" if ok else "OVER"))
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="0", help="rule set ids (0,4), or all")
    ap.add_argument("--layout", choices=("uf2", "mpy"), default="uf2")
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--coach", type=int, default=2, help="0 off, 1 hints, 2 tips")
    ap.add_argument("--lo", type=int, default=8, help="KB known (or assumed) to fail")
    ap.add_argument("--hi", type=int, default=128, help="KB checked first")
    ap.add_argument("--check", type=int, help="run this KB only")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--config", default="SAMPLE_MS = 20",
                    help="over the pin map (slower sampling: a faster emulator, same heap)")
    ap.add_argument("--uf2", default=str(ROOT / "build" / "picoyacht-pico.uf2"))
    ap.add_argument("--sim", action="store_true", help="the simulator's heap figures")
    a = ap.parse_args(argv)
    if a.sim:
        free, pico, host = sim_figures()
        print("PICO_FREE = %d\nPICO_LIVE = %d\nHOST_LIVE = %d\nsimulator heap: %d KB"
              % (free, pico, host, free * host // pico // 1024))
        return
    if a.check:
        a.lo, a.hi = a.check - 1, a.check
    rids = range(len(RULE_NAMES)) if a.rules == "all" else [int(r) for r in a.rules.split(",")]
    pico_kb = pico_heap_kb() if a.layout == "mpy" else None
    if pico_kb is not None:
        print("the Pico's free heap at the REPL: %.1f KB" % pico_kb)
    rows = []
    for rid in rids:
        kb, failure = smallest(a, rid)
        if failure:
            print("first failure below the answer:\n" + failure)
        rows.append((a.layout, rid, kb))
    out = table(rows, pico_kb)
    print(out)
    return out


if __name__ == "__main__":
    main()
