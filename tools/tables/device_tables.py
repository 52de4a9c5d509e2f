"""Which of Expert's tables a board carries: every one it has room for, in ORDER, the
defaults first (what a new game of Yahtzee or Yatzy plays), then Sharp Dice's, Deluxe's and
the other joker rules'. The device opens a table only for the exact rules it was built
for (strategy_table.file_names, Table.serves); a game whose table a board lacks is played
by Normal's estimate, and setup and the hand-over say so.

Used by `make uf2` (tools/uf2/build.py: each board's ROMFS) and `make flash`
(tools/deploy/flash.py: the board's filesystem)."""

DEFAULTS = ("yahtzee_0.bin", "yatzy.bin")
ORDER = DEFAULTS + ("yahtzee_0_sharp.bin", "yatzy_sharp.bin", "deluxe.bin", "yahtzee_1.bin",
                    "yahtzee_2.bin", "yahtzee_1_sharp.bin", "yahtzee_2_sharp.bin")


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
