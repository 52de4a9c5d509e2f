"""Sharp Dice's rolls from one throw of all the dice, whose lower boxes (Chance aside) score
double, and the box a joker (n alike, the Yahtzee box filled) is best put in: the parts of
the CPU's search (picoyacht.engine) that value a roll beyond its plain score. Each takes the
engine `e` whose position and arrays it reads; the fixed point is engine's (ONE per point).
"""

from micropython import const

from picoyacht import rules
from picoyacht.dice import WAYS_AT
from picoyacht.game import joker_boxes
from picoyacht.heap import locked

# Folded copies of engine's (test_layers holds them equal): engine imports this module.
_ONE = const(65536)  # fixed point: 1 point
_NEG = const(-0x20000000)
_MEAN_CHUNK = const(16)  # rolls per step of the one-throw mean: Engine.doubled_values' size
_C_MEAN = const(600)  # per roll of the one-throw mean, its doubled boxes too (engine's COST)


def joker_best(e, mask, f, doubles):
    """The best box for n f's once the Yahtzee box is filled (see game.joker_boxes),
    the lower boxes in `doubles` scoring double."""
    nb = e.nb
    variant = e.options.joker
    allowed = joker_boxes(((1 << nb) - 1) & ~mask, f, variant)
    upper_scores = variant != rules.JOKER_ORIGINAL  # (the 1956 rule: upper scores 0)
    use_joker = variant != rules.JOKER_FREE or mask >> (f - 1) & 1
    row = e.yahtzee_rolls[f - 1]
    n1 = e.rs.ndice + 1
    best = _NEG
    for b in range(nb):
        if not allowed >> b & 1:
            continue
        if b < 6:
            k = e.rs.ndice if (b == f - 1 and upper_scores) else 0
            v = e.upper_future[b * n1 + k]
        else:
            s = e.joker_scores[(f - 1) * nb + b] if use_joker else e.score(row, b)
            if doubles >> b & 1:
                s *= 2
            v = s * _ONE + e.lower_future[b]
        if v > best:
            best = v
    return best


def one_throw_value(e, r, v):
    """Sharp Dice: the best of v (at least roll r's plain value, roll_values[r]) and the
    turn ended with roll r from one throw of all the dice (doubling only adds), for the
    position of prepare_steps. Normal's pars (picoyacht.estimate) value one box alone:
    there a one-throw roll is worth one_throw_scale times roll_values[r]."""
    k = e.one_throw_scale
    if k:
        w = k * e.roll_values[r]
    elif _joker_filled(e) and e.roll_scores[e.joker_box - 6][r]:
        w = _joker_one_throw(e, r)
    else:
        _doubled_into(e, r, r + 1)
        w = e.doubled_values[0]
    return w if w > v else v


def _joker_filled(e):
    """The Yahtzee box is filled: n alike (a roll with points in it) then scores where the
    joker rule allows."""
    jb = e.joker_box
    return jb >= 0 and e.k_mask >> jb & 1


def _joker_one_throw(e, r):
    for f in range(6):
        if e.yahtzee_rolls[f] == r:
            return joker_best(e, e.k_mask, f + 1, e.doubles) + e.ybonus
    return _NEG


def _doubled_into(e, start, end):
    """doubled_values[r - start], for the rolls start..end-1: the best value of roll r's
    points doubled in an open box Sharp Dice doubles, or NEG. A box where r scores 0 is
    left out: its plain value, in roll_values, is the same. Box by box, as the fill."""
    out, nb, jb, lower_future = e.doubled_values, e.nb, e.joker_box, e.lower_future
    for i in range(end - start):
        out[i] = _NEG
    doubled = (e.doubles & ~e.k_mask) >> 6  # the open boxes Sharp Dice doubles
    b = 6
    while doubled:
        if doubled & 1:
            scores = e.roll_scores[b - 6]
            w = lower_future[nb if b == jb else b]
            for r in range(start, end):
                s = scores[r]
                if s:
                    s = s * (2 * _ONE) + w
                    if s > out[r - start]:
                        out[r - start] = s
        doubled >>= 1
        b += 1


def one_throw_steps(e):
    """Sharp Dice: the value of holding nothing, the rolls' values in hold_values being
    those of plain rolls: the mean of one_throw_value over the 6^n throws of all the dice.
    Integers that stay small ints on the Pico: each value split in a high and a low part,
    each summed over at most 6^5 throws."""
    hold_values, codes, roll_values = e.hold_values, e.dice.roll_codes, e.roll_values
    scale, doubled = e.one_throw_scale, e.doubled_values
    yahtzees = e.roll_scores[e.joker_box - 6] if not scale and _joker_filled(e) else None
    at = WAYS_AT
    first_roll = e.dice.first_roll
    throws = 6 ** e.rs.ndice
    hi = lo = 0
    for start in range(0, e.nrolls, _MEAN_CHUNK):
        end = start + _MEAN_CHUNK if start + _MEAN_CHUNK < e.nrolls else e.nrolls
        if not scale:
            locked(_doubled_into, e, start, end)
        for r in range(start, end):
            v = hold_values[first_roll + r]
            if scale:
                w = scale * roll_values[r]
            elif yahtzees is not None and yahtzees[r]:
                w = _joker_one_throw(e, r)
            else:
                w = doubled[r - start]
            if w > v:
                v = w
            ways = codes[r] >> at
            hi += ways * (v >> 13)
            lo += ways * (v & 8191)
        yield (end - start) * _C_MEAN
    q = hi // throws
    return (q << 13) + (((hi - q * throws) << 13) + lo + (throws >> 1)) // throws
