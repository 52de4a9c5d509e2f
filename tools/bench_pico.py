"""`make bench-pico` (part of `make bench`): the budgets judged on the emulated Pico.

The real MicroPython rp2 firmware (v1.28.0, and v1.24.1 beside it) on an emulated RP2040
(tools/pico.py), with `make flash`'s layout on its flash, played through the buttons by
tools/pico_probe.py's player. One table, also written to build/bench_pico.json:

  heap      smallest free heap that completes the scenario (a blocker leaves X bytes free,
            bisection to 8 KB): a 1-player game through the buttons, an all-CPU 4-seat
            game with Expert's tables (skipped with a note when `make tables` has not run)
            and without them. --turns limits every game to its first N turns.
  alloc     gc.mem_alloc() delta per idle pass (per screen) and per user action
  response  a user action's loop pass (press seen to frame sent) plus 22.5 us per I2C
            byte; roll animation frames; reset (power-on) to the title frame on the panel
            (and to the init's blank frame, which earlier runs reported as the title)
  display   I2C bytes per action (median, max) and how many actions sent a full frame
  cpu       max and p99 loop pass while a CPU plays, per level (and rule set with --all)
  console   one Ctrl-C as mpremote sends it reaching the REPL, per screen: tries, ms
  sampling  the mode board_pico really runs
Every run plays the same games (the probe's boot entropy is fixed: its opts "seed").
Nothing is asserted. Emulated times are somewhat optimistic (no XIP cache misses).
Options: --fw 1.28.0,1.24.1  --turns N  --cpu-turns N  --levels 1,2,3  --skip heap,cpu,ctrlc
--all (every rule set)  --resume (keep a cut-short run's rows)  --table FILE.
"""

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pico  # noqa: E402
import power_model  # noqa: E402

ROOT = pico.ROOT
I2C_US_PER_BYTE = 22.5  # 9 bits at 400 kHz
FULL_FRAME = 1024
ACTIONS = ("hold", "cursor", "card_cursor", "roll", "score", "menu", "page")
CTRLC_SCREENS = ("title", "setup", "play", "card", "handover", "menu", "scores", "anim", "cpu",
                 "over")
LEVELS = {1: "Easy", 2: "Normal", 3: "Expert"}
RULE_SETS = ("Yahtzee", "Yatzy", "Casino 5", "Casino 6", "Maxi", "Deluxe")  # by rules id
BUDGET = {"heap_kb": 80, "action_ms": 20, "anim_ms": 33, "i2c_median": 150, "reset_ms": 150,
          "cpu_ms": 50, "ctrlc_ms": 1000}
JOBS = 2  # emulator processes at a time
OUT = pico.BUILD / "bench_pico.json"


def log(msg):
    sys.stderr.write("[bench-pico %s] %s\n" % (time.strftime("%H:%M:%S"), msg))
    sys.stderr.flush()


def wire(rec):
    """I2C bytes on the wire for a record: data after the address, plus one address each."""
    return rec[4] + rec[5]


def pass_ms(rec):
    """The pass on the emulated clock plus the modelled I2C time of what it sent."""
    return (rec[2] + wire(rec) * I2C_US_PER_BYTE) / 1000


def p99(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(0.99 * len(xs)))] if xs else None


