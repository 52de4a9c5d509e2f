"""Smallest free heap with which an all-Expert game completes on the emulated Pico, running
the frozen .uf2 (build/picoyacht-pico.uf2 from `make uf2`).

    python tools/uf2/heap.py [--seats 4] [--rules 0] [--lo 8] [--hi 64] [--uf2 FILE]

Bisection in 1 KB steps: a blocker allocated before anything of the game leaves X bytes
free (tools/uf2/emu.mjs game --free X); X completes when the game reaches its end with no
CPU engine error, MemoryError or traceback. Prints every run, the first failure seen below
the answer, and the answer. Several minutes per run: the CPU players keep their own pace.
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def run(uf2, free, seats, rules):
    r = subprocess.run(["node", str(HERE / "emu.mjs"), "game", str(uf2), "--free", str(free),
                        "--seats", str(seats), "--rules", str(rules)],
                       capture_output=True, text=True, cwd=ROOT)
    if r.returncode != 0:
        sys.exit(r.stderr[-2000:])
    return json.loads(r.stdout.strip().splitlines()[-1])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--rules", type=int, default=0)
    ap.add_argument("--lo", type=int, default=8, help="KB known (or assumed) to fail")
    ap.add_argument("--hi", type=int, default=64, help="KB known (or assumed) to complete")
    ap.add_argument("--uf2", default=str(ROOT / "build" / "picoyacht-pico.uf2"))
    a = ap.parse_args(argv)
    lo, hi = a.lo, a.hi
    best, failure = None, None
    while hi - lo > 1:
        mid = (lo + hi) // 2
        r = run(a.uf2, mid * 1024, a.seats, a.rules)
        print("free %3d KB (blocker left %s bytes): %s in %s s of device time"
              % (mid, r["heap_left"], "completes" if r["completed"] else "FAILS", r["sim_s"]),
              flush=True)
        if r["completed"]:
            hi, best = mid, r
        else:
            lo, failure = mid, r
    if failure:
        print("first failure at %d KB:\n%s" % (lo, failure["failure"] or failure["tail"]))
    left = best["heap_left"] if best else None
    print("SMALLEST_FREE_HEAP %d KB (%s bytes left by the blocker), %d seats, rules %d"
          % (hi, left, a.seats, a.rules))


if __name__ == "__main__":
    main()
