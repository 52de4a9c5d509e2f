"""Which scores dice can make: what a saved scorecard is checked against.

One source of truth: a box's row holds a bit for every score the rules core's own scorer
(rules.evaluate, the joker included) gives some multiset of dice, and 0 where some dice
leave the box unsatisfied. Sharp Dice doubles a first-roll lower box, so it is applied at
lookup instead of widening the table. Only the last rule set asked keeps a table (a saved
game has one), built once: a few hundred bytes. Loaded only with a saved game to check.
"""

from micropython import const

from picoyacht.rules import (
    ARG_A,
    FIXED,
    KIND,
    MODE,
    UPPER,
    doubles_with_sharp,
    evaluate,
    multisets,
)

ROW_BYTES = const(18)  # bits for scores 0..143: above any box's maximum (6 dice + 100)

_rows = None
_rows_id = -1


def _table(rs):
    """The rule set's rows, built on first use: an upper box from each count of its face,
    every other box from every multiset of the dice (a fixed-score box only until some
    dice have missed it and some made it)."""
    global _rows, _rows_id
    if _rows_id != rs.id:
        _rows = None  # the old table goes before the new one is made
        boxes = rs.boxes
        nb = rs.nboxes
        rows = bytearray(nb * ROW_BYTES)
        todo = bytearray(nb)  # 1: scan every multiset; 2: fixed, scan until missed and made
        counts = bytearray(7)
        for b in range(nb):
            spec = boxes[b]
            if spec[KIND] == UPPER:
                f = spec[ARG_A]
                for k in range(rs.ndice + 1):
                    counts[f] = k
                    _mark(rows, b, evaluate(spec, counts))
                counts[f] = 0
            else:
                todo[b] = 2 if spec[MODE] == FIXED else 1
        for counts in multisets(rs.ndice):
            five = rs.joker and max(counts) == rs.ndice  # a Yahtzee: the joker may apply
            for b in range(nb):
                t = todo[b]
                if not t:
                    continue
                s = evaluate(boxes[b], counts)
                _mark(rows, b, s)
                if five:
                    _mark(rows, b, evaluate(boxes[b], counts, True))
                if t > 1:  # fixed: its only scores are 0 and its value (the joker's too)
                    t |= 4 if s < 0 else 8
                    todo[b] = 0 if t & 12 == 12 else t
        _rows = rows
        _rows_id = rs.id
    return _rows


def _mark(rows, box, s):
    if s < 0:
        s = 0  # unsatisfied: the box takes a scratch
    i = box * ROW_BYTES + (s >> 3)
    rows[i] |= 1 << (s & 7)


def _has(rows, box, points):
    if points < 0 or points >= ROW_BYTES * 8:
        return False
    return bool(rows[box * ROW_BYTES + (points >> 3)] >> (points & 7) & 1)


def possible(rs, box, points, sharp):
    """Whether some dice score ``points`` in ``box`` (``sharp``: Sharp Dice is on)."""
    rows = _table(rs)
    if _has(rows, box, points):
        return True
    return (sharp and points > 0 and not points & 1 and doubles_with_sharp(rs.boxes[box])
            and _has(rows, box, points >> 1))


def by_a_yahtzee(rs, box, points, sharp):
    """Whether a roll of all dice alike could score ``points`` in ``box``: where a Yahtzee
    bonus roll went. 0 is always possible (a forced or chosen scratch)."""
    if points == 0:
        return True
    spec = rs.boxes[box]
    doubles = sharp and doubles_with_sharp(spec)
    counts = bytearray(7)
    for f in range(1, 7):
        counts[f] = rs.ndice
        s = evaluate(spec, counts, spec[KIND] != UPPER)
        counts[f] = 0
        if s == points or doubles and 2 * s == points:
            return True
    return False