def play(fw, turns):
    """A 1-player game through the buttons with a tour of menu, pages and cursors."""
    p = pico.probe({"players": 1, "tour": 1, "turns": turns}, fw)
    res = {"completed": p.completed, "faults": p.faults()[:5],
           "sampling": " ".join(p.summary.get("sampling", ["?"])), "actions": {}, "idle": {}}
    for kind in ACTIONS:
        recs = [r for r in p.records if r[0] == kind]
        if not recs:
            continue
        allocs = [r[3] for r in recs if r[3] is not None]
        res["actions"][kind] = {
            "n": len(recs), "alloc_max": max(allocs) if allocs else None,
            "alloc_median": statistics.median(allocs) if allocs else None,
            "ms_median": round(statistics.median(pass_ms(r) for r in recs), 1),
            "ms_max": round(max(pass_ms(r) for r in recs), 1),
            "emulated_ms_max": round(max(r[2] for r in recs) / 1000, 1),
            "i2c_median": statistics.median(wire(r) for r in recs),
            "i2c_max": max(wire(r) for r in recs),
            "full_frames": sum(r[4] >= FULL_FRAME for r in recs)}
    every = [r for r in p.records if r[0] in ACTIONS]
    res["i2c_median_all"] = statistics.median(wire(r) for r in every) if every else None
    saves = [r for r in p.records if r[0] == "save"]
    if saves:  # the pass after a scored box (or undo): its log line and the game's save
        allocs = [r[3] for r in saves if r[3] is not None]
        res["save"] = {"n": len(saves), "alloc_max": max(allocs) if allocs else None,
                       "alloc_median": statistics.median(allocs) if allocs else None,
                       "ms_max": round(max(r[2] for r in saves) / 1000, 1)}
    anim = [r for r in p.records if r[0] == "anim"]
    if anim:
        res["anim_ms_max"] = round(max(pass_ms(r) for r in anim), 1)
        res["anim_ms_median"] = round(statistics.median(pass_ms(r) for r in anim), 1)
    for st, (n, alloc, mx) in p.idle.items():
        res["idle"][st] = {"sampled": n, "alloc_per_pass": alloc / n if n else None,
                           "ms_max": mx / 1000}
    passes = p.summary.get("passes", [])  # N max_cpu_us X free0 Y max_press_pass_us Z
    if "max_press_pass_us" in passes:
        us = int(passes[passes.index("max_press_pass_us") + 1])
        res["press_pass_ms_max"] = round(us / 1000, 1)  # the whole pass: frame, then save
    res["wall_s"] = p.raw["wallMs"] / 1000
    return res


def cpu(fw, level, rid, turns, tables):
    p = pico.probe({"players": 4, "cpus": 4, "level": level, "rules": rid, "turns": turns,
                    "record": 1}, fw, tables=tables)
    ms = [pass_ms(r) for r in p.records if r[0] in ("cpu", "save")]  # a CPU's save too
    passes = p.summary.get("passes", [])  # also the passes that drew nothing (imports)
    whole = (int(passes[passes.index("max_cpu_us") + 1]) / 1000 if "max_cpu_us" in passes
             else None)
    return {"level": LEVELS[level], "rules": rid, "passes": len(ms), "any_pass_max_ms": whole,
            "max_ms": round(max(ms), 1) if ms else None,
            "p99_ms": round(p99(ms), 1) if ms else None,
            "over_50": sum(m > 50 for m in ms), "completed": p.completed,
            "faults": p.faults()[:3], "wall_s": p.raw["wallMs"] / 1000}


def heap(fw, opts, tables, lo=48 * 1024, hi=176 * 1024):
    def completes(free):
        p = pico.probe(dict(opts, record=0), fw, free=free, tables=tables)
        turn = int(p.summary.get("game", ["", "", "", "0"])[3])
        ok = p.completed and not p.faults() and turn >= opts.get("turns", 1)
        log("  heap %s %s free=%d: %s" % (fw, opts, free, "ok" if ok else "fails"))
        return ok

    x = pico.smallest_heap(completes, lo, hi, 8192)
    return None if x is None else round(x / 1024, 1)


def ctrlc(fw, screen):
    opts = {"players": 2, "cpus": 1, "arm": screen, "tour": 1 if screen in ("menu", "scores")
            else 0, "record": 0}
    p = pico.probe(opts, fw, ctrlc_delays=(137,))
    c = (p.raw.get("ctrlc") or [{}])[0]
    return {"screen": screen, "tries": c.get("tries"), "ms": c.get("replMs"),
            "first_try": c.get("tries") == 1 and c.get("replMs") is not None
            and c["replMs"] <= 1000, "swallowed": "KeyboardInterrupt" in p.error
            and c.get("tries", 0) > 1}


