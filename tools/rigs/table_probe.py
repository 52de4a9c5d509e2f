"""Time the table reads of CPU decisions: for seeded turn-start positions of a table's game,
every value the in-turn search asks for (picoyacht.engine's _weights: each open upper box
with 0..n dice, each open lower box, the joker box's two), on the board this runs on.

    import table_probe; table_probe.main(PATH, POSITIONS)

Prints "LOOKUP <path> <positions> <median us> <max us> <reads a decision> <alloc max>":
the time of one decision's reads, the rows (plain form: file reads) a decision decodes,
and the most bytes one decision's reads allocated (-1 where gc cannot say). Runs on the
emulated Pico (tools/emu/bench_pico.py --only tables) and on the unix port (faster)."""

import gc
import sys
import time

from picoyacht import rules, strategy_table


class Seeded:
    """Small numbers from a fixed seed, the same on every interpreter."""

    def __init__(self, seed):
        self.state = seed

    def below(self, n):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % n


def position(rs, t, rng):
    """A turn-start position the game can reach: filled boxes, upper total, bonus flag."""
    mask = 0
    for b in range(rs.nboxes):
        if rng.below(2):
            mask |= 1 << b
    mask &= t.full - (1 << rng.below(rs.nboxes))  # at least one box open
    up = 0
    for f in range(6):
        if mask >> f & 1:
            up += (f + 1) * rng.below(rs.ndice + 1)
    y = 0
    if rs.joker and mask >> rs.yahtzee_box & 1:
        y = rng.below(2)
    return mask, up if up < rs.bonus_at else rs.bonus_at, y


def decision(t, rs, mask, up, y):
    """The reads of one decision, as picoyacht.engine asks them."""
    n, at = rs.ndice, rs.bonus_at
    upc = up if up < at else at
    v = 0
    for b in range(rs.nboxes):
        if mask >> b & 1:
            continue
        m2 = mask | 1 << b
        if b < 6:
            for k in range(n + 1):
                u2 = up + k * (b + 1)
                v += t.value(m2, u2 if u2 < at else at, y)
        elif rs.joker and b == rs.yahtzee_box:
            v += t.value(m2, upc, 0) + t.value(m2, upc, 1)
        else:
            v += t.value(m2, upc, y)
    return v


def main(path, count):
    t = strategy_table.Table.open(path)
    rs = rules.RULESETS[t.rid]
    if rs.joker:  # the first read with the bonus flag finds the Yahtzee box once
        t.value(1 << rs.yahtzee_box, 0, 1)
    rng = Seeded(7)
    times = [0] * count
    worst_alloc = -1
    reads = 0
    for i in range(count):
        mask, up, y = position(rs, t, rng)
        r0 = t.reads
        gc.collect()
        a0 = gc.mem_alloc() if hasattr(gc, "mem_alloc") else None
        t0 = time.ticks_us()
        decision(t, rs, mask, up, y)
        times[i] = time.ticks_diff(time.ticks_us(), t0)
        if a0 is not None:
            worst_alloc = max(worst_alloc, gc.mem_alloc() - a0)
        reads += t.reads - r0
    times.sort()
    print("LOOKUP", path, count, times[count // 2], times[-1], reads // count, worst_alloc)
    t.close()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
