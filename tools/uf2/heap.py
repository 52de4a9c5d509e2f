"""Smallest free heap with which an all-Expert game completes on the emulated Pico, running
the frozen .uf2 (build/picoyacht-pico.uf2 from `make uf2`).

    python tools/uf2/heap.py [--seats 4] [--rules 0] [--lo 8] [--hi 64] [--jobs 2]
                             [--config "SAMPLE_MS = 20"] [--uf2 FILE]

Search in 1 KB steps (mpy_run.smallest_heap, the one bisection): a blocker allocated before
anything of the game leaves X bytes free; X completes when the game reaches its end with no
CPU engine error, fault, failed save, MemoryError or traceback. --jobs runs that many probes
of each round at once. --config is laid over the built-in pin map (e.g. a slower button
sampling makes the emulator faster; the loop allocates nothing per pass). Prints every run,
the first failure seen below the answer, and the answer. Minutes per run: the CPU players
keep their own pace.
"""

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tools/: paths does the rest
import paths  # noqa: E402

import pico  # noqa: E402
from mpy_run import smallest_heap  # noqa: E402

UF2 = paths.BUILD / "picoyacht-pico.uf2"

# The drive's /main.py: PicoYacht's own board and loop, a game set up the way the setup
# screen's START does, after a blocker that leaves `free` bytes of heap.
HARNESS = """import gc, sys
gc.collect()
_blocker = bytearray(max(16, gc.mem_free() - {free} - 48)) if {free} else None
gc.collect()
print("HEAP_LEFT", gc.mem_free())
from picoyacht.board_pico import make_board
from picoyacht import app as A
board = make_board()
runner = A.Runner(board)
app = runner.app
s = app.settings
s.rid = {rules}
s.nplayers = {seats}
for i in range({seats}):
    s.kinds[i] = 3
_fault = app.fault


def fault(e):  # where it failed, then the app's own handling
    sys.print_exception(e)
    _fault(e)


app.fault = fault
app.new_game()  # what setup's Start does once its key handler has returned
try:
    runner.run()
finally:
    board.restore()
"""

# A game that "completes" reached its end with none of these on the console.
FAILURE = r'Traceback|MemoryError|cpu_error|save_error|"ev":"fault"'


def game(free, seats=4, rules=0, config=None, before=(), after=(), uf2=UF2):
    """One all-Expert game on the .uf2 with `free` bytes of heap. `config`: a drive
    config.py laid over the built-in; `before` and `after` it: code run at the REPL (the
    output of each in "execs")."""
    steps = [{"exec": code} for code in before]
    if config is not None:
        steps.append({"put": ["/config.py", config]})
    steps += [{"exec": code} for code in after]
    steps.append({"put": ["/main.py", HARNESS.format(free=free, seats=seats, rules=rules)]})
    r = pico.run_frozen(uf2, steps, '"ev":"end"|' + FAILURE, sim_s=1800)
    out = r.get("out", "")
    left = re.search(r"HEAP_LEFT (\d+)", out)
    fail = re.search(r".*(%s).*(\r?\n.*){0,12}" % FAILURE, out)
    return {"completed": '"ev":"end"' in out and not fail and not r.get("error"),
            "heap_left": int(left.group(1)) if left else None,
            "sim_s": round(r.get("runMs", 0) / 1000), "failure": fail and fail.group(0),
            "execs": [e.get("out", "") + e.get("err", "") for e in r["execs"]],
            "tail": (out or r.get("error", ""))[-600:]}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--rules", type=int, default=0)
    ap.add_argument("--lo", type=int, default=8, help="KB known (or assumed) to fail")
    ap.add_argument("--hi", type=int, default=64, help="KB known (or assumed) to complete")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--config", default="")
    ap.add_argument("--uf2", default=str(UF2))
    a = ap.parse_args(argv)
    runs = {}

    def completes(kb):
        r = runs[kb] = game(kb * 1024, a.seats, a.rules, a.config + "\n" if a.config else None,
                            uf2=a.uf2)
        print("free %3d KB (blocker left %s bytes): %s in %s s of device time"
              % (kb, r["heap_left"], "completes" if r["completed"] else "FAILS", r["sim_s"]),
              flush=True)
        return r["completed"]

    kb = smallest_heap(completes, a.lo + 1, a.hi, a.jobs)
    below = [x for x in runs if not runs[x]["completed"] and (kb is None or x < kb)]
    if below:
        r = runs[max(below)]
        print("first failure at %d KB:\n%s" % (max(below), r["failure"] or r["tail"]))
    left = runs[kb]["heap_left"] if kb in runs else None
    print("SMALLEST_FREE_HEAP %s KB (%s bytes left by the blocker), %d seats, rules %d"
          % (kb, left, a.seats, a.rules))
    return kb


if __name__ == "__main__":
    main()
