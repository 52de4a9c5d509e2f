"""An independent reference scorer written straight from RULES.md, box by box, on dice
lists with Counter and itertools. It shares no code with the firmware's table-driven
scorer, so agreement over every multiset means something."""

from collections import Counter
from itertools import combinations


def _of_kind(c, n):
    faces = [f for f, k in c.items() if k >= n]
    return n * max(faces) if faces else 0


def _pairs(c, how_many):
    faces = sorted((f for f, k in c.items() if k >= 2), reverse=True)
    if len(faces) < how_many:
        return 0
    return max(2 * sum(combo) for combo in combinations(faces, how_many))


def _has_run(dice, length, starts):
    s = set(dice)
    return any(set(range(a, a + length)) <= s for a in starts)


def _full_house_best(c):
    best = 0
    for f, k in c.items():
        for g, m in c.items():
            if f != g and k >= 3 and m >= 2:
                best = max(best, 3 * f + 2 * g)
    return best


def reference(rid, abbr, dice):
    """Score of box `abbr` in rule set `rid` for `dice` (no joker, no Sharp Dice)."""
    c = Counter(dice)
    t = sum(dice)
    counts = sorted(c.values())
    if abbr[0].isdigit() and abbr.endswith("s"):
        f = int(abbr[0])
        return f * c[f]
    if rid == 0:  # Yahtzee
        return {
            "3K": t if max(counts) >= 3 else 0,
            "4K": t if max(counts) >= 4 else 0,
            "FH": 25 if counts == [2, 3] else 0,
            "SS": 30 if _has_run(dice, 4, (1, 2, 3)) else 0,
            "LS": 40 if _has_run(dice, 5, (1, 2)) else 0,
            "YZ": 50 if len(c) == 1 else 0,
            "CH": t,
        }[abbr]
    if rid in (1, 2):  # Yatzy, Casino 5
        return {
            "1P": _pairs(c, 1),
            "2P": _pairs(c, 2),
            "3K": _of_kind(c, 3),
            "4K": _of_kind(c, 4),
            "SS": 15 if sorted(dice) == [1, 2, 3, 4, 5] else 0,
            "LS": 20 if sorted(dice) == [2, 3, 4, 5, 6] else 0,
            "FH": t if counts == [2, 3] else 0,
            "CH": t,
            "YZ": (50 if rid == 1 else t + 50) if len(c) == 1 else 0,
        }[abbr]
    if rid in (3, 4):  # Casino 6, Maxi
        casino = rid == 3
        fh = _full_house_best(c)
        return {
            "1P": _pairs(c, 1),
            "2P": _pairs(c, 2),
            "3P": _pairs(c, 3),
            "3K": _of_kind(c, 3),
            "4K": _of_kind(c, 4),
            "5K": _of_kind(c, 5),
            "SS": 15 if _has_run(dice, 5, (1,)) else 0,
            "LS": 20 if _has_run(dice, 5, (2,)) else 0,
            "FS": 21 if len(c) == 6 else 0,
            "FH": (t if casino else fh) if fh else 0,
            "VI": t if counts == [3, 3] else 0,
            "TO": t if counts == [2, 4] else 0,
            "CH": t,
            "MY": (t + 100 if casino else 100) if len(c) == 1 else 0,
        }[abbr]
    if rid == 5:  # Deluxe
        return {
            "3P": 20 if all(k % 2 == 0 for k in counts) else 0,
            "2T": 30 if all(k % 3 == 0 for k in counts) else 0,
            "FH": 40 if counts in ([2, 4], [6]) else 0,
            "ST": 50 if len(c) == 6 else 0,
            "YZ": 60 if len(c) == 1 else 0,
            "SS": t if _has_run(dice, 5, (1, 2)) else 0,
            "SY": t if max(counts) >= 5 else 0,
            "CH": t,
        }[abbr]
    raise KeyError(rid)
