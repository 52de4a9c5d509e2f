"""Each box's chance to score in one turn spent chasing only it, per rule set, written into
firmware/picoyacht/estimate.py (its _HITS rows; the code there is written by hand).

    python tools/tables/chase_chances.py [--check]

Normal's estimate counts a box that a turn's chase fills only now and then as worth more
while many boxes are open (picoyacht.estimate). The chance depends only on the rule set's
boxes and dice (not on the joker rule or Sharp Dice, which never change whether a box
scores), so it is measured here once, with the device's own search (a turn scoring 1 for
any points in that box), instead of by a second search per box at every game's start.
Stored a byte each (/255). --check: exit 1 when the rows in estimate.py are not these
(host_tests run it).
"""

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tools/, for paths
from paths import ROOT

from picoyacht import engine, rules
from picoyacht.dice import drain

OUT = ROOT / "firmware" / "picoyacht" / "estimate.py"


def chances(rid):
    """Per box: the chance (0..1) that a turn chasing only that box scores in it."""
    e = engine.Engine(rules.RULESETS[rid], rules.Options())
    codes = e.dice.roll_codes
    out = []
    for b in range(e.nb):
        e.hold_stage = -1
        for r in range(e.nrolls):
            pts = (codes[r] >> (3 * b)) & 7 if b < 6 else e.roll_scores[b - 6][r]
            e.roll_values[r] = engine.ONE if pts else 0
        out.append(drain(e.start_steps()) / engine.ONE)
    return out


def row(rid):
    """The rule set's chances as estimate.py stores them: a byte each (/255)."""
    return bytes(round(min(q, 1.0) * 255) for q in chances(rid))


def rows_text():
    return "_HITS = (\n%s)\n" % "".join("    %r,  # %s\n" % (row(rid), rules.NAMES[rid])
                                         for rid in range(rules.COUNT))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args(argv)
    text = OUT.read_text()
    new = re.sub(r"_HITS = \(\n(    .*\n)*\)\n", lambda m: rows_text(), text, count=1)
    if a.check:
        sys.exit(0 if new == text else 1)
    OUT.write_text(new)
    print("->", OUT)


if __name__ == "__main__":
    main()
