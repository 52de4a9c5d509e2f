"""Plays one complete 4-player game of every rule set with a fixed-seed roller and a simple
deterministic policy, printing totals and the final snapshot. Both interpreters must print
the same lines; under MicroPython it also reports heap figures."""

import gc
import sys

from picoyacht import rules
from picoyacht.game import Game
from picoyacht.policy import most_common_mask as hold_mask  # the firmware's fallback policy
from picoyacht.rules import Options

from scripted import LcgRoller

try:
    from ubinascii import hexlify
except ImportError:
    from binascii import hexlify


def play(rid, players, seed, opts):
    g = Game(rid, ["CPU%d" % i for i in range(players)], options=opts,
             roller=LcgRoller(seed), seed=seed)
    nb = g.rs.nboxes
    while not g.over:
        g.roll()
        while g.rolls_left > 0 and g.rolls_used < 3:
            mask = hold_mask(g.dice)
            if mask == (1 << len(g.dice)) - 1:
                break
            g.set_held(mask)
            g.roll()
        best, best_s = -1, -1
        allowed = g.allowed()
        for b in range(nb):
            if allowed >> b & 1:
                s = g.preview(b)
                if s > best_s:
                    best, best_s = b, s
        g.score(best)
        back = Game.restore(g.snapshot(), LcgRoller(0))
        if back.snapshot() != g.snapshot():
            raise AssertionError("snapshot round trip")
    return g


def main():
    players = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    for rs in rules.RULESETS:
        for seed in (1, 2):
            opts = Options(joker=seed % 3, sharp=seed == 2, saved_rolls=seed == 1,
                           bonus100=seed == 2, bet=10)
            g = play(rs.id, players, seed * 1000 + rs.id, opts)
            totals = [g.total(s) for s in range(g.nseats)]
            print(rs.name, seed, totals, g.winners(), hexlify(g.snapshot()).decode())
            gc.collect()
    gc.collect()
    if hasattr(gc, "mem_alloc") and sys.implementation.name == "micropython":
        print("# live heap after games:", gc.mem_alloc())


if __name__ == "__main__":
    main()
