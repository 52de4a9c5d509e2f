"""`make stress`: the robustness proofs at full counts (no save lost or corrupted by a power
cut, an I/O error or a mangled file; no crash, stuck screen or leak under mashed buttons),
under the MicroPython unix port, in parallel; prints one table and writes build/stress.json.

    python tools/stress/stress.py            full counts (several minutes)
    python tools/stress/stress.py --ci       the counts host_tests/test_stress.py runs in CI
    python tools/stress/stress.py --only mash,soak

Jobs (scripts in tools/rigs/, package and scripts compiled to .mpy like the device):
  cuts      power cut at every unit of filesystem work of a whole session, then a boot
            (littlefs model: uncommitted data lost; and the byte model, job cuts_bytes)
  negative  the negative controls (NEGATIVE): each must report failures
  emu       tools/emu/emulator.mjs --cuts: a cut at every flash erase and program of saves
            on the real rp2 firmware (emulated Pico, littlefs with the Pico's geometry)
  errors    an OSError at every filesystem call of that session
  corrupt   random mutations of every saved file kind, then a boot (one job per kind)
  mash      random button events through the real loop (shards with their own seeds), at
            the smallest heap a short mash needs (found by bisection first) plus a margin
  heap      the live heap at the end of 100 consecutive mashed games (one configuration)
  display   I2C errors at random writes and whole seconds without a bus, against a twin
  wdt       the watchdog on a fake machine: hang -> reset -> resume
  soak      complete CPU-only games back to back in one process; and the smallest heap
            that completes a shorter soak (bisection)
  store     host_tests/test_store.py with PICOYACHT_STRESS=1 (the store-level fuzz)
  pico      tools/stress/pico_stress.py on the emulated Pico: taps timed on saves and their
            flash erases, with the core stalled for a real chip's erase (45 ms typical,
            400 ms worst): every tap reaches the app once; and 100 all-CPU games in one
            boot with the real heap: free heap flat (slope, window growth)
"""

import argparse
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tools/, for paths
from paths import RIGS, ROOT, TOOLS

import emulator
import mpy_run

SCRIPTS = ("stress_rig", "stress_cuts", "stress_corrupt", "stress_mash", "stress_display",
           "stress_wdt", "stress_soak")

# name: (full, ci) arguments; the heap is the -X heapsize for the job.
MASH_SHARDS = 4
COUNTS = {
    "cuts": (["stride=1", "mode=0"], ["stride=1", "mode=0"]),  # littlefs model
    "cuts_bytes": (["stride=1", "mode=0", "lfs=0"], ["stride=14", "mode=0", "lfs=0"]),
    "errors": (["mode=1"], ["mode=1"]),
    "corrupt": (["n=10000"], ["n=120"]),
    "mash_events": (1000000, 24000),  # CI: 12,000 a seed, 6-8 games and power cycles each
    "heap_games": (100, 100),
    "display_seconds": (1800, 240),
    "soak_games": (1000, 12),
    # emulator.mjs --cuts on the emulated Pico: games x boxes saved, every flash op cut
    # pico_stress.py on the emulated Pico: saves tapped through; games played
    "pico_saves": (40, 10),
    "pico_games": (100, 12),
    "emu_cuts": (["--games", "2", "--boxes", "6"],
                 ["--games", "1", "--boxes", "2", "--torn", "0", "--stride", "3"]),
}
# Heaps (-X heapsize) of the 64-bit unix port, found by scans and set well above where each
# job failed at CI's clone path: fragmentation moves that edge with the path and the code.
# display runs two whole apps (the twins) in one heap. corrupt: with half of its heap some
# parallel runs of the suite had every boot after the good sets fail to allocate the frame
# buffer, others none; the cause is not yet found, so it runs with room to spare.
HEAPS = {"cuts": "1M", "cuts_bytes": "1M", "errors": "1M", "corrupt": "1M", "display": "1M",
         "wdt": "288k", "mash": "320k", "heap": "320k", "soak": "288k"}
