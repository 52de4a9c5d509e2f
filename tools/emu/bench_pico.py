"""`make bench-pico`: the budgets judged on the emulated Pico, written to docs/PERFORMANCE.md.

The real MicroPython rp2 firmware on an emulated RP2040 (tools/emu/emulator.py), in the two layouts
a player can flash:
  uf2   the frozen build/picoyacht-pico.uf2 of `make uf2`: reset, the smallest heap per rule
        set (tools/emu/heap_budget.py), Expert's reads of a decision on each table of its
        ROMFS (tools/rigs/table_probe.py), and a CPU Expert decision's whole thinking over its
        loop passes in every game and option (tools/rigs/think_probe.py);
  mpy   `make flash`'s files on stock MicroPython (v1.28.0; --fw 1.28.0,1.24.1 adds more),
        played through the buttons by tools/rigs/pico_probe.py's player: garbage, pass
        times, I2C bytes, CPU passes, a game's start and end, reset, Ctrl-C, and the heap
        per rule set.
Parts: --only reset,play,ctrlc,cpu,game,heap,tables,think; --layout uf2 or mpy; --rules for
the heap, CPU and think rows (ids or names, default all); --sharp: the frozen heap and the
CPU pass rows with Sharp Dice;
--at-budget: one game at each heap row's budget instead of a bisection (on the .mpy layout,
a 4-seat game with the Pico's free heap less the spare the budget asks for). A run keeps
the rows of build/bench_pico.json it does not measure (--fresh drops them; --resume also
skips those already measured at this version), writes each figure there as it comes, then
rewrites docs/PERFORMANCE.md; a run with --only keeps the document's rows where that report
has nothing newer (perf_report.keep_committed), so a machine that has not run every part
loses none of them.
Nothing is asserted. Every run plays the same games (the probe's boot entropy is fixed).
"""

import argparse
import fcntl
import functools
import json
import re
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tools/, for paths
import paths

import device_tables
import emulator
import heap_budget
import perf_report
from perf_report import ACTIONS, CTRLC_SCREENS, LEVELS, UF2

I2C_US_PER_BYTE = 22.5  # 9 bits at 400 kHz
JOBS = 2  # emulator processes at a time
OUT = perf_report.REPORT
PARTS = ("reset", "play", "ctrlc", "cpu", "game", "heap", "tables", "think")
TABLE_DECISIONS = 100  # seeded decisions timed per table
# Bisection windows (KB): (lo known to fail, hi checked first, step). A game on the .mpy
# layout gets up to the Pico's whole free heap.
UF2_WINDOW = (44, 80, 1)
SHARP_RULES = (0, 1)  # the rule sets Sharp Dice plays in: Yahtzee, Yatzy
MPY_LO, MPY_STEP = 96, 4


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
    """A 1-player game through the buttons with a tour of menu, pages, cursors, box help."""
    p = emulator.probe({"players": 1, "tour": 1, "turns": turns}, fw)
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
    took = p.summary.get("help_import", [])  # box_help's import: B, us, B left after forget
    if len(took) == 3:  # and each opening's pass (us, B), the heap each closing kept (B)
        res["help"] = {"opens": [r[2:4] for r in p.records if r[:2] == ("help", "box_help")],
                       "kept": list(map(int, p.summary["help_kept"])),
                       "import": list(map(int, took))}
    for st, (n, alloc, mx, passes, us) in p.idle.items():
        res["idle"][st] = {"sampled": n, "alloc_per_pass": alloc / n if n else None,
                           "ms_max": mx / 1000, "passes": passes,
                           "ms_mean": round(us / passes / 1000, 3) if passes else None}
    return res


def cpu(fw, level, rid, turns, tables, sharp=False):
    p = emulator.probe({"players": 4, "cpus": 4, "level": level, "rules": rid, "turns": turns,
                    "record": 1, "sharp": int(sharp)}, fw, tables=tables)
    ms = [pass_ms(r) for r in p.records if r[0] in ("cpu", "save")]  # a CPU's save too
    passes = p.summary.get("passes", [])  # also the passes that drew nothing (imports)
    whole = (int(passes[passes.index("max_cpu_us") + 1]) / 1000 if "max_cpu_us" in passes
             else None)
    return {"level": LEVELS[level], "rules": rid, "passes": len(ms), "any_pass_max_ms": whole,
            "max_ms": round(max(ms), 1) if ms else None, "over_50": sum(m > 50 for m in ms),
            "completed": p.completed, "faults": p.faults()[:3]}


