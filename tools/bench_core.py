"""Rules-core budgets: heap of complete games under the MicroPython unix port (smallest
heap that completes, by bisection; live heap; garbage per action), snapshot sizes, and
scoring throughput on CPython and MicroPython. Prints a table; writes build/bench_core.json.

The unix port is 64-bit, so its object sizes are an upper bound for the 32-bit Pico."""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import mpy_run  # noqa: E402
from mpy_build import compile_package  # noqa: E402

MPDIR = ROOT / "tools" / "mp"
SCRIPTS = ROOT / "host_tests" / "mp"


def run_mp(script, args, heap_kb, mpy):
    return mpy_run.run(script, [mpy, SCRIPTS, MPDIR], "%dk" % heap_kb, args, timeout=900)


def parse(stdout):
    return {k: int(v) for k, v in (ln.split() for ln in stdout.splitlines() if ln.strip())}


def smallest_heap(script, args, mpy, lo=4, hi=512):
    """The smallest -X heapsize (KB) that completes the run."""
    return mpy_run.smallest_heap(lambda kb: run_mp(script, args, kb, mpy).returncode == 0,
                                 lo, hi)


def scoring_rates(mpy):
    out = {}
    mp = run_mp(MPDIR / "bench_scoring.py", [3], 256, mpy)
    if mp.returncode != 0:
        raise SystemExit(mp.stderr)
    path = os.pathsep.join(str(ROOT / d) for d in ("firmware", "tools/hostlib"))
    env = dict(os.environ, PYTHONPATH=path)
    cp = subprocess.run([sys.executable, str(MPDIR / "bench_scoring.py"), "3"],
                        capture_output=True, text=True, env=env, check=True)
    for label, text in (("micropython", mp.stdout), ("cpython", cp.stdout)):
        for ln in text.splitlines():
            name, n, us = ln.split()
            out.setdefault(name, {})[label] = {"evaluations": int(n), "us": int(us),
                                               "per_sec": int(int(n) * 1e6 / max(1, int(us)))}
    return out


def main():
    mpy = Path(tempfile.mkdtemp(prefix="picoyacht-bench-"))
    compile_package(mpy)
    results = {"games": {}, "scoring": scoring_rates(mpy)}
    sys.path.insert(0, str(ROOT / "firmware"))
    sys.path.append(str(ROOT / "tools" / "hostlib"))  # micropython.const off the device
    from picoyacht import rules

    for rid, players in ((0, 4), (4, 4), (3, 4), (5, 4), (1, 1)):
        name = rules.NAMES[rid]
        run = run_mp(MPDIR / "bench_game.py", [rid, players], 256, mpy)
        if run.returncode != 0:
            raise SystemExit(run.stderr)
        figures = parse(run.stdout)
        figures["smallest_heap_kb"] = smallest_heap(MPDIR / "bench_game.py", [rid, players], mpy)
        results["games"]["%s x%d" % (name, players)] = figures
    print("%-16s %9s %10s %9s %10s %10s %9s" % ("game", "min heap", "live game", "live all",
                                               "garb/roll", "garb/score", "mem_peak*"))
    for key, f in results["games"].items():
        print("%-16s %7d k %10d %9d %10d %10d %9d" % (
            key, f["smallest_heap_kb"], f["live_game_bytes"], f["live_total_bytes"],
            f["garbage_per_roll"], f["garbage_per_score"], f["mem_peak_cumulative"]))
    print("* mem_peak on the unix port counts every allocation (the GC never subtracts):"
          " an upper bound, not a peak.")
    print("\n%-12s %12s %14s %14s %7s" % ("scoring", "evaluations", "CPython /s",
                                          "MicroPython /s", "ratio"))
    for name, r in results["scoring"].items():
        c, m = r["cpython"]["per_sec"], r["micropython"]["per_sec"]
        print("%-12s %12d %14d %14d %6.1fx" % (name, r["cpython"]["evaluations"], c, m,
                                              c / max(1, m)))
    out = ROOT / "build" / "bench_core.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(results, indent=1))
    print("\nwritten", out.relative_to(ROOT))


if __name__ == "__main__":
    main()