def reset(fw):
    """Power-on to the title frame with main.py (the real layout), and a Ctrl-C on it."""
    r = pico.boot_main(2500, fw, ctrlc_at=1500)
    c = (r.get("ctrlc") or [{}])[0]
    # display_ms: the init's blank frame has reached the panel; title_ms: the title has.
    return {"title_ms": r.get("titleMs"), "display_ms": r.get("firstFrameMs"),
            "ctrlc_tries": c.get("tries"),
            "ctrlc_ms": c.get("replMs"),
            "console": [ln for ln in r["out"].splitlines() if "PicoYacht" in ln][:3]}


def run_all(args):
    fws = args.fw.split(",")
    skip = set(filter(None, args.skip.split(",")))
    tables = all((ROOT / "tables" / n).exists() for n in ("yahtzee.bin", "yatzy.bin"))
    jobs = []
    for fw in fws:
        jobs.append((fw, "reset", lambda fw=fw: reset(fw)))
        jobs.append((fw, "play", lambda fw=fw: play(fw, args.turns)))
        if "ctrlc" not in skip:
            for s in CTRLC_SCREENS:
                jobs.append((fw, "ctrlc " + s, lambda fw=fw, s=s: ctrlc(fw, s)))
        if "cpu" not in skip:
            rids = range(len(RULE_SETS)) if args.all else (0,)
            for rid in rids:
                for lvl in map(int, args.levels.split(",")):
                    jobs.append((fw, "cpu %d %d" % (lvl, rid),
                                 lambda fw=fw, lvl=lvl, rid=rid: cpu(fw, lvl, rid,
                                                                     args.cpu_turns, tables)))
        if "heap" not in skip:
            jobs.append((fw, "heap 1p", lambda fw=fw: heap(
                fw, {"players": 1, "turns": args.turns}, tables)))
            jobs.append((fw, "heap 4cpu notables", lambda fw=fw: heap(
                fw, {"players": 4, "cpus": 4, "level": 3, "turns": args.cpu_turns}, False)))
            if tables:
                jobs.append((fw, "heap 4cpu tables", lambda fw=fw: heap(
                    fw, {"players": 4, "cpus": 4, "level": 3, "turns": args.cpu_turns}, True)))
    pico.install()
    for probe, with_tables in ((True, True), (True, False), (False, True)):
        pico.image(probe, with_tables)  # staged once, before the parallel runs

    def one(job):
        fw, name, fn = job
        t0 = time.time()
        try:
            out = fn()
        except Exception as e:  # one failed run must not lose the others
            out = {"error": str(e)[-300:]}
        log("%s %s: %.0f s" % (fw, name, time.time() - t0))
        return fw, name, out

    rep = {"when": time.strftime("%Y-%m-%d %H:%M"), "turns": args.turns,
           "cpu_turns": args.cpu_turns, "expert_tables": tables, "budget": BUDGET}
    if args.resume and OUT.exists():  # keep what a cut-short run already measured
        old = json.loads(OUT.read_text())
        for fw in fws:
            for name, out in old.get(fw, {}).items():
                if "error" not in out if isinstance(out, dict) else out is not None:
                    rep.setdefault(fw, {})[name] = out
    jobs = [j for j in jobs if j[1] not in rep.get(j[0], {})]
    # the quick rows of every firmware first, the bisections last
    jobs.sort(key=lambda j: ([j[1].startswith(k) for k in ("heap", "cpu", "ctrlc")], j))
    with ThreadPoolExecutor(JOBS) as ex:
        for fw, name, out in ex.map(one, jobs):
            rep.setdefault(fw, {})[name] = out
            OUT.write_text(json.dumps(dict(rep, partial=True), indent=1))
    rep.pop("partial", None)
    return rep


def verdict(ok):
    return "" if ok is None else ("pass" if ok else "FAIL")