# bench games (part "game"): the probe's options, and how many starts the run makes (its
# last is measured: the second, after a game over or a quit)
GAMES = (
    ({"players": 1, "cpus": 0, "level": 3}, 1),  # a player's whole game
    ({"players": 1, "cpus": 1, "level": 3}, 1),  # an Expert CPU's whole game
    ({"demo": 1, "turns": 1}, 1),  # the title's Demo, its first turn
    ({"players": 1, "cpus": 0, "then": 1}, 2),  # a player's whole game, then Play again
    ({"players": 1, "cpus": 0, "turns": 1, "then": 2}, 2),  # a turn, Quit to title, Resume
)


def start_runs(records):
    """The probe's start records in runs, one a start: its key's pass, then each pass up to
    the game's first frame."""
    runs, last = [], None
    for r in records:
        if r[0] == "start":
            if last != "start":
                runs.append([])
            runs[-1].append(r)
        last = r[0]
    return runs


def game(fw, which):
    """One of GAMES. Its start: the key's pass (setup's Start, the title's Demo or Resume,
    game over's Play again), before I2C, then every pass up to the game's first frame; its
    end: every pass from the last box to the results, drawn or not (a key's keeps its
    kind)."""
    opts, nstarts = GAMES[which]
    p = emulator.probe(dict(opts, record=1), fw)
    ends = [r for r in p.records if r[0] == "end"]
    ms = [pass_ms(r) for r in ends]
    runs = start_runs(p.records)
    starts = runs[-1] if len(runs) == nstarts else []
    after = [pass_ms(r) for r in starts[1:]]
    return {"passes": len(ms), "max_ms": round(max(ms), 1) if ms else None,
            "results": any(r[1] == "over" for r in ends), "completed": p.completed,
            "start_key_ms": round(starts[0][2] / 1000, 1) if starts else None,
            "start_passes": len(after), "start_max_ms": round(max(after), 1) if after else None,
            "started": len(starts) > 1 and starts[-1][1] in ("play", "handover"),
            "faults": p.faults()[:3]}


def ctrlc(fw, screen):
    opts = {"players": 2, "cpus": 1, "arm": screen, "tour": 1 if screen in ("menu", "scores")
            else 0, "record": 0}
    p = emulator.probe(opts, fw, ctrlc_delays=(137,))
    c = (p.raw.get("ctrlc") or [{}])[0]
    return {"screen": screen, "tries": c.get("tries"), "ms": c.get("replMs")}


def reset(fw=emulator.DEFAULT_FW, firmware=None):
    """Power-on to the title frame (main.py, or the .uf2's frozen entry), and a Ctrl-C."""
    r = emulator.boot_main(2500, fw, ctrlc_at=1500, firmware=firmware)
    c = (r.get("ctrlc") or [{}])[0]
    return {"title_ms": r.get("titleMs"), "ctrlc_tries": c.get("tries")}


def tables(uf2):
    """{table file: its decisions' reads}, on each table in the .uf2's ROMFS (one exec
    each: an exec has a minute of wall time)."""
    run = ("import os, table_probe\ntry:\n    os.stat(%r)\nexcept OSError:\n    pass\n"
           "else:\n    table_probe.main(%r, %d)")
    steps = [{"put": ["/table_probe.py", (paths.RIGS / "table_probe.py").read_text()]}]
    for name in device_tables.ORDER:
        path = "/rom/tables/" + name
        steps.append({"exec": run % (path, path, TABLE_DECISIONS)})
    steps.append({"put": ["/main.py", "print('TABLES_DONE')\n"]})
    r = emulator.run_frozen(uf2, steps, "TABLES_DONE")
    out, errors = {}, [r.get("error") or ""]
    for done in r.get("execs", []):
        errors.append(done.get("err", ""))
        p = done.get("out", "").split()
        if p[:1] == ["LOOKUP"] and len(p) == 7:
            out[p[1].rsplit("/", 1)[1]] = {
                "decisions": int(p[2]), "median_ms": int(p[3]) / 1000, "max_ms": int(p[4]) / 1000,
                "rows": int(p[5]), "alloc_max": int(p[6])}
    return out or {"error": ("".join(errors) or "no reads timed")[-300:]}


def think(uf2, rid, joker, sharp, turns):
    """The figures of a 4-seat all-Expert game's first `turns` turns (think_probe's THINK_END)."""
    main = "import think_probe\nthink_probe.main(%d, %d, %d, %d)\n" % (rid, joker, sharp, turns)
    rig = (paths.RIGS / "think_probe.py").read_text()
    r = emulator.run_frozen(uf2, [{"put": ["/think_probe.py", rig]}, {"put": ["/main.py", main]}],
                            "THINK_END.*\n|" + heap_budget.FAILURE, sim_s=30 * turns)
    out, failed = r.get("out", ""), r.get("error") or ""
    end = None if failed or re.search(heap_budget.FAILURE, out) else re.search(
        r"THINK_END (\{.*\})", out)
    return (end and json.loads(end.group(1))) or {"error": failed + out[-300:]}


