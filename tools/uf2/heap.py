"""Smallest free heap with which an all-Expert game completes on the emulated Pico, running
the frozen .uf2 (build/picoyacht-pico.uf2 from `make uf2`).

    python tools/uf2/heap.py [--seats 4] [--rules 0] [--lo 8] [--hi 64] [--jobs 2]
                             [--config "SAMPLE_MS = 20"] [--uf2 FILE]

Search in 1 KB steps: a blocker allocated before anything of the game leaves X bytes free
(tools/uf2/emu.mjs game --free X); X completes when the game reaches its end with no CPU
engine error, fault, failed save, MemoryError or traceback. Each round runs --jobs probes
at once, splitting the interval evenly. --config is laid over the built-in pin map (e.g. a
slower button sampling makes the emulator faster; the loop allocates nothing per pass).
Prints every run, the first failure seen below the answer, and the answer. Minutes per
run: the CPU players keep their own pace.
"""

import argparse
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def run(uf2, free, seats, rules, config):
    cmd = ["node", str(HERE / "emu.mjs"), "game", str(uf2), "--free", str(free),
           "--seats", str(seats), "--rules", str(rules)]
    if config:
        cmd += ["--config", config + "\n"]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if r.returncode != 0:
        sys.exit(r.stderr[-2000:])
    return json.loads(r.stdout.strip().splitlines()[-1])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--rules", type=int, default=0)
    ap.add_argument("--lo", type=int, default=8, help="KB known (or assumed) to fail")
    ap.add_argument("--hi", type=int, default=64, help="KB known (or assumed) to complete")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--config", default="")
    ap.add_argument("--uf2", default=str(ROOT / "build" / "picoyacht-pico.uf2"))
    a = ap.parse_args(argv)
    lo, hi = a.lo, a.hi
    best, failure = None, None
    pool = ThreadPoolExecutor(a.jobs)
    while hi - lo > 1:
        n = min(a.jobs, hi - lo - 1)
        probes = sorted({lo + (hi - lo) * (i + 1) // (n + 1) for i in range(n)})
        runs = pool.map(lambda kb: (kb, run(a.uf2, kb * 1024, a.seats, a.rules, a.config)),
                        probes)
        for kb, r in sorted(runs):
            print("free %3d KB (blocker left %s bytes): %s in %s s of device time"
                  % (kb, r["heap_left"], "completes" if r["completed"] else "FAILS",
                     r["sim_s"]), flush=True)
            if r["completed"]:
                hi, best = min(hi, kb), (r if kb <= hi else best)
            elif kb > lo:
                lo, failure = kb, r
    if failure:
        print("first failure at %d KB:\n%s" % (lo, failure["failure"] or failure["tail"]))
    left = best["heap_left"] if best else None
    print("SMALLEST_FREE_HEAP %d KB (%s bytes left by the blocker), %d seats, rules %d"
          % (hi, left, a.seats, a.rules))


if __name__ == "__main__":
    main()
