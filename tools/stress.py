"""`make stress`: the robustness proofs of issue 6 at full counts, under the MicroPython
unix port, in parallel; prints one table and writes build/stress.json.

    python tools/stress.py            full counts (several minutes)
    python tools/stress.py --ci       the counts host_tests/test_stress.py runs in CI
    python tools/stress.py --only mash,soak

Jobs (scripts in host_tests/mp/, package and scripts compiled to .mpy like the device):
  cuts      power cut at every unit of filesystem work of a whole session, then a boot
            (littlefs model: uncommitted data lost; and the byte model, job cuts_bytes)
  negative  the negative controls (NEGATIVE): each must report failures
  emu       tools/saves_emu.mjs: a cut at every flash erase and program of a run of saves
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
  pico      tools/pico_stress.py on the emulated Pico (issue 10, items 6 and 7): taps timed
            on saves and their flash erases, with the core stalled for a real chip's erase
            (45 ms typical, 400 ms worst): every tap reaches the app once; and 100 all-CPU
            games in one boot with the real heap: free heap flat (slope, window growth)
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import mpy_run  # noqa: E402

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
    # tools/saves_emu.mjs on the emulated Pico: games x boxes saved, every flash op cut
    # tools/pico_stress.py on the emulated Pico: saves tapped through; games played
    "pico_saves": (40, 10),
    "pico_games": (100, 12),
    "emu_cuts": (["--games", "2", "--boxes", "6"],
                 ["--games", "1", "--boxes", "2", "--torn", "0", "--stride", "3"]),
}
# The heap-trend run measures growth by gc.mem_alloc(), not by failing: its heap only has to
# keep the CPU engine and the harness's own board from fragmentation on the 64-bit unix port
# (at 240k, after the screen split, where the build directory sat moved it over the edge).
# mash runs at 320k (main: CI's longer path fragmented 240k at the display buffer after a
# power cycle). soak: the boards have a piezo, so picoyacht.sound's player is loaded (5.9 KB
# on this port). At CI's clone path soak failed up to 264k and passed from 268k, and wdt
# failed up to 240k and passed at 248k (scans in 4 and 8 KB steps): both run at 288k, 20 KB
# or more above. (mash with the player: seed 1 passes at 248k, seed 2 fails at 248k and
# passes at 256k.) display runs two whole apps (the twins) in one heap. FakeFs used to log
# every filesystem call in a list nobody read: the live heap climbed to ~291 KB over the run,
# and at 512k CI's clone path fragmented it until twin B's save failed for 2 KB (its status
# bar said so, and its panel no longer matched A's). Without that list it levels off at
# ~224 KB and passes from 320k; it runs at 1M all the same.
HEAPS = {"cuts": "1M", "cuts_bytes": "1M", "errors": "1M", "corrupt": "512k", "display": "1M",
         "wdt": "288k", "mash": "320k", "heap": "320k", "soak": "288k"}
MASH_MARGIN_KB = 16
# Negative controls: a known-bad store or app under the same checks. Each must report
# failures; one that no longer does is a failure of the proof. name: (module, args, heap).
NEGATIVE = {
    "neg_in_place": ("stress_cuts", ["stride=40", "mode=0", "lfs=0", "broken=1"], "1M"),
    "neg_no_sync": ("stress_cuts", ["stride=7", "mode=0", "broken=2"], "1M"),
    "neg_rotate_bad": ("stress_corrupt", ["n=60", "broken=1"], "512k"),
    "neg_no_game_check": ("stress_corrupt", ["n=100", "kind=2", "broken=2"], "512k"),
    "neg_no_sync_reads_back": ("stress_cuts", ["stride=7", "mode=0", "broken=3"], "1M"),
    "neg_rename_fails": ("stress_cuts", ["mode=1", "broken=4"], "1M"),
    "neg_errors_in_place": ("stress_cuts", ["mode=1", "lfs=0", "broken=1"], "1M"),
    "neg_ignore_backup": ("stress_corrupt", ["n=100", "kind=2", "broken=3"], "512k"),
    "neg_impossible_cards": ("stress_corrupt", ["n=300", "kind=2", "broken=4"], "512k"),
}
# The emulated Pico's controls (tools/pico_stress.py arguments), likewise.
PICO_NEGATIVE = {
    "neg_pico_loop_sampling": ["presses", "--saves", "20", "--sampling", "loop"],
    "neg_pico_leak": ["longplay", "--games", "12", "--seats", "1", "--leak", "512"],
}
# tools/saves_emu.mjs's control on the emulated Pico, likewise.
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


EMU = ROOT / "build" / "rp2emu"
SHARED_EMU = ROOT.parent / "shared" / "rp2emu"


def emulator():
    """build/rp2emu, set up from ../shared/rp2emu on first use; None where that is absent."""
    if not (EMU / "node_modules" / "rp2040js").exists():
        if not SHARED_EMU.exists():
            return None
        shutil.copytree(SHARED_EMU, EMU, dirs_exist_ok=True)
        subprocess.run(["npm", "install", "--prefix", str(EMU), "--no-audit", "--no-fund"],
                       check=True, capture_output=True)
    return EMU


def pico_command(args):
    return [sys.executable, str(ROOT / "tools" / "pico_stress.py")] + list(args)


def emu_command(out, args):
    return ["node", str(ROOT / "tools" / "saves_emu.mjs"), str(out)] + list(args)


def build(out=None):
    """The package and the scripts as .mpy in one directory (what MICROPYPATH points at)."""
    srcs = [ROOT / "tools" / "board_sim.py", ROOT / "host_tests" / "fakefs.py",
            ROOT / "host_tests" / "brokenfs.py",
            ROOT / "host_tests" / "mp" / "ui_play.py"]  # its scripted player is shared
    srcs += [ROOT / "host_tests" / "mp" / (s + ".py") for s in SCRIPTS]
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


class Pool:
    """Run subprocesses, at most `n` at a time."""

    def __init__(self, n, out):
        self.n = n
        self.out = out
        self.waiting = []
        self.running = []
        self.done = {}

    def add(self, name, cmd, cwd=None, env=None):
        self.waiting.append((name, cmd, cwd, env))

    def run(self):
        while self.waiting or self.running:
            while self.waiting and len(self.running) < self.n:
                name, cmd, cwd, env = self.waiting.pop(0)
                p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, cwd=str(cwd or ROOT),
                                     env=env or env_for(self.out))
                self.running.append((name, p, time.time()))
                log("  started " + name)
            for item in list(self.running):
                name, p, t0 = item
                if p.poll() is None:
                    continue
                so, se = p.communicate()
                self.running.remove(item)
                self.done[name] = (p.returncode, so, se, time.time() - t0)
                log("  finished %s in %.0f s (rc %d)" % (name, time.time() - t0, p.returncode))
            time.sleep(0.2)
        return self.done


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
    pool = Pool(a.jobs, out)
    report = {"mode": "ci" if a.ci else "full", "jobs": {}}
    mash_heap = HEAPS["mash"]
    if want("mash"):
        log("mash: smallest heap of a 20,000-event mash (bisection)")
        kb = smallest_heap(out, "stress_mash", ["events=20000", "seed=1"], 128, 512)
        report["mash_smallest_heap_kb"] = kb
        if kb:
            mash_heap = "%dk" % (kb + MASH_MARGIN_KB)
    if want("soak"):
        pool.add("soak", command("stress_soak", ["games=%d" % COUNTS["soak_games"][k]],
                                 HEAPS["soak"]))
    if want("mash"):
        events = COUNTS["mash_events"][k]
        shards = MASH_SHARDS if not a.ci else 2
        for i in range(shards):
            pool.add("mash%d" % (i + 1), command("stress_mash", [
                "events=%d" % (events // shards), "seed=%d" % (i + 1), "buttons=0"],
                mash_heap))
    if want("corrupt"):
        for kind in range(3):
            pool.add("corrupt%d" % kind, command(
                "stress_corrupt", COUNTS["corrupt"][k] + ["kind=%d" % kind,
                                                          "seed=%d" % (kind + 1)],
                HEAPS["corrupt"]))
    if want("cuts"):
        pool.add("cuts", command("stress_cuts", COUNTS["cuts"][k], HEAPS["cuts"]))
        pool.add("cuts_bytes", command("stress_cuts", COUNTS["cuts_bytes"][k],
                                       HEAPS["cuts_bytes"]))
    if want("emu") and emulator():
        pool.add("emu_cuts", emu_command(out, COUNTS["emu_cuts"][k]))
    if want("pico") and emulator():
        saves = str(COUNTS["pico_saves"][k])
        pool.add("pico_presses", pico_command(["presses", "--saves", saves]))
        pool.add("pico_presses_worst", pico_command(["presses", "--saves", saves,
                                                     "--erase-ms", "400", "--page-ms", "3"]))
        pool.add("pico_long", pico_command(["longplay", "--seats", "1",
                                            "--games", str(COUNTS["pico_games"][k])]))
    if want("negative"):
        for name, (module, args, heap) in NEGATIVE.items():
            pool.add(name, command(module, args, heap))
        if emulator():
            for name, args in PICO_NEGATIVE.items():
                pool.add(name, pico_command(args))
            for name, args in EMU_NEGATIVE.items():
                pool.add(name, emu_command(out, args))
    if want("errors"):
        pool.add("errors", command("stress_cuts", COUNTS["errors"][k], HEAPS["errors"]))
    if want("heap"):
        pool.add("heap", command("stress_mash", [
            "games=%d" % (COUNTS["heap_games"][k] + 5), "purpose=850", "seed=2", "steady=1",
            "buttons=0"], HEAPS["heap"]))
    if want("display"):
        for i, b in ((1, 11), (2, 4)):
            pool.add("display%d" % i, command("stress_display", [
                "seconds=%d" % COUNTS["display_seconds"][k], "seed=%d" % i,
                "buttons=%d" % b], HEAPS["display"]))
    if want("wdt"):
        pool.add("wdt", command("stress_wdt", [], HEAPS["wdt"]))
    if want("store") and not a.ci:
        pool.add("store", [sys.executable, "-m", "pytest", "-q", "host_tests/test_store.py"],
                 env=dict(os.environ, PICOYACHT_STRESS="1"))
    done = pool.run()
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


def total(report, prefix, key):
    s = 0
    for name, res in report["jobs"].items():
        if name.startswith(prefix) and isinstance(res.get(key), int):
            s += res[key]
    return s


def pico_rows(j, row):
    """The emulated Pico's rows: taps during saves, and the long play's heap."""
    for name, what in (("pico_presses", "typical"), ("pico_presses_worst", "worst")):
        if name not in j:
            continue
        p = j[name]
        row("taps during saves, Pico (%s flash): taps" % what, p.get("TAPS"),
            "%s saves (mean %s ms, max %s ms), %s erases of %s ms, %s programs of %s ms" % (
                p.get("SAVES"), p.get("SAVE_MS_MEAN"), p.get("SAVE_MS_MAX"),
                p.get("FLASH_ERASES"), p.get("ERASE_MS"), p.get("FLASH_PROGRAMS"),
                p.get("PAGE_PROGRAM_MS")))
        row("  lost / doubled", "%s / %s" % (p.get("TAPS_LOST"), p.get("TAPS_DOUBLED")),
            "%s over a flash op, %s over an erase, %s wholly inside one; samples lost %s" % (
                p.get("TAPS_OVER_A_FLASH_OP"), p.get("TAPS_OVER_AN_ERASE"),
                p.get("TAPS_WHOLLY_IN_AN_ERASE"), p.get("LOST_SAMPLES")))
    if "pico_long" in j:
        h = j["pico_long"]
        row("Pico long play: all-CPU games, one boot", h.get("GAMES"),
            "%s seat, Easy, rule sets in turn; %s s emulated; MemoryError %s, faults %s" % (
                h.get("SEATS"), h.get("SIM_S"), h.get("MEMORY_ERROR"), h.get("FAULTS")))
        row("  free heap after each game", "%s..%s" % (h.get("FREE_MIN"), h.get("FREE_MAX")),
            "slope %.2f B/game, window growth %s B (over %s games after the first 5)" % (
                h.get("HEAP_SLOPE_MILLIBYTES_PER_GAME", 0) / 1000,
                h.get("HEAP_WINDOW_MIN_GROWTH"), h.get("HEAP_GAMES")))


def table(rep):
    j = rep["jobs"]
    rows = []

    def row(what, value, note=""):
        rows.append((what, str(value), note))

    for name, model in (("cuts", "littlefs model"), ("cuts_bytes", "byte model")):
        if name not in j:
            continue
        c = j[name]
        row("power cuts (%s): cut points" % model, c.get("CUT_POINTS"),
            "%s units in the session, %s saves" % (c.get("SESSION_UNITS"),
                                                   c.get("SESSION_SAVES")))
        row("  resumed = last / previous save", "%s / %s" % (
            c.get("CUT_RESUMED_LAST"), c.get("CUT_RESUMED_PREVIOUS")),
            "%s with no game to resume" % c.get("CUT_NO_GAME_EXPECTED"))
        row("  lost or corrupt games", c.get("FAILURES"),
            "%s played on + resumed again" % c.get("CUT_PLAYED_ON_AND_RESUMED"))
    if "emu_cuts" in j:
        e = j["emu_cuts"]
        row("power cuts on the emulated Pico: cut points", e.get("EMU_CUT_POINTS"),
            "every flash op of %s saves (%s erases, %s programs; %s torn in half), littlefs "
            "4096/256 via _boot.py" % (e.get("EMU_SAVES"), e.get("EMU_FLASH_ERASES"),
                                      e.get("EMU_FLASH_PROGRAMS"), e.get("EMU_TORN_OPS")))
        row("  resumed = last / previous save", "%s / %s" % (
            e.get("EMU_RESUMED_LAST"), e.get("EMU_RESUMED_PREVIOUS")),
            "%s no game, %s played on + saved; failures %s; %s cold boots" % (
                e.get("EMU_NO_GAME"), e.get("EMU_PLAYED_ON"), e.get("FAILURES"),
                e.get("EMU_COLD_BOOTS")))
    pico_rows(j, row)
    for name in list(NEGATIVE) + list(PICO_NEGATIVE) + list(EMU_NEGATIVE):
        if name in j:
            row("negative control %s: failures" % name, j[name].get("FAILURES"),
                "must be > 0: " + NEGATIVE_WHAT[name])
    if "errors" in j:
        e = j["errors"]
        row("I/O errors: failing calls tried", e.get("ERROR_POINTS"),
            "%s showed 'not saved'; failures %s" % (e.get("ERROR_VISIBLE"), e.get("FAILURES")))
    if any(n.startswith("corrupt") for n in j):
        row("corrupt files: mutations", total(rep, "corrupt", "MUTATIONS"),
            "per kind: %s" % " ".join(str(j[n].get("MUTATIONS")) for n in sorted(j)
                                      if n.startswith("corrupt")))
        row("  crashes / failures", "%d / %d" % (total(rep, "corrupt", "CRASHES"),
                                                 total(rep, "corrupt", "FAILURES")),
            "backup used %d, defaults %d" % (total(rep, "corrupt", "BACKUP_USED"),
                                             total(rep, "corrupt", "DEFAULTS_USED")))
        row("  app-rejected payload -> backup", total(
            rep, "corrupt", "APP_REJECTED_PAYLOAD_BECAME_BACKUP"),
            "checksum-valid junk the app refuses: must be 0")
        row("  good copy dropped / game not offered", "%d / %d" % (
            total(rep, "corrupt", "GOOD_COPY_NOT_USED"),
            total(rep, "corrupt", "SAVED_GAME_NOT_OFFERED")),
            "must be 0 / 0; %d checksum-valid payloads accepted, %d game set-ups" % (
                total(rep, "corrupt", "CHECKSUM_VALID_ACCEPTED"),
                max([j[n].get("GOOD_SETS", 0) for n in j if n.startswith("corrupt")] or [0])))
    if any(n.startswith("mash") for n in j):
        row("mashing: button events", total(rep, "mash", "BUTTON_EVENTS"),
            "heap %s (smallest for a short mash: %sk)" % (
                rep.get("mash_heap"), rep.get("mash_smallest_heap_kb")))
        row("  exceptions / failures", "%d / %d" % (total(rep, "mash", "EXCEPTIONS"),
                                                    total(rep, "mash", "FAILURES")),
            "%d games, %d boxes, %d power cycles" % (
                total(rep, "mash", "GAMES_COMPLETED"), total(rep, "mash", "BOXES_CHECKED"),
                total(rep, "mash", "POWER_CYCLES")))
        seen = set()
        for n in j:
            if n.startswith("mash"):
                missed = str(j[n].get("SCREENS_MISSED", "-"))
                seen.add(missed)
        row("  screens never reached (per shard)", " | ".join(sorted(seen)),
            "of 13; rule sets per shard: %s" % " ".join(
                str(j[n].get("RULESETS_SEEN")) for n in sorted(j) if n.startswith("mash")))
    if "heap" in j:
        h = j["heap"]
        row("heap over %s consecutive games" % h.get("HEAP_GAMES"),
            "%+d B" % (h.get("HEAP_LAST", 0) - h.get("HEAP_FIRST", 0)),
            "first %s last %s min %s max %s, slope %.2f B/game" % (
                h.get("HEAP_FIRST"), h.get("HEAP_LAST"), h.get("HEAP_MIN"), h.get("HEAP_MAX"),
                h.get("HEAP_SLOPE_MILLIBYTES_PER_GAME", 0) / 1000))
    if any(n.startswith("display") for n in j):
        row("display: I2C writes failed", total(rep, "display", "I2C_WRITES_FAILED"),
            "%d random glitches, %d dead-bus windows (%d s), %d brownouts" % (
                total(rep, "display", "RANDOM_GLITCHES"), total(rep, "display", "FAULT_WINDOWS"),
                total(rep, "display", "FAULT_WINDOW_SECONDS"),
                total(rep, "display", "BROWNOUTS")))
        row("  recoveries verified / failures", "%d / %d" % (
            total(rep, "display", "RECOVERIES_VERIFIED"), total(rep, "display", "FAILURES")),
            "worst %s ms; %d boxes compared with the twin" % (
                max(j[n].get("WORST_RECOVERY_MS", 0) for n in j if n.startswith("display")),
                total(rep, "display", "BOXES_COMPARED")))
    if "wdt" in j:
        w = j["wdt"]
        row("watchdog: scenarios passed", len(w.get("PASS", [])),
            "hang -> reset after %s ms -> resumed turn %s" % (
                w.get("HANG_RESET_AFTER_MS"), w.get("HANG_RESUMED_TURN")))
    if "soak" in j:
        s = j["soak"]
        row("soak: CPU-only games", s.get("GAMES"),
            "%s s, tables %s, CPU errors %s" % (s.get("seconds"), s.get("EXPERT_TABLES"),
                                                s.get("CPU_ERRORS")))
        row("  live heap: between games / peak", "%s-%s / %s" % (
            s.get("LIVE_HEAP_MIN"), s.get("LIVE_HEAP_MAX"), s.get("LIVE_HEAP_PEAK_IN_PLAY")),
            "smallest heap (24 games): %sk" % rep.get("soak_smallest_heap_kb"))
        if s.get("SAME_SETUP_DRIFT_MIN_MAX"):
            row("  same setup, last cycle vs second", s["SAME_SETUP_DRIFT_MIN_MAX"], "bytes")
    if "store" in j:
        row("store fuzz (PICOYACHT_STRESS=1)", j["store"]["rc"] == 0,
            " ".join(j["store"]["summary"]))
    w1 = max(len(r[0]) for r in rows) if rows else 10
    w2 = max(len(r[1]) for r in rows) if rows else 5
    print("\nPicoYacht stress (%s counts, %.0f s)" % (rep["mode"], rep["seconds"]))
    for a, b, c in rows:
        print("%-*s  %*s  %s" % (w1, a, w2, b, c))
    print("FAILED: " + ", ".join(rep["failed"]) if rep["failed"] else "all passed")


if __name__ == "__main__":
    sys.exit(main())