def smallest(layout, rid, seats, window, a):
    """The heap row's figure: the smallest KB that completes, or why it cannot say."""
    lo, hi, step = window
    if a.at_budget:  # one game at the budget: pass or fail, no bisection
        kb = heap_budget.uf2_budget_kb(rid) if layout == "uf2" else (
            heap_budget.MPY_ONE_SEAT_KB if seats == 1 else hi - heap_budget.MPY_SPARE_KB)
        ok, why = heap_budget.completes(layout, rid, kb * 1024, seats, sharp=a.sharp)
        return {"completes": kb} if ok else {
            "error": "does not complete with %d KB: %s" % (kb, (why or "")[-200:])}
    if a.window:  # the answer roughly known: fewer runs
        lo, hi = map(int, a.window.split(","))
    kb, failure = heap_budget.smallest(layout, rid, seats, lo, hi, step=step, jobs=a.jobs, log=log,
                                       sharp=a.sharp)
    if kb is None:
        return {"error": "does not complete with %d KB: %s" % (hi, (failure or "")[-200:])}
    return kb


def jobs_for(a, tables, uf2):
    """(where, name, function) for every measurement the arguments select."""
    fws, rids = a.fw.split(","), heap_budget.rule_ids(a.rules)
    only, layouts = set(a.only.split(",")), set(a.layout.split(","))
    jobs = []
    if "mpy" in layouts:
        for fw in fws:
            if "reset" in only:
                jobs.append((fw, "reset", lambda fw=fw: reset(fw)))
            if "play" in only:
                jobs.append((fw, "play", lambda fw=fw: play(fw, a.turns)))
            if "ctrlc" in only:
                jobs += [(fw, "ctrlc " + s, lambda fw=fw, s=s: ctrlc(fw, s)) for s in CTRLC_SCREENS]
            if "game" in only:
                jobs += [(fw, "game %d" % c, lambda fw=fw, c=c: game(fw, c))
                         for c in range(len(GAMES))]
            if "cpu" in only:
                jobs += [(fw, "cpu %d %d%s" % (lvl, rid, " sharp" * a.sharp),
                          lambda fw=fw, lvl=lvl, rid=rid:
                          cpu(fw, lvl, rid, a.cpu_turns, tables, a.sharp))
                         for rid in rids for lvl in map(int, a.levels.split(","))
                         if rid == 0 or lvl == 3]  # every level on Yahtzee, Expert elsewhere
        if "heap" in only:
            fw = emulator.DEFAULT_FW  # the bisections run on the stock firmware a player gets
            free = functools.cache(lambda: heap_budget.pico_free() // 1024)  # KB, measured once
            jobs.append((fw, "repl free", lambda: free() * 1024))
            if a.seats in (0, 1) and 0 in rids:
                jobs.append((fw, "heap 0 1", lambda: smallest(
                    "mpy", 0, 1, (MPY_LO, free(), MPY_STEP), a)))
            if a.seats in (0, 4):
                jobs += [(fw, "heap %d 4" % rid, lambda rid=rid: smallest(
                    "mpy", rid, 4, (MPY_LO, free(), MPY_STEP), a)) for rid in rids]
    if "uf2" in layouts and uf2:
        if "reset" in only:
            jobs.append((UF2, "reset", lambda: reset(firmware=uf2)))
        if "tables" in only:
            jobs.append((UF2, "tables", lambda: tables(uf2)))
        if "think" in only:
            jobs += [(UF2, "think %d %d %d" % c[1:], lambda c=c: think(uf2, *c[1:], a.think_turns))
                     for c in device_tables.combinations() if c[1] in rids]
        if "heap" in only and a.seats in (0, 4):
            jobs += [(UF2, "heap %d 4%s" % (rid, " sharp" if a.sharp else ""),
                      lambda rid=rid: smallest("uf2", rid, 4, UF2_WINDOW, a)) for rid in rids
                     if not a.sharp or rid in SHARP_RULES]
    return fws, jobs


def run_all(a):
    tables = all((paths.ROOT / "tables" / n).exists() for n in ("yahtzee.bin", "yatzy.bin"))
    uf2 = heap_budget.UF2 if heap_budget.UF2.exists() else None
    if uf2 is None and "uf2" in a.layout:
        log("no %s: the frozen rows need `make uf2` first" % heap_budget.UF2.name)
    emulator.install()
    for probe, with_tables in ((True, tables), (False, tables)):
        emulator.image(probe, with_tables)  # staged once, before the parallel runs
    fws, jobs = jobs_for(a, tables, uf2)
    meta = dict(when=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), version=version(),
                turns=a.turns, cpu_turns=a.cpu_turns, expert_tables=tables,
                command=command(a), heap_fw=emulator.DEFAULT_FW)
    rep = merge(meta, fws, fresh=a.fresh)
    if a.resume:  # skip what this version already measured without an error
        jobs = [j for j in jobs if rep["at"].get("%s %s" % j[:2]) != meta["version"]
                or isinstance(rep.get(j[0], {}).get(j[1]), dict) and "error" in rep[j[0]][j[1]]]
    # the quick rows first, the bisections last
    jobs.sort(key=lambda j: ([j[1].startswith(k) for k in ("heap", "cpu", "ctrlc")], j[:2]))
    log("%d runs: %s" % (len(jobs), ", ".join("%s %s" % j[:2] for j in jobs)))

    def one(job):
        where, name, fn = job
        t0 = time.time()
        try:
            out = fn()
        except Exception as e:  # one failed run must not lose the others
            out = {"error": str(e)[-300:]}
        log("%s %s: %.0f s" % (where, name, time.time() - t0))
        return merge(meta, fws, (where, name, out, round(time.time() - t0)))

    with ThreadPoolExecutor(a.runs) as ex:
        for done in as_completed([ex.submit(one, j) for j in jobs]):
            rep = done.result()
    return rep