def table(rep):
    fws = [k for k in rep if k in pico.FIRMWARES]
    rows = []

    def row(name, budget, vals, ok=None):
        rows.append((name, budget, vals, ok))

    def get(fw, *path):
        x = rep.get(fw, {})
        for k in path:
            x = x.get(k) if isinstance(x, dict) else None
        return x

    def each(fn):
        return [fn(fw) for fw in fws]

    def action_rows(label, budget, cell, ok):
        """One row per user action the runs saw: cell(figures) per firmware, ok(all)."""
        for kind in ACTIONS:
            a = each(lambda fw, kind=kind: get(fw, "play", "actions", kind))
            if any(a):
                row(label + kind, budget, ["-" if not x else cell(x) for x in a], ok(a))

    for what, key in (("1-player game", "heap 1p"), ("4 CPUs, Expert, tables", "heap 4cpu tables"),
                      ("4 CPUs, Expert, no tables", "heap 4cpu notables")):
        vals = each(lambda fw, key=key: get(fw, key))
        if key == "heap 4cpu tables" and not rep["expert_tables"]:
            row("heap: " + what, "<= 80 KB", ["skipped: no tables (make tables)"] * len(fws))
            continue
        nums = [v for v in vals if isinstance(v, (int, float))]
        row("heap: " + what, "<= 80 KB", ["-" if v is None else (
            "%s KB" % v if isinstance(v, (int, float)) else "error") for v in vals],
            all(v <= BUDGET["heap_kb"] for v in nums) if nums else None)
    action_rows("alloc: ", "0 B", lambda x: "%s B (max %s)" % (x["alloc_median"], x["alloc_max"]),
                lambda a: all(x["alloc_max"] == 0 for x in a if x and x["alloc_max"] is not None))
    idle = each(lambda fw: get(fw, "play", "idle") or {})
    for st in sorted(set().union(*[set(i) for i in idle])):
        vals = [i.get(st) for i in idle]
        row("alloc: idle pass, " + st, "0 B", ["-" if not v or v["alloc_per_pass"] is None
                                               else "%.0f B (%d sampled)" % (
                                                   v["alloc_per_pass"], v["sampled"])
                                               for v in vals],
            all(v["alloc_per_pass"] == 0 for v in vals if v and v["alloc_per_pass"] is not None))
    action_rows("pass + I2C: ", "<= 20 ms + I2C",
                lambda x: "%s ms (max %s)" % (x["ms_median"], x["ms_max"]),
                lambda a: all(x["emulated_ms_max"] <= BUDGET["action_ms"] for x in a
                              if x and "emulated_ms_max" in x)
                if any("emulated_ms_max" in (x or {}) for x in a) else None)
    action_rows("I2C bytes: ", "median <= 150",
                lambda x: "%s B (max %s, %d full)" % (x["i2c_median"], x["i2c_max"],
                                                      x["full_frames"]),
                lambda a: None)
    med = each(lambda fw: get(fw, "play", "i2c_median_all"))
    row("I2C bytes: every action, median", "<= 150", ["-" if m is None else "%s B" % m
                                                      for m in med],
        all(m <= BUDGET["i2c_median"] for m in med if m is not None) if any(med) else None)
    sv = each(lambda fw: get(fw, "play", "save"))
    row("alloc: a box's save, the pass after", "(part of score)",
        ["-" if not v else "%s B (max %s)" % (v["alloc_median"], v["alloc_max"]) for v in sv])
    row("pass: a box's save, the pass after", "<= 50 ms",
        ["-" if not v else "max %s ms" % v["ms_max"] for v in sv],
        all(v["ms_max"] <= BUDGET["cpu_ms"] for v in sv if v) if any(sv) else None)
    an = each(lambda fw: get(fw, "play", "anim_ms_max"))
    row("roll animation frame, max", "<= 33 ms", ["-" if v is None else "%s ms" % v for v in an],
        all(v <= BUDGET["anim_ms"] for v in an if v is not None) if any(an) else None)
    rs = each(lambda fw: get(fw, "reset", "title_ms"))
    row("reset to title frame", "<= 150 ms", ["-" if v is None else "%.0f ms" % v for v in rs],
        all(v <= BUDGET["reset_ms"] for v in rs if v is not None) if any(rs) else None)
    ds = each(lambda fw: get(fw, "reset", "display_ms"))
    row("reset to display initialised", "", ["-" if v is None else "%.0f ms" % v for v in ds],
        None)
    cpu_keys = sorted({k for fw in fws for k in rep.get(fw, {}) if k.startswith("cpu ")})
    for k in cpu_keys:
        vals = each(lambda fw, k=k: get(fw, k))
        name = "CPU pass max / p99: %s, %s" % (LEVELS[int(k.split()[1])],
                                                RULE_SETS[int(k.split()[2])])
        row(name, "<= 50 ms", ["-" if not v or v.get("max_ms") is None else (
            "%s / %s ms (%d of %d > 50); any pass %s ms" % (
                v["max_ms"], v["p99_ms"], v["over_50"], v["passes"], v.get("any_pass_max_ms")))
            for v in vals],
            all(max(v["max_ms"], v["any_pass_max_ms"] or 0) <= BUDGET["cpu_ms"]
                for v in vals if v and v.get("max_ms")))
    for s in CTRLC_SCREENS:
        vals = each(lambda fw, s=s: get(fw, "ctrlc " + s))
        if not any(vals):
            continue
        row("Ctrl-C to REPL: " + s, "1st try, <= 1 s", ["-" if not v or "tries" not in v else (
            "%s try, %s ms" % (v["tries"], v["ms"])) for v in vals],
            all(v.get("first_try") for v in vals if v and "tries" in v))
    c = each(lambda fw: get(fw, "reset", "ctrlc_tries"))
    row("Ctrl-C to REPL: title, main.py", "1st try, <= 1 s", ["-" if v is None else
                                                             "%s try, %s ms" % (
                                                                 v, get(fw, "reset", "ctrlc_ms"))
                                                             for v, fw in zip(c, fws, strict=True)],
        all(v == 1 for v in c if v is not None) if any(c) else None)
    row("sampling mode running", "", each(lambda fw: get(fw, "play", "sampling") or "-"))
    w1 = max(len(r[0]) for r in rows)
    w2 = max(len(r[1]) for r in rows)
    w3 = max(len(v) for r in rows for v in r[2][:1]) if rows else 10
    print("PicoYacht on the emulated Pico (%s; games: first %d turns, CPU games %d)" % (
        rep["when"], rep["turns"], rep["cpu_turns"]))
    print("%-*s  %-*s  %s" % (w1, "budget", w2, "target", "   ".join(
        "%-*s" % (w3, "v" + fw) for fw in fws)))
    for name, budget, vals, ok in rows:
        print("%-*s  %-*s  %s  %s" % (w1, name, w2, budget, "   ".join(
            "%-*s" % (w3, v) for v in vals), verdict(ok)))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fw", default="1.28.0,1.24.1")
    ap.add_argument("--turns", type=int, default=3, help="turns of each 1-player game")
    ap.add_argument("--cpu-turns", type=int, default=4, help="turns of each CPU game")
    ap.add_argument("--skip", default="", help="heap,cpu,ctrlc")
    ap.add_argument("--all", action="store_true", help="CPU passes for every rule set")
    ap.add_argument("--levels", default="1,2,3", help="CPU levels (1 Easy, 2 Normal, 3 Expert)")
    ap.add_argument("--table", help="print the table of a saved JSON report and stop")
    ap.add_argument("--resume", action="store_true",
                    help="keep the rows build/bench_pico.json already has (a cut-short run)")
    a = ap.parse_args(argv)
    if a.table:
        table(json.loads(Path(a.table).read_text()))
        return 0
    if pico.node() is None:
        print("bench-pico: skipped, node is not installed")
        return 0
    t0 = time.time()
    OUT.parent.mkdir(exist_ok=True)
    rep = run_all(a)
    rep["seconds"] = round(time.time() - t0)
    rep["power"], power_lines = power_model.report(rep)  # hours of play, days asleep
    OUT.write_text(json.dumps(rep, indent=1))
    table(rep)
    print("\n".join(power_lines))
    print("\nwritten build/bench_pico.json (%d s)" % rep["seconds"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
