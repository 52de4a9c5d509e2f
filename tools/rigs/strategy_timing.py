"""Decision time, inner-loop steps, table reads and RAM of the CPU levels under the
MicroPython unix port (tools/tables/bench_strategy.py runs it). argv[1]: games per case,
argv[2] (optional): the tables directory. One line per case:
rid level decisions mean_us max_us mean_steps mean_reads mean_alloc held_bytes total"""

import gc
import sys
import time

from cpu_moves import apply

from picoyacht import engine, strategy, strategy_table
from picoyacht.game import Game

from scripted import LcgRoller

games = int(sys.argv[1])
tdir = sys.argv[2] if len(sys.argv) > 2 else None
cases = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 2), (3, 2), (4, 2), (5, 2)]
g = e = table = None
for rid, level in cases:
    strategy._engine = None
    g = e = table = None
    gc.collect()
    a0 = gc.mem_alloc()
    g = Game(rid, ["cpu"], kinds=[level], roller=LcgRoller(rid * 100 + 1), seed=1)
    table = strategy_table.load(g, (tdir,)) if (tdir and level == 3) else None
    if level == 3 and table is None:
        continue
    if level != 1:
        e = engine.drain(strategy.engine_steps(g))
        if level == 2:
            e.pars()
    gc.collect()
    held = gc.mem_alloc() - a0
    n = tot = worst = steps = reads = alloc = 0
    total = 0
    rng = LcgRoller(7)
    for k in range(games):
        g = Game(rid, ["cpu"], kinds=[level], roller=LcgRoller(rid * 100 + k + 1), seed=k)
        while not g.over:
            if not g.rolls_used:
                g.roll()
                continue
            e = strategy._engine
            s0 = e.ops if e else 0
            r0 = table.reads if table else 0
            gc.collect()
            gc.disable()
            m0 = gc.mem_alloc()
            t0 = time.ticks_us()
            act = strategy.cpu_step(g, level, table, rng)
            dt = time.ticks_diff(time.ticks_us(), t0)
            alloc += gc.mem_alloc() - m0
            gc.enable()
            e = strategy._engine
            steps += (e.ops - s0) if e else 0
            reads += (table.reads - r0) if table else 0
            n += 1
            tot += dt
            if dt > worst:
                worst = dt
            apply(g, act)
        total += g.total(0)
    if table:
        table.close()
    print(rid, level, n, tot // n, worst, steps // n, reads // n, alloc // n, held, total)
