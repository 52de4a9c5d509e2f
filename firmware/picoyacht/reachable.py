"""Which scores dice can make: what a saved scorecard is checked against.

One source of truth: a box's row holds a bit for every score the rules core's own scorer
(rules.evaluate, the joker included) gives some multiset of dice, and 0 where some dice
leave the box unsatisfied. Sharp Dice doubles a first-roll lower box, so it is applied at
lookup instead of widening the table. The rows of every rule set are the constant table in
score_rows (frozen into flash on the Pico): scanning every multiset at boot took too long
for the reset budget. host_tests/test_snapshot.py rebuilds them from rules.evaluate and
fails when they differ. Loaded only with a saved game to check.
"""

import sys

from micropython import const

from picoyacht.rules import KIND, UPPER, doubles_with_sharp, evaluate

ROW_BYTES = const(18)  # bits for scores 0..143: above any box's maximum (6 dice + 100)


_rows = None  # the last rule set asked: its rows only (a saved game has one rule set)
_rows_id = -1


def _table(rs):
    """The rule set's rows. The table's module leaves the heap once they are taken, with
    the other rule sets' rows (as .mpy they would stay in RAM; frozen, all are in flash)."""
    global _rows, _rows_id
    if _rows_id != rs.id:
        import picoyacht
        from picoyacht import score_rows

        _rows = score_rows.ROWS[rs.id]
        _rows_id = rs.id
        # dropped here, not by heap.forget: where the rules core runs without the heap
        # module (a port with no display), importing it here interns its names, and a
        # game's names then outgrow MicroPython's table of them, whose next block is
        # one long run of a heap by then fragmented
        picoyacht.__dict__.pop("score_rows", None)
        sys.modules.pop("picoyacht.score_rows", None)
    return _rows


def _has(rs, box, points):
    if points < 0 or points >= ROW_BYTES * 8:
        return False
    return bool(_table(rs)[box * ROW_BYTES + (points >> 3)] >> (points & 7) & 1)


def possible(rs, box, points, sharp):
    """Whether some dice score ``points`` in ``box`` (``sharp``: Sharp Dice is on)."""
    if _has(rs, box, points):
        return True
    return (sharp and points > 0 and not points & 1 and doubles_with_sharp(rs.boxes[box])
            and _has(rs, box, points >> 1))


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
