"""The coach's figures against the exact regret: what it says each move gave away, over
the moves of seeded games of a casual player (Easy, the device's own code), next to what
the move gave away exactly.

    python tools/tables/coach_bias.py [--games 150] [--only deluxe,yahtzee_0_sharp]
                               [--coaches table,estimate,"fixed point"]

Every move is valued in bulk by the NumPy twin (tools/strategy_np.py, checked against the
device engine by host_tests): the coach's side as the device judges it (see measure for
the coaches: the table file, Normal's estimate as where no table serves), rounded to
centi-points as strategy.judge_steps rounds, the exact side in float64 on the builder's
exact table. Per game and option: the coach's bias (its
total over the exact total, minus 1), its tips (from half a point) that the exact regret
does not justify and those it misses, and how far each figure strays from the exact one.
"""

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tools/, for paths
from paths import ROOT  # noqa: E402

import build_tables as bt  # noqa: E402
import numpy as np  # noqa: E402
import strategy_np as sn  # noqa: E402
from cpu_moves import apply  # noqa: E402

from picoyacht import engine, rules, strategy  # noqa: E402
from picoyacht.game import Game  # noqa: E402

from scripted import LcgRoller  # noqa: E402

TABLES = ROOT / "tables"
TIP = 0.5  # the coach speaks up from half a point given away (coach._TIP_CENTI)
CHUNK = 2048


class Moves:
    """Decisions after a roll, as arrays: the position (mask, up, y), the dice (counts per
    face), the rolls left, whether the dice came from one throw of them all, and the move:
    kind (strategy.HOLD / SCORE) and the held dice (as a code: 3 bits a face) or the box."""

    FIELDS = ("mask", "up", "y", "counts", "left", "single", "kind", "arg")

    def __init__(self, rows):
        cols = list(zip(*rows, strict=True)) if rows else [[]] * len(self.FIELDS)
        for name, col in zip(self.FIELDS, cols, strict=True):
            setattr(self, name, np.array(col, dtype=bool if name == "single" else np.int64))

    @classmethod
    def of(cls, **arrays):
        out = cls([])
        for name in cls.FIELDS:
            setattr(out, name, np.asarray(arrays[name]))
        return out

    def __len__(self):
        return len(self.mask)

    def part(self, sel):
        return Moves.of(**{name: getattr(self, name)[sel] for name in self.FIELDS})


def easy_moves(rid, options, games, seed):
    """Every decision after a roll in `games` seeded solitaire games of Easy."""
    rows = []
    jb = rules.RULESETS[rid].yahtzee_box if rules.RULESETS[rid].joker else -1
    for k in range(games):
        g = Game(rid, ["cpu"], kinds=[strategy.EASY], options=options,
                 roller=LcgRoller(seed + k), seed=k)
        rng = LcgRoller(seed + k + 1_000_003)
        while not g.over:
            kind, arg = strategy.cpu_step(g, strategy.EASY, None, rng)
            if g.rolls_used:
                counts = [g.dice.count(f) for f in range(1, 7)]
                y = int(jb >= 0 and g.is_filled(0, jb) and g.box_score(0, jb) > 0)
                what = arg
                if kind == strategy.HOLD:  # the held dice as a multiset
                    what = sum(1 << (3 * (g.dice[i] - 1)) for i in range(len(g.dice))
                               if arg >> i & 1)
                rows.append((g.filled[0], g.upper_total(0), y, counts, g.rolls_left,
                             g.single_roll, kind, what))
            apply(g, (kind, arg))
    return Moves(rows)


