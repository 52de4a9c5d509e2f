"""Prints the strategy engine's decisions on deterministic positions, so CPython and the
MicroPython unix port can be compared line by line. argv[1]: a Yahtzee (free joker) table
built for the sub-game whose open boxes are SUB_OPEN (see test_strategy.py)."""

import sys

from strategy_pos import make_game

from picoyacht import rules, strategy, strategy_table

from scripted import LcgRoller

SUB_OPEN = (1 << 5) | (1 << 6) | (1 << 10) | (1 << 12)


def positions(rid, sub, count, seed):
    r = LcgRoller(seed)
    rs = rules.RULESETS[rid]
    nb, n = rs.nboxes, rs.ndice
    full = (1 << nb) - 1
    for _ in range(count):
        if sub:
            mask = (full & ~SUB_OPEN) | (((r.d6() << 10) ^ (r.d6() << 4) ^ r.d6() * 977) & SUB_OPEN)
        else:
            mask = 0
            for b in range(nb):
                if r.d6() <= 3:
                    mask |= 1 << b
        if mask == full:
            continue
        up = 0
        for b in range(6):
            if mask >> b & 1:
                up += (r.d6() - 1) * (b + 1)
        y = 1 if rs.joker and mask >> rs.yahtzee_box & 1 and r.d6() <= 2 else 0
        dice = [r.d6() for _ in range(n)]
        if r.d6() == 1:
            dice = [dice[0]] * n
        left = r.d6() % 3
        yield mask, up, y, dice, left


def main():
    table = strategy_table.Table.open(sys.argv[1])
    jobs = ((rules.YAHTZEE, True, strategy.EXPERT, table, 120),
            (rules.YAHTZEE, False, strategy.NORMAL, None, 60),
            (rules.YATZY, False, strategy.NORMAL, None, 40),
            (rules.MAXI, False, strategy.NORMAL, None, 25),
            (rules.DELUXE, False, strategy.GREEDY, None, 25))
    for rid, sub, level, tab, count in jobs:
        for mask, up, y, dice, left in positions(rid, sub, count, 1000 + rid):
            g = make_game(rid, rules.JOKER_FREE, mask, up, y, dice, left)
            k, a, v = strategy.advise(g, level, tab)
            print(rid, level, mask, up, y, dice, left, "->", k, a, v)


main()
