"""Which of Expert's tables a board carries: every one it has room for, in ORDER, the
defaults first (what a new game of Yahtzee or Yatzy plays), then the tables no other one
serves (Sharp Dice's, Deluxe's, the Original joker's), then the Free joker's, which the
Forced joker's tables serve when they are missing (strategy_table.Table.serves; `make
bench-strategy` measures what that costs). The device opens a table only for the rules it
was built for (strategy_table.file_names, Table.serves); a game whose table a board lacks
is played by Normal's estimate, and setup and the hand-over say so.

Used by `make uf2` (tools/uf2/build.py: each board's ROMFS, tables packed) and `make flash`
(tools/deploy/flash.py: the board's filesystem, tables plain)."""

import paths  # noqa: F401  (the firmware package on the path)

from picoyacht import rules
from picoyacht.strategy_table import file_names

DEFAULTS = ("yahtzee_0.bin", "yatzy.bin")
ORDER = DEFAULTS + ("yahtzee_0_sharp.bin", "yatzy_sharp.bin", "deluxe.bin", "yahtzee_2.bin",
                    "yahtzee_2_sharp.bin", "yahtzee_1.bin", "yahtzee_1_sharp.bin")


def pick(sizes, room, cost=lambda size: size):
    """(names kept, names left out) of sizes ({name: bytes}, the built tables) taken in
    ORDER while they fit `room` (cost: what a table of that size takes there); a table
    that does not fit is passed over and a smaller one after it may still go."""
    kept, left = [], []
    used = 0
    for name in ORDER:
        if name not in sizes:
            continue
        c = cost(sizes[name])
        if used + c <= room:
            kept.append(name)
            used += c
        else:
            left.append(name)
    return kept, left


def combinations():
    """(words as a player says them, rule set, joker rule, Sharp Dice) of every game and option."""
    out = []
    for rs in rules.RULESETS:
        for sharp in (False, True) if rs.sharp else (False,):
            for joker in range(len(rules.JOKER_NAMES)) if rs.joker else (0,):
                words = rs.name
                if rs.joker:
                    words += ", %s joker" % rules.JOKER_NAMES[joker]
                out.append((words + (", Sharp Dice" if sharp else ""), rs.id, joker, sharp))
    return out


def by_estimate(kept):
    """The combinations with a table (words) that a board carrying the tables `kept` plays
    by Normal's estimate: none of the files the device would open for them is there."""
    return [w for w, rid, joker, sharp in combinations()
            if file_names(rid, joker, sharp) and not set(file_names(rid, joker, sharp)) & set(kept)]