MASH_MARGIN_KB = 16
# Negative controls: a known-bad store or app under the same checks. Each must report
# failures; one that no longer does is a failure of the proof. name: (module, args, heap).
NEGATIVE = {
    "neg_in_place": ("stress_cuts", ["stride=40", "mode=0", "lfs=0", "broken=1"], "1M"),
    "neg_no_sync": ("stress_cuts", ["stride=7", "mode=0", "broken=2"], "1M"),
    "neg_rotate_bad": ("stress_corrupt", ["n=60", "broken=1"], "1M"),
    "neg_no_game_check": ("stress_corrupt", ["n=100", "kind=2", "broken=2"], "1M"),
    "neg_no_sync_reads_back": ("stress_cuts", ["stride=7", "mode=0", "broken=3"], "1M"),
    "neg_rename_fails": ("stress_cuts", ["mode=1", "broken=4"], "1M"),
    "neg_errors_in_place": ("stress_cuts", ["mode=1", "lfs=0", "broken=1"], "1M"),
    "neg_ignore_backup": ("stress_corrupt", ["n=100", "kind=2", "broken=3"], "1M"),
    "neg_impossible_cards": ("stress_corrupt", ["n=300", "kind=2", "broken=4"], "1M"),
}
# The emulated Pico's controls (pico_stress.py arguments), likewise.
PICO_NEGATIVE = {
    "neg_pico_loop_sampling": ["presses", "--saves", "20", "--sampling", "loop"],
    "neg_pico_leak": ["longplay", "--games", "12", "--seats", "1", "--leak", "512"],
}
# emulator.mjs --cuts's control on the emulated Pico, likewise.
EMU_NEGATIVE = {
    "neg_emu_remove_first": ["--games", "1", "--boxes", "2", "--torn", "0", "--stride", "1",
                             "--broken", "1"],
}
NEGATIVE_WHAT = {
    "neg_emu_remove_first": "store removing the old copies before saving, emulated Pico",
    "neg_pico_loop_sampling": "buttons read once per loop pass: taps during a save lost",
    "neg_pico_leak": "512 B kept per game: the heap trend must see it",
    "neg_in_place": "store writing game.dat in place, byte model",
    "neg_no_sync": "store that never flushes, closes or syncs, littlefs model",
    "neg_rotate_bad": "store rotating even a corrupt primary into the backup",
    "neg_no_game_check": "app giving the store no check for the game file",
    "neg_no_sync_reads_back": "store that never syncs but reads back fine, littlefs model",
    "neg_rename_fails": "filesystem whose every rename fails, I/O-error proof",
    "neg_errors_in_place": "store writing game.dat in place, I/O-error proof",
    "neg_ignore_backup": "app ignoring a copy loaded from the backup",
    "neg_impossible_cards": "validator accepting cards no dice make",
}


def emulator_ready():
    """build/rp2emu (tools/emu/emulator.py installs it); None where it cannot be set up."""
    try:
        return emulator.install()
    except emulator.PicoError:
        return None


def pico_command(args):
    return [sys.executable, str(TOOLS / "stress" / "pico_stress.py")] + list(args)


def emu_command(out, args):
    return ["node", str(emulator.DRIVER), "--cuts", str(out)] + list(args)


def build(out=None):
    """The package and the scripts as .mpy in one directory (what MICROPYPATH points at)."""
    srcs = [TOOLS / "sim" / "board_sim.py", RIGS / "fakefs.py", RIGS / "brokenfs.py",
            RIGS / "ui_play.py"]  # its scripted player is shared
    srcs += [RIGS / (s + ".py") for s in SCRIPTS]
    return mpy_run.build(out or ROOT / "build" / "stress-mpy", srcs)


def command(module, args, heap):
    return mpy_run.command(mpy_run.call(module, args), heap)


def env_for(out):
    return mpy_run.env([out])


