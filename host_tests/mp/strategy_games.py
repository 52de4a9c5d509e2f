"""One complete game per rule set with CPU seats under the MicroPython unix port; every
action goes through game.py's checks. argv[1]: seat kinds, e.g. "21" (Normal, Easy);
argv[2] (optional): a table directory, for Expert seats."""

import gc
import sys

from cpu_moves import apply

from picoyacht import rules, strategy, strategy_table
from picoyacht.game import Game

from scripted import LcgRoller

kinds = [int(c) for c in sys.argv[1]]
tdir = sys.argv[2] if len(sys.argv) > 2 else None
for rid in range(rules.COUNT):
    g = Game(rid, ["p%d" % i for i in range(len(kinds))], kinds=kinds, roller=LcgRoller(rid + 5),
             seed=rid + 5)
    table = strategy_table.load(g, (tdir,)) if tdir else None
    rng = LcgRoller(rid + 99)
    while not g.over:
        apply(g, strategy.cpu_step(g, g.kinds[g.current], table, rng))
    if table:
        table.close()
    gc.collect()
    print(rid, "over", [g.total(s) for s in range(len(kinds))], gc.mem_alloc())
