"""`make bench`: every budget in one table, written to build/bench.json (compare runs).

Runs the pieces that have their own targets (bench_core.py, bench_ui.py, and
bench_strategy.py when Expert's tables are built), quietly, reads their JSON, adds its own
measurements under the MicroPython unix port (tools/bench_mp.py), and prints one table:

  heap      per rule set, a complete 1-player and 4-player game through the UI: the code
            the game loads, the live heap peak (gc.collect() at every box), the largest
            heap in use between collections, and the smallest -X heapsize that completes
            (bisection); the 64-bit port's figures (a Pico's objects are about half)
  display   I2C bytes per user action against a full-frame show() (1030 bytes)
  steady    bytes allocated per idle loop iteration (title, setup, play, card)
  input     press-to-event latency of the debouncer over synthetic bouncy presses, per
            sample period and bounce length, against the rule's bound (2 sample periods)
  strategy  decision time and op counts per level and rule set; the first decision of a
            game (the engine is built) in reference-loop units
  boot      import and boot-to-title time, as a ratio to a reference loop
  size      the package's total .mpy size

Timing figures are ratios or counts where they can be (host time varies). Nothing here is
asserted. The emulated Pico's own table (bench_pico.py: the budgets judged on the device)
comes after it, then the page's (tools/web/bench_web.py, headless Chromium). Options:
--skip core,ui,strategy,heap,pico,web (for a quicker partial run).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import mpy_run  # noqa: E402

BUILD = ROOT / "build"
FULL_FRAME = 1030
sys.path.insert(0, str(ROOT / "firmware"))
sys.path.append(str(ROOT / "tools" / "hostlib"))  # micropython.const off the device
from picoyacht.rules import NAMES as RULE_NAMES  # noqa: E402


def log(msg):
    sys.stderr.write(msg + "\n")
    sys.stderr.flush()


def build():
    mp_dir = ROOT / "host_tests" / "mp"
    out = mpy_run.build(BUILD / "bench-mpy", (
        ROOT / "tools" / "board_sim.py", ROOT / "tools" / "bench_mp.py",
        mp_dir / "ui_play.py", mp_dir / "scripted.py", ROOT / "tools" / "mp" / "strategy_timing.py",
        mp_dir / "allocs.py"))
    return out, sorted((out / "picoyacht").glob("*.mpy"))


def mp(out, code, heap="512k", timeout=900):
    return mpy_run.run(code, [out], heap, timeout=timeout, cwd=str(ROOT))


def keyed(stdout):
    res = {}
    for line in stdout.splitlines():
        p = line.split()
        if p and p[0].isupper():
            res.setdefault(p[0], []).append(p[1:])
    return res


def run_piece(script, args=(), timeout=3600):
    """Run another bench script; its own table goes to our log, not to stdout."""
    t0 = time.time()
    r = subprocess.run([sys.executable, str(ROOT / "tools" / script), *args],
                       capture_output=True, text=True, timeout=timeout, cwd=str(ROOT))
    log("  %s: rc %d in %.0f s" % (script, r.returncode, time.time() - t0))
    if r.returncode:
        log(r.stdout[-2000:] + r.stderr[-2000:])
    return r.returncode


def load_json(name):
    p = BUILD / name
    return json.loads(p.read_text()) if p.exists() else None


# ---------------------------------------------------------------- our measurements
def ui_game(out, rid, n):
    r = mp(out, "import bench_mp; bench_mp.main(['ui', '%d', '%d'])" % (rid, n))
    if r.returncode or "OK" not in r.stdout:
        return {"error": (r.stdout + r.stderr)[-300:]}
    k = keyed(r.stdout)
    fig = {key.lower(): int(k[key][0][0]) for key in ("CODE", "LIVE_PEAK", "ALLOC_PEAK",
                                                      "PRESSES", "I2C_BYTES", "FRAMES")}
    code = "import ui_play; ui_play.main(['buttons=11', 'players=%d', 'rules=%d'])" % (n, rid)

    def completes(kb):
        r = mp(out, code, "%dk" % kb)
        return r.returncode == 0 and r.stdout.startswith("OK")

    fig["smallest_heap_kb"] = mpy_run.smallest_heap(completes, 64, 512)
    return fig


def heap_section(out, jobs):
    cases = [(rid, n) for rid in range(len(RULE_NAMES)) for n in (1, 4)]
    with ThreadPoolExecutor(jobs) as ex:
        res = list(ex.map(lambda c: ui_game(out, *c), cases))
    table = {}
    for (rid, n), fig in zip(cases, res, strict=True):
        table.setdefault(RULE_NAMES[rid], {})["%dp" % n] = fig
    return table


def idle_section(out):
    k = keyed(mp(out, "import bench_mp; bench_mp.main(['idle'])").stdout)
    res = {}
    for key in ("IDLE_TITLE", "IDLE_SETUP", "IDLE_PLAY", "IDLE_CARD"):
        if key in k:
            used, n = map(int, k[key][0])
            res[key[5:].lower()] = {"bytes": used, "iterations": n, "per_iteration": used / n}
    return res


def boot_section(out, runs=5):
    rows = []
    for _ in range(runs):
        k = keyed(mp(out, "import bench_mp; bench_mp.main(['boot'])").stdout)
        rows.append({key: int(k[key][0][0]) for key in ("IMPORT_US", "BOOT_US", "TITLE_US",
                                                         "REF_US")})
    med = {key: statistics.median(r[key] for r in rows) for key in rows[0]}
    total = med["IMPORT_US"] + med["BOOT_US"] + med["TITLE_US"]
    return {"runs": runs, "import_us": med["IMPORT_US"], "boot_us": med["BOOT_US"],
            "title_us": med["TITLE_US"], "ref_us": med["REF_US"],
            "boot_to_title_in_ref_loops": round(total / med["REF_US"], 3),
            "ref_loop": "100,000 rounds of x = (x * 75 + 74) % 65537"}


def latency_section(out):
    k = keyed(mp(out, "import bench_mp; bench_mp.main(['latency'])").stdout)
    rows = []
    for v in k.get("LATENCY", []):
        p, b, med, mx, missed, doubles, cmed, cmx = map(int, v)
        rows.append({"sample_ms": p, "bounce_ms": b, "median_ms": med, "max_ms": mx,
                     "bound_ms": 2 * p, "missed": missed, "double": doubles, "presses": 200,
                     "from_contact_median_ms": cmed, "from_contact_max_ms": cmx})
    return rows


def decide_section(out):
    k = keyed(mp(out, "import bench_mp; bench_mp.main(['decide'])").stdout)
    res = {"ref_us": int(k["REF_US"][0][0]), "first_decision": {}}
    for v in k.get("DECIDE", []):
        rid, first, later, ops, units = map(int, v)
        res["first_decision"][RULE_NAMES[rid]] = {
            "first_us": first, "later_us": later, "later_ops": ops,
            "first_in_ref_loops": units / 1000}
    return res


def timing_section(out):
    """tools/mp/strategy_timing.py: time, steps, reads per decision, per level."""
    tdir = str(ROOT / "tables") if (ROOT / "tables" / "yahtzee.bin").exists() else None
    args = ["3"] + ([tdir] if tdir else [])
    code = "import sys; sys.argv.clear(); sys.argv.extend(%r); import strategy_timing" % (
        ["strategy_timing"] + args)
    r = mp(out, code, "512k")
    levels = {1: "Easy", 2: "Normal", 3: "Expert"}
    rows = []
    for line in r.stdout.splitlines():
        p = line.split()
        if len(p) == 10 and p[0].isdigit():
            rid, lvl, n, mean, mx, steps, reads, alloc, held, _ = map(int, p)
            rows.append({"ruleset": RULE_NAMES[rid], "level": levels[lvl], "decisions": n,
                         "mean_us": mean, "max_us": mx, "ops": steps, "table_reads": reads,
                         "alloc_bytes": alloc, "held_bytes": held})
    return {"rows": rows, "expert_tables": bool(tdir), "error": r.stderr[-300:] or None}


# ---------------------------------------------------------------- the table
def ui_lines(ui):
    """bench_ui.json's 'KEY k=v ...' lines -> {KEY or KEY sub: {k: v}}."""
    res = {}
    for line in (ui or {}).get("lines", []):
        p = line.split()
        if not p:
            continue
        kv = dict(x.split("=", 1) for x in p[1:] if "=" in x)
        rest = [x for x in p[1:] if "=" not in x]
        key = p[0] + (" " + rest[0] if rest and p[0] in ("SAMPLING", "RENDER_us") else "")
        res[key] = kv or rest
    return res


