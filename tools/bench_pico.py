"""`make bench-pico`: the budgets judged on the emulated Pico, written to docs/PERFORMANCE.md.

The real MicroPython rp2 firmware on an emulated RP2040 (tools/pico.py), played through the
buttons by host_tests/mp/pico_probe.py's player, in the two layouts a player can flash:
  .mpy   `make flash`'s files on stock MicroPython (v1.28.0; --fw 1.28.0,1.24.1 adds more);
  .uf2   the frozen build/picoyacht-pico.uf2 of `make uf2`, when it exists (else a note).
The figures go to build/bench_pico.json as they come (--resume keeps a cut-short run's),
then into one table against DESIGN.md's budgets: docs/PERFORMANCE.md, the latest figures
only (history lives in git). Nothing is asserted. Emulated times are somewhat optimistic
(no XIP cache misses). Every run plays the same games (the probe's boot entropy is fixed).

Other measurements add rows through ROWS: a function (report) -> [Row], where the report
is the JSON this script wrote. --table FILE rewrites the document from a saved JSON.
"""

import argparse
import json
import paths  # noqa: F401
import statistics
import subprocess
import sys
import time
from collections import namedtuple
from concurrent.futures import ThreadPoolExecutor
from paths import BUILD, ROOT

import heap as uf2_heap  # tools/uf2/heap.py: the frozen game
import pico
import power_model
from mpy_run import smallest_heap

I2C_US_PER_BYTE = 22.5  # 9 bits at 400 kHz
FULL_FRAME = 1024
ACTIONS = ("hold", "cursor", "card_cursor", "roll", "score", "menu", "page")
CTRLC_SCREENS = ("title", "setup", "play", "card", "handover", "menu", "scores", "anim", "cpu",
                 "over")
LEVELS = {1: "Easy", 2: "Normal", 3: "Expert"}
RULE_SETS = ("Yahtzee", "Yatzy", "Casino 5", "Casino 6", "Maxi", "Deluxe")  # by rules id
JOBS = 2  # emulator processes at a time
OUT = BUILD / "bench_pico.json"
DOC = ROOT / "docs" / "PERFORMANCE.md"
HEAP_STEP = 4096  # the .mpy bisections' resolution (the .uf2's: 1 KB, tools/uf2/heap.py)

# One line of the report: what is budgeted, its target, the layout measured, the figure and
# the verdict (True, False, or None where there is no target to judge).
Row = namedtuple("Row", "budget target layout figure ok")


def log(msg):
    sys.stderr.write("[bench-pico %s] %s\n" % (time.strftime("%H:%M:%S"), msg))
    sys.stderr.flush()


def wire(rec):
    """I2C bytes on the wire for a record: data after the address, plus one address each."""
    return rec[4] + rec[5]


def pass_ms(rec):
    """The pass on the emulated clock plus the modelled I2C time of what it sent."""
    return (rec[2] + wire(rec) * I2C_US_PER_BYTE) / 1000


# ---------------------------------------------------------------- measuring
def play(fw, turns):
    """A 1-player game through the buttons with a tour of menu, pages and cursors."""
    p = pico.probe({"players": 1, "tour": 1, "turns": turns}, fw)
    res = {"completed": p.completed, "faults": p.faults()[:5],
           "sampling": " ".join(p.summary.get("sampling", ["?"])), "actions": {}, "idle": {}}
    for kind in ACTIONS:
        recs = [r for r in p.records if r[0] == kind]
        if recs:
            allocs = [r[3] for r in recs if r[3] is not None]
            res["actions"][kind] = {
                "n": len(recs), "alloc_max": max(allocs) if allocs else None,
                "ms_max": round(max(pass_ms(r) for r in recs), 1),
                "ms_median": round(statistics.median(pass_ms(r) for r in recs), 1),  # power
                "emulated_ms_max": round(max(r[2] for r in recs) / 1000, 1),
                "i2c_median": statistics.median(wire(r) for r in recs)}
    every = [r for r in p.records if r[0] in ACTIONS]
    res["i2c_median_all"] = statistics.median(wire(r) for r in every) if every else None
    saves = [r for r in p.records if r[0] == "save"]
    if saves:  # the pass after a scored box (or undo): its log line and the game's save
        res["save"] = {"ms_max": round(max(r[2] for r in saves) / 1000, 1)}
    anim = [r for r in p.records if r[0] == "anim"]
    if anim:
        res["anim_ms_max"] = round(max(pass_ms(r) for r in anim), 1)
    for st, (n, alloc, mx) in p.idle.items():
        res["idle"][st] = {"sampled": n, "alloc_per_pass": alloc / n if n else None,
                           "ms_max": mx / 1000}
    return res