def merge(meta, fws, result=None, fresh=False):
    """build/bench_pico.json with this run's header and one more result (where, name, out,
    seconds) laid over what it holds: locked, so that runs of different parts at once (two
    `make bench-pico PICOARGS=...`) each keep the other's rows."""
    OUT.parent.mkdir(exist_ok=True)
    with open(OUT.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        rep = json.loads(OUT.read_text()) if OUT.exists() and not fresh else {}
        rep.update(meta, fws=sorted(set(rep.get("fws", [])) | set(fws)))
        at, took = rep.setdefault("at", {}), rep.setdefault("took_s", {})
        if result:
            where, name, out, seconds = result
            rep.setdefault(where, {})[name] = out
            at["%s %s" % (where, name)] = meta["version"]  # what it measured
            took["%s %s" % (where, name)] = seconds
        OUT.write_text(json.dumps(rep, indent=1))
    return rep


def version():
    """The firmware's version as `make uf2` stamps it (git describe)."""
    r = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=paths.ROOT,
                       capture_output=True, text=True)
    return r.stdout.strip() or "unknown"


def command(args):
    given = [a for a in sys.argv[1:] if a != "--resume"] if args.argv is None else args.argv
    return " ".join([".venv/bin/python tools/emu/bench_pico.py", *given])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", default=",".join(PARTS), help="any of " + ",".join(PARTS))
    ap.add_argument("--layout", default="uf2,mpy", help="uf2 (frozen), mpy, or both")
    ap.add_argument("--rules", default="all", help="heap and CPU rows: ids or names, or all")
    ap.add_argument("--seats", type=int, default=0, help="heap rows: 1 or 4 seats (0: both)")
    ap.add_argument("--window", help="heap rows: LO,HI KB to bisect (LO fails, HI completes)")
    ap.add_argument("--at-budget", action="store_true",
                    help="heap rows: one game at the budget's KB, not a bisection")
    ap.add_argument("--sharp", action="store_true",
                    help="frozen heap and CPU pass rows: Sharp Dice on (Yahtzee and Yatzy only)")
    ap.add_argument("--jobs", type=int, default=1, help="heap rows: probes at once in each")
    ap.add_argument("--fw", default=emulator.DEFAULT_FW, help="stock firmwares, e.g. 1.28.0,1.24.1")
    ap.add_argument("--turns", type=int, default=3, help="turns of each 1-player game")
    ap.add_argument("--cpu-turns", type=int, default=4, help="turns of each CPU game")
    ap.add_argument("--think-turns", type=int, default=8, help="turns of each thinking game")
    ap.add_argument("--runs", type=int, default=JOBS, help="emulator runs at once")
    ap.add_argument("--levels", default="1,2,3", help="CPU levels (1 Easy, 2 Normal, 3 Expert)")
    ap.add_argument("--fresh", action="store_true", help="drop the rows of earlier runs")
    ap.add_argument("--resume", action="store_true",
                    help="skip what build/bench_pico.json has from this version (a cut-short run)")
    a = ap.parse_args(argv)
    a.argv = argv
    if emulator.node() is None:
        print("bench-pico: skipped, node is not installed")
        return 0
    t0 = time.time()
    run_all(a)
    rep = merge({"seconds": round(time.time() - t0)}, [])  # the run's time, for the header
    for r in perf_report.write(rep):
        print("%-55s %-22s %-5s %s  %s" % (r.budget[:55], r.target, r.layout, r.figure,
                                          "" if r.ok is None else "pass" if r.ok else "FAIL"))
    print("\nwritten %s in %s" % (perf_report.DOC.relative_to(paths.ROOT),
                                   perf_report.duration(rep["seconds"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
