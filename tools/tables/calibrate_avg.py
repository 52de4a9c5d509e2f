"""Measure how far Normal's estimate falls short of the final total, and write the result
into firmware/picoyacht/final_gap.py (its rows; the code there is written by hand).

    python tools/tables/calibrate_avg.py [--games 500] [--seed 1]

Normal's estimate of a position (picoyacht.engine.Engine.heuristic) ranks moves well but
values the boxes still open at a share of one turn's chase, so the value the search gives
("avg" in a hint) is far below the total a game ends with. For every rule set this plays
seeded solitaire games as the hint advises when no table serves (Normal), and at each
decision after a roll records the final total minus the hint's value; the mean, per number
of boxes that stay open after this turn, is the gap the hint adds back (final_gap.gap).
Default options, and Sharp Dice for the rule sets that have it (their own rows: a doubled
box makes a game's total higher than Normal's estimate expects). host_tests/test_strategy.py
checks the rows on other seeds.
"""

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tools/, for paths
from paths import ROOT

from picoyacht import rules, strategy
from picoyacht.game import Game
from picoyacht.roller import Roller

OUT = ROOT / "firmware" / "picoyacht" / "final_gap.py"


def open_boxes(g):
    return g.rs.nboxes - bin(g.filled[g.current]).count("1")


def residuals(rid, games, seed, shown=lambda game, value: value, options=None):
    """Per seeded Normal solitaire game of rule set rid: [(boxes open after this turn, the
    final total minus shown(game, the hint's value), in centi-points)] at each decision."""
    out = []
    for k in range(games):
        s = seed * 100003 + k
        g = Game(rid, ["a"], bytearray((strategy.NORMAL,)), options or rules.Options(),
                 Roller(s), s)
        seen = []
        while not g.over:
            if not g.rolls_used:
                g.roll()
                continue
            kind, arg, value = strategy.run(strategy.advise_steps(g, strategy.NORMAL))
            seen.append((open_boxes(g) - 1, shown(g, value)))
            if kind == strategy.SCORE:
                g.score(arg)
            else:
                g.set_held(arg)
                g.roll()
        out.append([(left, g.total(0) * 100 - value) for left, value in seen])
    return out


def gaps(rid, games, seed, options=None):
    """Per boxes left open after the turn (0 .. boxes - 1): the mean gap in whole points,
    never below 0 (the last turn is searched exactly: its gap is 0)."""
    nb = rules.RULESETS[rid].nboxes
    sums, counts = [0] * nb, [0] * nb
    for game in residuals(rid, games, seed, options=options):
        for left, r in game:
            sums[left] += r
            counts[left] += 1
    means = [max(0, round(sums[i] / counts[i] / 100)) if counts[i] else 0 for i in range(nb)]
    means[0] = 0
    return means


def rows_text(name, table):
    """A tuple of bytes rows as final_gap.py spells it."""
    rows = []
    for rid, means in table:
        if max(means) > 255:
            raise SystemExit("a gap over 255 points: widen final_gap's rows")
        rows.append("    %r,  # %s\n" % (bytes(means), rules.NAMES[rid]))
    return "%s = (\n%s)\n" % (name, "".join(rows))


def write(plain, sharp, games, seed):
    """New rows (and their provenance) into final_gap.py; its code stays as written.
    sharp: the rows with Sharp Dice, for the rule sets that have it (their ids first)."""
    text = OUT.read_text()
    text = re.sub(r"\(\d+ seeded games per rule set, seed \d+\)",
                  "(%d seeded games per rule set, seed %d)" % (games, seed), text)
    for name, table in (("_GAPS", plain), ("_SHARP_GAPS", sharp)):
        head, rest = text.split(name + " = (\n", 1)
        text = head + rows_text(name, table) + rest[rest.index(")\n") + 2:]
    OUT.write_text(text)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    plain, sharp = [], []
    for rid in range(rules.COUNT):
        plain.append((rid, gaps(rid, a.games, a.seed)))
        print(rules.NAMES[rid], plain[-1][1], flush=True)
        if rules.RULESETS[rid].sharp:
            sharp.append((rid, gaps(rid, a.games, a.seed, rules.Options(sharp=True))))
            print(rules.NAMES[rid], "Sharp Dice", sharp[-1][1], flush=True)
    assert [rid for rid, _ in sharp] == list(range(len(sharp)))  # final_gap indexes by id
    write(plain, sharp, a.games, a.seed)
    print("->", OUT)


if __name__ == "__main__":
    main()