def cpu(fw, level, rid, turns, tables):
    p = pico.probe({"players": 4, "cpus": 4, "level": level, "rules": rid, "turns": turns,
                    "record": 1}, fw, tables=tables)
    ms = [pass_ms(r) for r in p.records if r[0] in ("cpu", "save")]  # a CPU's save too
    passes = p.summary.get("passes", [])  # also the passes that drew nothing (imports)
    whole = (int(passes[passes.index("max_cpu_us") + 1]) / 1000 if "max_cpu_us" in passes
             else None)
    return {"level": LEVELS[level], "rules": rid, "passes": len(ms), "any_pass_max_ms": whole,
            "max_ms": round(max(ms), 1) if ms else None, "over_50": sum(m > 50 for m in ms),
            "completed": p.completed, "faults": p.faults()[:3]}


def heap(fw, opts, tables, lo=48 * 1024, hi=176 * 1024):
    """Smallest free heap (KB) that completes the scenario, in HEAP_STEP steps."""
    def completes(steps):
        p = pico.probe(dict(opts, record=0), fw, free=steps * HEAP_STEP, tables=tables)
        turn = int(p.summary.get("game", ["", "", "", "0"])[3])
        ok = p.completed and not p.faults() and turn >= opts.get("turns", 1)
        log("  heap %s %s free=%d: %s" % (fw, opts, steps * HEAP_STEP, "ok" if ok else "fails"))
        return ok

    x = smallest_heap(completes, lo // HEAP_STEP, hi // HEAP_STEP)
    return None if x is None else x * HEAP_STEP // 1024


def repl_free(fw):
    """Free heap at the REPL with the .mpy layout on the flash: what a game can have."""
    out, err = pico.run_code("import gc\ngc.collect()\nprint('FREE', gc.mem_free())", fw)
    words = out.split()
    return int(words[words.index("FREE") + 1]) if "FREE" in words else None


def ctrlc(fw, screen):
    opts = {"players": 2, "cpus": 1, "arm": screen, "tour": 1 if screen in ("menu", "scores")
            else 0, "record": 0}
    p = pico.probe(opts, fw, ctrlc_delays=(137,))
    c = (p.raw.get("ctrlc") or [{}])[0]
    return {"screen": screen, "tries": c.get("tries"), "ms": c.get("replMs")}


def reset(fw=pico.DEFAULT_FW, firmware=None):
    """Power-on to the title frame (main.py, or the .uf2's frozen entry), and a Ctrl-C."""
    r = pico.boot_main(2500, fw, ctrlc_at=1500, firmware=firmware)
    c = (r.get("ctrlc") or [{}])[0]
    return {"title_ms": r.get("titleMs"), "ctrlc_tries": c.get("tries")}


def uf2_heap4(uf2):
    """Smallest free heap (KB) of the all-Expert 4-seat Yahtzee game on the frozen .uf2."""
    def completes(kb):
        ok = uf2_heap.game(kb * 1024, 4, 0, uf2=uf2)["completed"]
        log("  heap uf2 free=%d KB: %s" % (kb, "ok" if ok else "fails"))
        return ok

    return smallest_heap(completes, 44, 60, JOBS)


def jobs_for(args, tables, uf2):
    fws = args.fw.split(",")
    skip = set(filter(None, args.skip.split(",")))
    jobs = []
    for fw in fws:
        jobs += [(fw, "reset", lambda fw=fw: reset(fw)),
                 (fw, "play", lambda fw=fw: play(fw, args.turns))]
        if "ctrlc" not in skip:
            jobs += [(fw, "ctrlc " + s, lambda fw=fw, s=s: ctrlc(fw, s)) for s in CTRLC_SCREENS]
        if "cpu" not in skip:
            jobs += [(fw, "cpu %d %d" % (lvl, rid), lambda fw=fw, lvl=lvl, rid=rid:
                      cpu(fw, lvl, rid, args.cpu_turns, tables))
                     for rid in (range(len(RULE_SETS)) if args.all else (0,))
                     for lvl in map(int, args.levels.split(","))]
        if "heap" not in skip:
            four = {"players": 4, "cpus": 4, "level": 3, "turns": args.cpu_turns}
            jobs += [(fw, "repl free", lambda fw=fw: repl_free(fw)),
                     (fw, "heap 1p", lambda fw=fw: heap(fw, {"players": 1,
                                                            "turns": args.turns}, tables)),
                     (fw, "heap 4cpu", lambda fw=fw, four=four: heap(fw, four, tables))]
    if uf2 and "uf2" not in skip:
        jobs.append(("uf2", "reset", lambda: reset(firmware=uf2)))
        if "heap" not in skip:
            jobs.append(("uf2", "heap 4cpu", lambda: uf2_heap4(uf2)))
    return fws, jobs


def run_all(args):
    tables = all((ROOT / "tables" / n).exists() for n in ("yahtzee.bin", "yatzy.bin"))
    uf2 = uf2_heap.UF2 if uf2_heap.UF2.exists() else None
    fws, jobs = jobs_for(args, tables, uf2)
    pico.install()
    for probe, with_tables in ((True, tables), (False, tables)):
        pico.image(probe, with_tables)  # staged once, before the parallel runs
    rep = {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "version": version(),
           "turns": args.turns, "cpu_turns": args.cpu_turns, "expert_tables": tables,
           "fws": fws, "uf2": uf2 is not None, "command": command(args)}
    if args.resume and OUT.exists():  # keep what a cut-short run already measured
        old = json.loads(OUT.read_text())
        for key in [*fws, "uf2"]:
            for name, out in old.get(key, {}).items():
                if out is not None and not (isinstance(out, dict) and "error" in out):
                    rep.setdefault(key, {})[name] = out
    jobs = [j for j in jobs if j[1] not in rep.get(j[0], {})]
    # the quick rows first, the bisections last
    jobs.sort(key=lambda j: ([j[1].startswith(k) for k in ("heap", "cpu", "ctrlc")], j[:2]))

    def one(job):
        where, name, fn = job
        t0 = time.time()
        try:
            out = fn()
        except Exception as e:  # one failed run must not lose the others
            out = {"error": str(e)[-300:]}
        log("%s %s: %.0f s" % (where, name, time.time() - t0))
        return where, name, out

    OUT.parent.mkdir(exist_ok=True)
    with ThreadPoolExecutor(JOBS) as ex:
        for where, name, out in ex.map(one, jobs):
            rep.setdefault(where, {})[name] = out
            OUT.write_text(json.dumps(dict(rep, partial=True), indent=1))
    rep.pop("partial", None)
    return rep


def version():
    """The firmware's version as `make uf2` stamps it (git describe)."""
    r = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=ROOT,
                       capture_output=True, text=True)
    return r.stdout.strip() or "unknown"


