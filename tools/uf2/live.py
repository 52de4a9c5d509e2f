"""What the heap holds in an all-Expert game on the frozen .uf2: the live bytes each module
and each object of the game adds, on the emulated Pico.

    python tools/uf2/live.py [--seats 4] [--rules 0] [--uf2 FILE]

Why: freezing keeps the bytecode in flash, but each module's globals, functions and
classes are still made in RAM when it is imported. This splits the smallest heap that
tools/uf2/heap.py finds into what is live: every module the game imports (in the order
of their dependencies, so each row is that module alone), the board, the app, the game,
the CPU's engine, Expert's table and one decision. Each figure is gc.mem_alloc() after
gc.collect(), so the rest of heap.py's answer is what the game allocates and frees on the
way (saves, frames) and what the gaps between blocks waste.
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

# What an all-CPU game imports (snapshot: at its first save; no sound without a piezo, no
# invariants unless a save is loaded), leaves first: a row then holds its module alone.
MODULES = ("rules", "buttons", "cues", "ticks", "debounce", "font", "fast", "ssd1306", "store",
           "snapshot", "game", "saves", "roller", "gamelog", "policy", "screens", "menus",
           "coach", "turn", "play", "board_power", "board_pico", "app", "dice", "engine",
           "strategy", "strategy_table")

DEVICE = """import gc, sys
gc.collect()
_base = gc.mem_alloc()
def mark(kind, name):
    gc.collect()
    print("LIVE", kind, name, gc.mem_alloc() - _base)
for m in %(modules)r:
    if "picoyacht." + m not in sys.modules:
        __import__("picoyacht." + m)
    mark("module", m)
from picoyacht.board_pico import make_board
from picoyacht import app as A, strategy, strategy_table
board = make_board()
mark("object", "board")
runner = A.Runner(board)
app = runner.app
mark("object", "app")
s = app.settings
s.rid = %(rules)d
s.nplayers = %(seats)d
for i in range(%(seats)d):
    s.kinds[i] = 3
app.new_game()
mark("object", "game")
strategy.run(strategy.engine_steps(app.turn.game))
mark("object", "engine")
table = strategy_table.load(app.turn.game)
mark("object", "table")
strategy.cpu_step(app.turn.game, strategy.EXPERT, table)
mark("object", "decision")
board.restore()
print("DONE")
"""


def measure(uf2, seats, rules):
    code = DEVICE % {"modules": MODULES, "seats": seats, "rules": rules}
    r = subprocess.run(["node", str(HERE / "emu.mjs"), "exec", str(uf2), "--code", code],
                       capture_output=True, text=True, cwd=ROOT)
    if r.returncode != 0:
        sys.exit(r.stderr[-2000:])
    out = json.loads(r.stdout.strip().splitlines()[-1])["out"]
    if "DONE" not in out:
        sys.exit("the probe failed on the device:\n" + out[-2000:])
    rows = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[0] == "LIVE":
            rows.append((parts[1], parts[2], int(parts[3])))
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--rules", type=int, default=0)
    ap.add_argument("--uf2", default=str(ROOT / "build" / "picoyacht-pico.uf2"))
    a = ap.parse_args(argv)
    rows = measure(a.uf2, a.seats, a.rules)
    before = 0
    sums = {}
    print("%-8s %-16s %8s %8s" % ("kind", "name", "adds B", "live B"))
    for kind, name, live in rows:
        print("%-8s %-16s %8d %8d" % (kind, name, live - before, live))
        sums[kind] = sums.get(kind, 0) + live - before
        before = live
    for kind, total in sums.items():
        print("%ss: %d B" % (kind, total))


if __name__ == "__main__":
    main()
