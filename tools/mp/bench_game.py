"""One complete game under MicroPython: prints heap figures as `key value` lines.
Usage: micropython bench_game.py RULESET_ID PLAYERS"""

import gc
import sys

import micropython
from play_games import hold_mask

from picoyacht.game import Game
from picoyacht.rules import Options

from allocs import allocated
from scripted import LcgRoller


def garbage_of(fn):
    """The garbage one action leaves behind."""
    return allocated(fn, 1)


def main():
    rid, players = int(sys.argv[1]), int(sys.argv[2])
    gc.collect()
    base = gc.mem_alloc()
    g = Game(rid, ["CPU%d" % i for i in range(players)], options=Options(),
             roller=LcgRoller(rid + 7), seed=rid + 7)
    rolls = scores = roll_bytes = score_bytes = 0
    nb = g.rs.nboxes
    while not g.over:
        roll_bytes += garbage_of(g.roll)
        rolls += 1
        while g.rolls_left > 0 and g.rolls_used < 3:
            mask = hold_mask(g.dice)
            if mask == (1 << len(g.dice)) - 1:
                break
            g.set_held(mask)
            roll_bytes += garbage_of(g.roll)
            rolls += 1
        allowed = g.allowed()
        best, best_s = -1, -1
        for b in range(nb):
            if allowed >> b & 1 and g.preview(b) > best_s:
                best, best_s = b, g.preview(b)
        score_bytes += garbage_of(lambda box=best: g.score(box))
        scores += 1
    gc.collect()
    print("live_game_bytes", gc.mem_alloc() - base)
    print("live_total_bytes", gc.mem_alloc())
    print("garbage_per_roll", roll_bytes // rolls)
    print("garbage_per_score", score_bytes // scores)
    print("mem_peak_cumulative", micropython.mem_peak())
    print("snapshot_bytes", len(g.snapshot()))
    print("winner_total", g.total(g.winners()[0]))


main()