def command(args):
    given = [a for a in sys.argv[1:] if a != "--resume"] if args.argv is None else args.argv
    return " ".join([".venv/bin/python tools/bench_pico.py", *given])


# ---------------------------------------------------------------- the report
def fmt(x, unit, none="-"):
    if isinstance(x, float):
        x = int(x) if x == int(x) else round(x, 1)
    return none if x is None else "%s %s" % (x, unit)


def within(xs, limit):
    xs = [x for x in xs if x is not None]
    return all(x <= limit for x in xs) if xs else None


def mpy_rows(rep):
    """The budgets of DESIGN.md on the .mpy layout, per stock firmware measured."""
    rows = []
    for fw in rep.get("fws", []):
        r = rep.get(fw, {})
        lay = ".mpy, v" + fw
        p = r.get("play") or {}
        acts = p.get("actions") or {}
        allocs = {k: a["alloc_max"] for k, a in acts.items()}
        rows.append(Row("garbage per user action (max)", "0 B", lay, ", ".join(
            "%s %s" % (k, fmt(v, "B")) for k, v in allocs.items()) or "-",
            within(allocs.values(), 0)))
        idle = {k: v["alloc_per_pass"] for k, v in (p.get("idle") or {}).items()}
        rows.append(Row("garbage per idle pass", "0 B", lay, ", ".join(
            "%s %s" % (k, fmt(v, "B")) for k, v in idle.items()) or "-",
            within(idle.values(), 0)))
        ms = {k: a["emulated_ms_max"] for k, a in acts.items()}
        rows.append(Row("user action's pass, press to frame sent (max)", "at most 20 ms + I2C", lay,
                        ", ".join("%s %s" % (k, fmt(v, "ms")) for k, v in ms.items()) or "-",
                        within(ms.values(), 20)))
        rows.append(Row("I2C bytes per user action (median)", "at most 150 B", lay,
                        fmt(p.get("i2c_median_all"), "B"), within([p.get("i2c_median_all")],
                                                                  150)))
        rows.append(Row("roll animation frame + I2C (max)", "at most 50 ms", lay,
                        fmt(p.get("anim_ms_max"), "ms"), within([p.get("anim_ms_max")], 50)))
        save = (p.get("save") or {}).get("ms_max")
        rows.append(Row("a box's save, the pass after its frame (max)", "at most 50 ms", lay,
                        fmt(save, "ms"), within([save], 50)))
        for k in sorted(x for x in r if x.startswith("cpu ")):
            c = r[k]
            worst = max(c.get("max_ms") or 0, c.get("any_pass_max_ms") or 0) or None
            rows.append(Row("pass while a CPU plays (max): %s, %s" % (
                LEVELS[int(k.split()[1])], RULE_SETS[int(k.split()[2])]), "at most 50 ms", lay,
                fmt(worst, "ms", c.get("error", "-")), within([worst], 50)))
        title = (r.get("reset") or {}).get("title_ms")
        rows.append(Row("reset to the title frame", "at most 600 ms", lay, fmt(title, "ms"),
                        within([title], 600)))
        tries = {s: (r.get("ctrlc " + s) or {}).get("tries") for s in CTRLC_SCREENS}
        tries["boot"] = (r.get("reset") or {}).get("ctrlc_tries")
        rows.append(Row("Ctrl-C reaches the REPL (tries, per screen)", "1st try", lay,
                        ", ".join("%s %s" % (s, "-" if t is None else t)
                                  for s, t in tries.items()), within(tries.values(), 1)))
        one = r.get("heap 1p")
        rows.append(Row("smallest heap, 1-player game", "at most 112 KB", lay, fmt(one, "KB"),
                        within([one], 112)))
        four, free = r.get("heap 4cpu"), r.get("repl free")
        known = isinstance(four, (int, float)) and isinstance(free, int)
        spare = round(free / 1024 - four) if known else None
        rows.append(Row("heap to spare, 4 CPUs Expert, Yahtzee (%s)" % (
            "Expert's tables" if rep.get("expert_tables") else "no tables: plays as Normal"),
            "at least 24 KB", lay, "-" if spare is None else "%d KB (needs %s of %d KB)" % (
                spare, fmt(four, "KB")[:-3], free // 1024), None if spare is None else spare >= 24))
        rows.append(Row("button sampling running", "", lay, p.get("sampling", "-"), None))
    return rows


def uf2_rows(rep):
    """The frozen .uf2's budgets, or a note saying how to get them."""
    lay = "frozen .uf2, v1.28.0"
    if not rep.get("uf2"):
        return [Row("the frozen .uf2's rows", "", lay, "not measured: run `make uf2` first",
                    None)]
    r = rep.get("uf2", {})
    title = (r.get("reset") or {}).get("title_ms")
    four = r.get("heap 4cpu")
    return [Row("reset to the title frame", "at most 150 ms", lay, fmt(title, "ms"), within([title],
                                                                                    150)),
            Row("smallest heap, 4 CPUs Expert, Yahtzee", "at most 52 KB", lay, fmt(four, "KB"),
                within([four], 52))]


# The report's row builders, in order. Other measurements append theirs.
ROWS = [uf2_rows, mpy_rows]


def markdown(rep, rows):
    def verdict(ok):
        return "" if ok is None else ("pass" if ok else "**FAIL**")

    head = [
        "# PicoYacht performance",
        "",
        "Generated by `make bench-pico` (tools/bench_pico.py): do not edit by hand; the",
        "history of these figures is this file's git log. Budgets: ../shared/DESIGN.md.",
        "",
        "- Firmware: PicoYacht %s, measured %s" % (rep.get("version"), rep.get("when")),
        "- Where: MicroPython's real rp2 firmware on an emulated RP2040 (rp2040js); emulated",
        "  times are slightly optimistic. Games are played through the buttons: the first",
        "  %s turns of a 1-player game, %s turns of each CPU game." % (rep.get("turns"),
                                                                     rep.get("cpu_turns")),
        "- Command: `%s`" % rep.get("command"),
        "",
        "| budget | target | layout | measured | verdict |",
        "|---|---|---|---|---|",
    ]
    body = ["| %s | %s | %s | %s | %s |" % (r.budget, r.target, r.layout, r.figure,
                                             verdict(r.ok)) for r in rows]
    return "\n".join(head + body) + "\n"


def write_report(rep, path=DOC):
    rows = [row for build in ROWS for row in build(rep)]
    path.parent.mkdir(exist_ok=True)
    path.write_text(markdown(rep, rows))
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fw", default=pico.DEFAULT_FW, help="stock firmwares, e.g. 1.28.0,1.24.1")
    ap.add_argument("--turns", type=int, default=3, help="turns of each 1-player game")
    ap.add_argument("--cpu-turns", type=int, default=4, help="turns of each CPU game")
    ap.add_argument("--skip", default="", help="any of heap,cpu,ctrlc,uf2")
    ap.add_argument("--all", action="store_true", help="CPU passes for every rule set")
    ap.add_argument("--levels", default="1,2,3", help="CPU levels (1 Easy, 2 Normal, 3 Expert)")
    ap.add_argument("--table", help="rewrite the report from a saved JSON report and stop")
    ap.add_argument("--resume", action="store_true",
                    help="keep the rows build/bench_pico.json already has (a cut-short run)")
    a = ap.parse_args(argv)
    a.argv = argv
    if a.table:
        rep = json.loads(open(a.table).read())
    elif pico.node() is None:
        print("bench-pico: skipped, node is not installed")
        return 0
    else:
        t0 = time.time()
        rep = run_all(a)
        rep["seconds"] = round(time.time() - t0)
    rep["power"], power_lines = power_model.report(rep)  # hours of play, days asleep
    if not a.table:
        OUT.write_text(json.dumps(rep, indent=1))
    rows = write_report(rep)
    for r in rows:
        print("%-50s %-12s %-22s %s  %s" % (r.budget[:50], r.target, r.layout, r.figure,
                                            "" if r.ok is None else "pass" if r.ok else "FAIL"))
    print("\n".join(power_lines))
    print("\nwritten %s" % DOC.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