def values(twin, mv):
    """Per move: (the best action's value, the move's value) by the twin's search (device
    fixed point, or float on an exact table)."""
    G = len(mv)
    Wu, Wb = twin.weights(mv.mask, mv.up, mv.y)
    ridx = twin.roll_index(mv.counts)
    boxes, _ = twin.box_values(mv.mask, ridx, Wu, Wb, mv.single if twin.doubles else None)
    best = boxes.max(axis=1)
    chosen = boxes[np.arange(G), np.where(mv.kind == strategy.SCORE, mv.arg, 0)]
    S = twin.fill_s(mv.mask, mv.y, Wu, Wb)
    S1 = twin.fill_s(mv.mask, mv.y, Wu, Wb, twin.doubles) if twin.doubles else None
    L = np.minimum(mv.left, engine.STAGES)
    for lv in (1, 2):
        sel = np.nonzero(L == lv)[0]
        if not len(sel):
            continue
        A = twin.stage(S[sel], lv, None if S1 is None else S1[sel])
        subs = twin.subs[ridx[sel]]
        holds = np.where(subs == (ridx[sel] + twin.r0)[:, None], twin.neg(subs.shape),
                         A[np.arange(len(sel))[:, None], subs])
        best[sel] = np.maximum(best[sel], holds.max(axis=1))
        hold = sel[mv.kind[sel] == strategy.HOLD]
        keep = np.array([twin.lookup[int(c)] for c in mv.arg[hold]], dtype=np.int64)
        every = keep == ridx[hold] + twin.r0  # holding every die is scoring the best box
        chosen[hold] = np.where(every, boxes[hold].max(axis=1),
                                A[np.searchsorted(sel, hold), keep])
    return best, chosen


def to_centi(v):
    """strategy.to_centi over an array of fixed-point values (all >= 0)."""
    return ((v >> 2) * 25 + 2048) >> 12


def judge(coach, exact, mv):
    """(the coach's figure, the exact regret) per move, in points."""
    said, regret = np.empty(len(mv)), np.empty(len(mv))
    for a in range(0, len(mv), CHUNK):
        part = mv.part(slice(a, a + CHUNK))
        best, chosen = values(coach, part)
        said[a:a + CHUNK] = np.maximum(0, to_centi(best) - to_centi(chosen)) / 100
        best, chosen = values(exact, part)
        regret[a:a + CHUNK] = np.maximum(0.0, best - chosen)
    return said, regret


def summary(said, regret):
    err = said - regret
    return {"moves": len(said), "coach_total": float(said.sum()),
            "exact_total": float(regret.sum()),
            "bias": float(said.sum() / regret.sum() - 1) if regret.sum() else None,
            "unjustified_tips": int(((said >= TIP) & (regret < TIP)).sum()),
            "missing_tips": int(((regret >= TIP) & (said < TIP)).sum()),
            "said_nothing_over_0.1": int(((regret > 0.1) & (said == 0)).sum()),
            "max_abs_error": float(np.abs(err).max()),
            "mean_abs_error": float(np.abs(err).mean()),
            "within_0.01": float((np.abs(err) <= 0.01 + 1e-9).mean())}


COACHES = ("table", "estimate", "fixed point")


def measure(name, games, seed, coaches=COACHES, tables=TABLES):
    """{coach: summary} for table `name`'s game and options, over Easy's moves. Coaches:
    "table" judges with the table file as the device reads it, "estimate" with Normal's
    estimate (a board without the table), "fixed point" with the exact values in the
    device's fixed point (what the table's quantization costs, apart from the search's)."""
    rid, joker, sharp = bt.TABLES[name]
    options = rules.Options(joker=joker or 0, sharp=sharp)
    mv = easy_moves(rid, options, games, seed)
    Vx = np.load(tables / (name + ".exact.npy"))
    exact = sn.Twin(rid, options, strategy.EXPERT, Vx, exact=True)
    out = {}
    for how in coaches:
        if how == "estimate":
            coach = sn.Twin(rid, options, strategy.NORMAL)
        elif how == "table":
            spec = bt.Spec(rid, joker, sharp=sharp)
            Vq = bt.decode(spec, (tables / (name + ".bin")).read_bytes())
            coach = sn.Twin(rid, options, strategy.EXPERT, Vq)
        else:
            Vf = np.nan_to_num(np.round(Vx * engine.ONE)).astype(np.int64)
            coach = sn.Twin(rid, options, strategy.EXPERT, Vf)
        out[how] = summary(*judge(coach, exact, mv))
        out[how].update(games=games, seed=seed)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=150)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", default=",".join(bt.TABLES))
    ap.add_argument("--coaches", default=",".join(COACHES))
    a = ap.parse_args(argv)
    for name in a.only.split(","):
        bt.build(name, TABLES)
        for how, res in measure(name, a.games, a.seed, a.coaches.split(",")).items():
            print(name, how, json.dumps(res), flush=True)


if __name__ == "__main__":
    main()