def parse(stdout):
    """'KEY value ...' lines -> {KEY: value or [values]} (ints where they parse)."""
    res = {}
    for line in stdout.splitlines():
        parts = line.split(None, 1)
        if not parts or not parts[0].isupper():
            continue
        key, val = parts[0], (parts[1] if len(parts) > 1 else "")
        try:
            val = int(val)
        except ValueError:
            pass
        if key in res:
            if not isinstance(res[key], list) or key in ("OP", "MESSAGE"):
                res[key] = res[key] if isinstance(res[key], list) else [res[key]]
            res[key].append(val)
        else:
            res[key] = [val] if key in ("OP", "MESSAGE", "FAIL", "PASS") else val
    return res


def run_one(out, module, args, heap, timeout=3600):
    return mpy_run.run(mpy_run.call(module, args), [out], heap, timeout=timeout, cwd=str(ROOT))


def ok(r):
    return r.returncode == 0 and "\nFAILURES 0" in "\n" + r.stdout


def smallest_heap(out, module, args, lo, hi):
    """The smallest heap (KB) that runs the script with FAILURES 0."""
    return mpy_run.smallest_heap(lambda kb: ok(run_one(out, module, args, "%dk" % kb)), lo, hi)


def run_jobs(jobs, n, out):
    """Run (name, command, env) jobs, n at a time: {name: (rc, stdout, stderr, seconds)}."""
    def one(job):
        name, cmd, env = job
        t0 = time.time()
        r = subprocess.run(cmd, capture_output=True, text=True, cwd=str(ROOT),
                           env=env or env_for(out))
        log("  finished %s in %.0f s (rc %d)" % (name, time.time() - t0, r.returncode))
        return name, (r.returncode, r.stdout, r.stderr, time.time() - t0)

    with ThreadPoolExecutor(n) as ex:
        return dict(ex.map(one, jobs))