def fmt_kb(b):
    return "-" if b is None else "%.1fk" % (b / 1024)


def print_table(rep):
    rows = []

    def sec(title):
        rows.append(("", "", ""))
        rows.append((title, "", ""))

    def row(a, b, c=""):
        rows.append(("  " + a, str(b), c))

    heap = rep.get("heap")
    if heap:
        sec("Heap, complete game through the UI (unix port, 64-bit; the Pico's is below): "
            "code / live peak / in use / smallest")
        for name, per in heap.items():
            for np_, f in per.items():
                if "error" in f:
                    row("%s %s" % (name, np_), "error", f["error"][-60:])
                    continue
                row("%s %s" % (name, np_), "%sk smallest" % f["smallest_heap_kb"],
                    "code %s, live peak %s, in use %s; %d presses, %d I2C B" % (
                        fmt_kb(f["code"]), fmt_kb(f["live_peak"]), fmt_kb(f["alloc_peak"]),
                        f["presses"], f["i2c_bytes"]))
    ui = ui_lines(rep.get("bench_ui"))
    i2c = {k: v for k, v in ui.items() if k.startswith("I2C_")}
    if i2c:
        sec("Display: I2C bytes per user action (full-frame show() = %d)" % FULL_FRAME)
        for k, v in i2c.items():
            row(k[4:], "%s B" % v.get("median"), "max %s, %s%% of a full frame, n=%s" % (
                v.get("max", "-"), v.get("pct_full"), v.get("n")))
    if rep.get("idle"):
        sec("Steady state: bytes allocated per idle loop iteration")
        for k, v in rep["idle"].items():
            row(k, "%g B" % v["per_iteration"], "%d B over %d iterations" % (
                v["bytes"], v["iterations"]))
    if rep.get("latency"):
        sec("Input: press-to-event latency (debouncer, from the stable press)")
        for r in rep["latency"]:
            row("sample %d ms, bounce %2d ms" % (r["sample_ms"], r["bounce_ms"]),
                "max %d ms" % r["max_ms"],
                "median %d, bound %d; from first contact max %d; missed %d, double %d of %d"
                % (r["median_ms"], r["bound_ms"], r["from_contact_max_ms"], r["missed"],
                   r["double"], r["presses"]))
        for k, v in ui.items():
            if k.startswith("SAMPLING"):
                row(k.lower(), "max %s ms" % v.get("max"), "missed %s, double %s of %s taps" % (
                    v.get("missed"), v.get("double"), v.get("taps")))
    st = rep.get("strategy_timing")
    if st and st["rows"]:
        sec("Strategy: time and ops per decision (unix port)%s" % (
            "" if st["expert_tables"] else "; Expert skipped: no tables (make tables)"))
        for r in st["rows"]:
            row("%s %s" % (r["ruleset"], r["level"]), "%d us" % r["mean_us"],
                "max %d us, %d ops, %d table reads, %d B alloc" % (
                    r["max_us"], r["ops"], r["table_reads"], r["alloc_bytes"]))
    dec = rep.get("decide")
    if dec:
        sec("Strategy: first decision of a game (engine built), Normal")
        for name, v in dec["first_decision"].items():
            row(name, "%.1f ref loops" % v["first_in_ref_loops"],
                "%d us first, %d us later (%d ops)" % (v["first_us"], v["later_us"],
                                                       v["later_ops"]))
    sb = rep.get("bench_strategy")
    if isinstance(sb, dict) and sb.get("games"):
        sec("Strategy: mean final score (bench_strategy.py)")
        for name, per in sb["games"].items():
            if isinstance(per, dict):
                txt = ", ".join("%s %.1f" % (lvl, v["mean"]) for lvl, v in per.items()
                                if isinstance(v, dict) and "mean" in v)
                if txt:
                    row(name, "", txt)
    elif isinstance(sb, str):
        sec("Strategy bench: " + sb)
    b = rep.get("boot")
    if b:
        sec("Boot (unix port, median of %d runs)" % b["runs"])
        row("import + boot + title", "%.2f ref loops" % b["boot_to_title_in_ref_loops"],
            "%d + %d + %d us; ref loop %d us (%s)" % (
                b["import_us"], b["boot_us"], b["title_us"], b["ref_us"], b["ref_loop"]))
    if rep.get("mpy"):
        m = rep["mpy"]
        sec("Size")
        row("total .mpy", "%d B" % m["total"], "%d modules; largest: %s" % (
            len(m["files"]), ", ".join("%s %d" % tuple(kv) for kv in m["largest"])))
    core = rep.get("bench_core")
    if core and core.get("games"):
        sec("Rules core alone (bench_core.py): smallest heap of a complete game")
        for k, v in core["games"].items():
            row(k, "%sk" % v.get("smallest_heap_kb"), "live game %s B, garbage/roll %s B" % (
                v.get("live_game_bytes"), v.get("garbage_per_roll")))
    pico = [ln for ln in (rep.get("bench_ui") or {}).get("lines", [])
            if ln.startswith("PICO_EST") or ln.startswith("HEAP_")]
    if pico:
        sec("UI heap budget and Pico estimate (bench_ui.py, verbatim)")
        for ln in pico:
            key, _, rest = ln.partition(" ")
            row(key, "", rest)
    data = [r for r in rows if r[1] or r[2]]
    w1 = max(len(r[0]) for r in data)
    w2 = max(len(r[1]) for r in data)
    print("PicoYacht bench (%s)" % rep["when"])
    for a, b_, c in rows:
        if not b_ and not c:
            print(a)
        else:
            print("%-*s  %*s  %s" % (w1, a, w2, b_, c))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--skip", default="", help="core,ui,strategy,heap,pico,web")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    a = ap.parse_args(argv)
    skip = set(filter(None, a.skip.split(",")))
    t0 = time.time()
    rep = {"when": time.strftime("%Y-%m-%d %H:%M"), "host": os.uname().machine}
    if "core" not in skip:
        log("bench_core.py ...")
        run_piece("bench_core.py")
        rep["bench_core"] = load_json("bench_core.json")
    if "ui" not in skip:
        log("bench_ui.py ...")
        run_piece("bench_ui.py")
        rep["bench_ui"] = load_json("bench_ui.json")
    if "strategy" not in skip:
        if not (ROOT / "tables" / "yahtzee.bin").exists():
            rep["bench_strategy"] = "skipped: Expert's tables are not built (make tables)"
        else:
            log("bench_strategy.py --games 2000 --quick ...")
            rc = run_piece("bench_strategy.py", ["--games", "2000", "--quick"])
            rep["bench_strategy"] = (load_json("bench_strategy.json") if rc == 0
                                     else "failed (rc %d)" % rc)
    out, files = build()
    sizes = sorted(((f.stem, f.stat().st_size) for f in files), key=lambda x: -x[1])
    rep["mpy"] = {"total": sum(s for _, s in sizes), "files": dict(sizes),
                  "largest": sizes[:3]}
    log("steady state, latency, boot, decisions ...")
    rep["idle"] = idle_section(out)
    rep["latency"] = latency_section(out)
    rep["boot"] = boot_section(out)
    rep["decide"] = decide_section(out)
    rep["strategy_timing"] = timing_section(out)
    if "heap" not in skip:
        log("heap of complete UI games per rule set (1 and 4 players, bisection) ...")
        rep["heap"] = heap_section(out, a.jobs)
    if "pico" not in skip:
        log("bench_pico.py (the emulated Pico) ...")
        run_piece("bench_pico.py")
        rep["bench_pico"] = load_json("bench_pico.json")
    if "web" not in skip:
        log("bench_web.py (the page in headless Chromium) ...")
        run_piece("web/bench_web.py")
        rep["bench_web"] = load_json("bench_web.json")
    rep["seconds"] = round(time.time() - t0, 1)
    BUILD.mkdir(exist_ok=True)
    (BUILD / "bench.json").write_text(json.dumps(rep, indent=1, default=str))
    print_table(rep)
    if rep.get("bench_pico"):
        import bench_pico

        print()
        bench_pico.table(rep["bench_pico"])
    if rep.get("bench_web"):
        sys.path.insert(0, str(ROOT / "tools" / "web"))
        import bench_web

        print()
        bench_web.table(rep["bench_web"])
    print("\nwritten build/bench.json (%.0f s)" % rep["seconds"])


if __name__ == "__main__":
    main()