def log(msg):
    sys.stderr.write(msg + "\n")
    sys.stderr.flush()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ci", action="store_true", help="the scaled-down counts of the tests")
    ap.add_argument("--only", default="", help="comma-separated job names")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    a = ap.parse_args(argv)
    k = 1 if a.ci else 0
    only = set(a.only.split(",")) if a.only else None

    def want(name):
        return only is None or name in only

    out = build()
    t0 = time.time()
    jobs = []

    def add(name, cmd, env=None):
        jobs.append((name, cmd, env))

    report = {"mode": "ci" if a.ci else "full", "jobs": {}}
    mash_heap = HEAPS["mash"]
    if want("mash"):
        log("mash: smallest heap of a 20,000-event mash (bisection)")
        kb = smallest_heap(out, "stress_mash", ["events=20000", "seed=1"], 128, 512)
        report["mash_smallest_heap_kb"] = kb
        if kb:
            mash_heap = "%dk" % (kb + MASH_MARGIN_KB)
    if want("soak"):
        add("soak", command("stress_soak", ["games=%d" % COUNTS["soak_games"][k]],
                                 HEAPS["soak"]))
    if want("mash"):
        events = COUNTS["mash_events"][k]
        shards = MASH_SHARDS if not a.ci else 2
        for i in range(shards):
            add("mash%d" % (i + 1), command("stress_mash", [
                "events=%d" % (events // shards), "seed=%d" % (i + 1), "buttons=0"],
                mash_heap))
    if want("corrupt"):
        for kind in range(3):
            add("corrupt%d" % kind, command(
                "stress_corrupt", COUNTS["corrupt"][k] + ["kind=%d" % kind,
                                                          "seed=%d" % (kind + 1)],
                HEAPS["corrupt"]))
    if want("cuts"):
        add("cuts", command("stress_cuts", COUNTS["cuts"][k], HEAPS["cuts"]))
        add("cuts_bytes", command("stress_cuts", COUNTS["cuts_bytes"][k],
                                       HEAPS["cuts_bytes"]))
    if want("emu") and emulator_ready():
        add("emu_cuts", emu_command(out, COUNTS["emu_cuts"][k]))
    if want("pico") and emulator_ready():
        saves = str(COUNTS["pico_saves"][k])
        add("pico_presses", pico_command(["presses", "--saves", saves]))
        add("pico_presses_worst", pico_command(["presses", "--saves", saves,
                                                     "--erase-ms", "400", "--page-ms", "3"]))
        add("pico_long", pico_command(["longplay", "--seats", "1",
                                            "--games", str(COUNTS["pico_games"][k])]))
    if want("negative"):
        for name, (module, args, heap) in NEGATIVE.items():
            add(name, command(module, args, heap))
        if emulator_ready():
            for name, args in PICO_NEGATIVE.items():
                add(name, pico_command(args))
            for name, args in EMU_NEGATIVE.items():
                add(name, emu_command(out, args))
    if want("errors"):
        add("errors", command("stress_cuts", COUNTS["errors"][k], HEAPS["errors"]))
    if want("heap"):
        add("heap", command("stress_mash", [
            "games=%d" % (COUNTS["heap_games"][k] + 5), "purpose=850", "seed=2", "steady=1",
            "buttons=0"], HEAPS["heap"]))
    if want("display"):
        for i, b in ((1, 11), (2, 4)):
            add("display%d" % i, command("stress_display", [
                "seconds=%d" % COUNTS["display_seconds"][k], "seed=%d" % i,
                "buttons=%d" % b], HEAPS["display"]))
    if want("wdt"):
        add("wdt", command("stress_wdt", [], HEAPS["wdt"]))
    if want("store") and not a.ci:
        add("store", [sys.executable, "-m", "pytest", "-q", "host_tests/test_store.py"],
                 env=dict(os.environ, PICOYACHT_STRESS="1"))
    done = run_jobs(jobs, a.jobs, out)
    if want("soak"):
        log("soak: smallest heap of a 24-game soak (bisection)")
        report["soak_smallest_heap_kb"] = smallest_heap(out, "stress_soak", ["games=24"],
                                                        128, 512)
    failed = []
    for name, (rc, so, se, secs) in sorted(done.items()):
        res = parse(so)
        res["rc"] = rc
        res["seconds"] = round(secs, 1)
        if name == "store":
            res = {"rc": rc, "seconds": round(secs, 1), "summary": so.strip().splitlines()[-1:]}
        report["jobs"][name] = res
        if name in NEGATIVE or name in PICO_NEGATIVE or name in EMU_NEGATIVE:
            bad = rc != 0 or not res.get("FAILURES")  # a control that passes proves nothing
        else:
            bad = rc != 0 or res.get("FAILURES", 0) != 0
        if bad:
            failed.append(name)
            log("---- %s failed (rc %d)\n%s\n%s" % (name, rc, so[-3000:], se[-3000:]))
    report["mash_heap"] = mash_heap
    report["seconds"] = round(time.time() - t0, 1)
    report["failed"] = failed
    table(report)
    dst = ROOT / "build" / "stress.json"
    dst.parent.mkdir(exist_ok=True)
    dst.write_text(json.dumps(report, indent=1))
    print("written", dst.relative_to(ROOT))
    return 1 if failed else 0


def table(rep):
    """One row per job: its verdict, its time and every figure its script printed (a
    negative control passes by failing). build/stress.json keeps the same."""
    print("\nPicoYacht stress (%s counts, %.0f s; mash heap %s, smallest for a short mash %sk,"
          " for a 24-game soak %sk)" % (rep["mode"], rep["seconds"], rep["mash_heap"],
                                        rep.get("mash_smallest_heap_kb"),
                                        rep.get("soak_smallest_heap_kb")))
    for name, res in sorted(rep["jobs"].items()):
        figures = " ".join("%s=%s" % kv for kv in res.items() if kv[0] not in ("rc", "seconds"))
        what = NEGATIVE_WHAT.get(name)
        print("%-24s %-6s %5.0f s  %s" % (name, "FAILED" if name in rep["failed"] else "ok",
                                          res["seconds"], (what + "; " if what else "") + figures))
    print("FAILED: " + ", ".join(rep["failed"]) if rep["failed"] else "all passed")


if __name__ == "__main__":
    sys.exit(main())
