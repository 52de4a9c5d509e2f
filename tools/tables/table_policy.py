"""Checking Expert's tables (for `make bench-strategy` and the tests): the device's policy
(its integer in-turn search on the quantized table, its exact tie rules) evaluated exactly,
not sampled, on the game the table was built for or on another joker rule it may serve.

    python tools/tables/table_policy.py [--tables tables] [--only yahtzee_0_sharp,deluxe]

A NumPy solve by backward induction over the filled-box masks, written independently of
tools/tables/build_tables.py (whose exact optima it also reproduces, for games without Sharp Dice).
The in-turn search is the device's (picoyacht.strategy): S = value of ending the turn with
each roll; then per re-roll stage, expect (mean over one more die) and maxdown (best
sub-multiset). Here each of those runs on a (keeps x positions) array at once. With Sharp
Dice a roll from one throw of all the dice has values of its own (S1), and holding nothing
is the one-throw mean, rounded as the device rounds it. host_tests/test_expert_loss.py
checks it against the twin's decisions (tools/strategy_np.py), valued exhaustively.
"""

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tools/, for paths
from paths import ROOT

import build_tables as bt
import numpy as np

from picoyacht import engine, rules
from picoyacht.dice import WAYS_AT

ONE = engine.ONE
CHUNK = 1024
# Expected final totals from the start, playing optimally, from solvers independent of this
# repository (the free-choice joker's is Verhoeff's published 254.5896).
REFERENCE_OPTIMA = {
    "yahtzee_0": 254.5877287,
    "yahtzee_1": 254.5896095,
    "yahtzee_2": 253.9910414,
    "yatzy": 248.4399894,
    "yahtzee_0_sharp": 309.8884692,
    "deluxe": 251.4643134,
}


def parents(d):
    """(nk, 6): index of keep i minus one die f, 0xFFFF if it has none."""
    out = np.full((d.nkeeps, 6), 0xFFFF, dtype=np.int64)
    for size in range(1, d.n + 1):
        for i in range(d.start[size], d.start[size + 1]):
            c = d.code(i, size)
            for f in range(6):
                if (c >> (3 * f)) & 7:
                    out[i, f] = d.index(c - (1 << (3 * f)), size - 1)
    return out


def sweeps(d, kc):
    """The keeps' sweeps as index arrays, a size at a time: (expectation levels, largest
    first: rows and their six children; max-down levels: rows and their parents, a
    sentinel row nkeeps for none; each roll's sub-multisets, largest index first, padded)."""
    child = np.array([[d.child(i, f) for f in range(1, 7)] for i in range(d.first_roll)],
                     dtype=np.int64)
    parent = parents(d)
    exp_levels, max_levels = [], []
    for size in range(d.n - 1, -1, -1):
        rows = np.arange(d.start[size], d.start[size + 1])
        exp_levels.append((rows, child[rows]))
    for size in range(1, d.n + 1):
        rows = np.arange(d.start[size], d.start[size + 1])
        max_levels.append((rows, np.where(parent[rows] == 0xFFFF, d.nkeeps, parent[rows])))
    subs = []
    for c in kc:
        subs.append(sorted((d.index(sum(int(x) << (3 * i) for i, x in enumerate(a)), sum(a))
                            for a in np.ndindex(*(int(x) + 1 for x in c))), reverse=True))
    width = max(len(x) for x in subs)
    return exp_levels, max_levels, np.array([x + [x[0]] * (width - len(x)) for x in subs],
                                            dtype=np.int64)


class Progress:
    def __init__(self, label, total):
        self.label, self.total, self.done = label, total, 0
        self.t0 = time.time()
        self.last = 0.0

    def step(self, k):
        self.done += k
        now = time.time()
        if now - self.last > 0.5 or self.done >= self.total:
            self.last = now
            frac = self.done / max(1, self.total)
            bar = "#" * int(30 * frac)
            sys.stderr.write("\r%-14s [%-30s] %5.1f%% %6.1fs" % (
                self.label, bar, 100 * frac, now - self.t0))
            if self.done >= self.total:
                sys.stderr.write("\n")
            sys.stderr.flush()


# ---- the game as arrays ----------------------------------------------------------------------
class Spec:
    def __init__(self, rid, joker=None, start=0, sharp=False):
        rs = rules.RULESETS[rid]
        self.rs, self.rid = rs, rid
        self.joker = joker
        opts = rules.Options(joker=joker if joker is not None else 0, sharp=sharp)
        self.eng = engine.Engine(rs, opts)
        d = self.eng.dice
        self.d = d
        self.n = n = rs.ndice
        self.nb, self.nr, self.nk, self.r0 = rs.nboxes, d.nrolls, d.nkeeps, d.first_roll
        self.doubles = self.eng.doubles  # Sharp Dice: the lower boxes it doubles (else 0)
        if self.doubles:
            self.ways = np.array(d.roll_codes, dtype=np.int64) >> WAYS_AT
            self.throws = 6 ** n
        self.chunk = CHUNK if n == 5 else CHUNK // 8  # six dice: 64 sub-multisets a roll
        self.bonus = rs.upper_bonus(opts)
        self.at = rs.bonus_at
        self.start = start
        self.full = (1 << self.nb) - 1
        self.sc = np.array([[self.eng.score(r, b) for b in range(self.nb)]
                            for r in range(self.nr)], dtype=np.int64)
        codes = np.array(d.roll_codes, dtype=np.int64)
        self.kc = np.stack([(codes >> (3 * (f - 1))) & 7 for f in range(1, 7)], axis=1)
        self.yzb = self.eng.joker_box
        self.Y = 2 if self.yzb >= 0 else 1
        self.yrow = np.array(list(self.eng.yahtzee_rolls), dtype=np.int64)
        self.jsc = np.frombuffer(bytes(self.eng.joker_scores), dtype=np.uint8).reshape(
            6, self.nb).astype(np.int64)
        self.exp_levels, self.max_levels, self.subs = sweeps(d, self.kc)
        self.slot, self.reps = bt.upper_classes(n, self.at)

    lgroups = bt.Spec.lgroups  # the file layout's groups: the builder's, not a copy
    lgroup = bt.Spec.lgroup


def expect(spec, A, exact):
    for rows, ch in spec.exp_levels:
        s = A[ch[:, 0]] + A[ch[:, 1]] + A[ch[:, 2]] + A[ch[:, 3]] + A[ch[:, 4]] + A[ch[:, 5]]
        A[rows] = s / 6.0 if exact else (s + 3) // 6


def maxdown(spec, A):
    """A has a sentinel last row (-inf / very negative)."""
    for rows, p in spec.max_levels:
        m = A[rows]
        for f in range(6):
            np.maximum(m, A[p[:, f]], out=m)
        A[rows] = m


def s_stage(spec, cm, cy, cu, Vd, Vt=None, doubles=0):
    """Value of ending the turn with each roll, for a chunk of positions (columns).

    Exact mode (Vt None): Vd float values, returns S. Policy mode: Vd holds the device's
    fixed-point table values and decides (ties: lowest box), Vt the true values of the
    policy; returns (Sq, St). doubles: the lower boxes scoring double (Sharp Dice, a roll
    from one throw of all the dice)."""
    nb, nr = spec.nb, spec.nr
    N = len(cm)
    policy = Vt is not None
    one = ONE if policy else 1
    neg = -(1 << 40) if policy else -np.inf
    S = np.full((nr, N), neg, dtype=np.int64 if policy else np.float64)
    St = np.zeros((nr, N)) if policy else None

    def take(cand, tcand):
        if policy:
            better = cand > S
            np.copyto(S, cand, where=better)
            np.copyto(St, tcand, where=better)
        else:
            np.maximum(S, cand, out=S)

    def fut(V, m2, y2, u2):
        return V[m2, y2, u2]

    for b in range(nb):
        bit = 1 << b
        op = (cm & bit) == 0
        if not op.any():
            continue
        m2 = cm | bit
        if b < 6:
            f = b + 1
            pts = spec.kc[:, f - 1] * f  # (nr,)
            un = cu[None, :] + pts[:, None]
            gain = pts[:, None] + np.where((cu[None, :] < spec.at) & (un >= spec.at),
                                           spec.bonus, 0)
            uc = np.minimum(un, spec.at)
            cand = gain * one + fut(Vd, m2[None, :], cy[None, :], uc)
            tcand = gain + fut(Vt, m2[None, :], cy[None, :], uc) if policy else None
        elif b == spec.yzb:
            s = spec.sc[:, b][:, None]
            yes = s > 0
            s = s * (2 if doubles >> b & 1 else 1)
            c0 = fut(Vd, m2, 0, cu)[None, :]
            c1 = fut(Vd, m2, 1, cu)[None, :]
            cand = s * one + np.where(yes, c1, c0)
            if policy:
                tcand = s + np.where(yes, fut(Vt, m2, 1, cu)[None, :], fut(Vt, m2, 0, cu)[None, :])
            else:
                tcand = None
        else:
            s = spec.sc[:, b][:, None] * (2 if doubles >> b & 1 else 1)
            cand = s * one + fut(Vd, m2, cy, cu)[None, :]
            tcand = s + fut(Vt, m2, cy, cu)[None, :] if policy else None
        cand = np.where(op[None, :], cand, neg)
        take(cand, tcand)
    if spec.yzb >= 0:
        jc = np.nonzero((cm >> spec.yzb) & 1)[0]
        if len(jc):
            for f in range(1, 7):
                q, t = joker_row(spec, f, cm[jc], cy[jc], cu[jc], Vd, Vt, doubles)
                r = spec.yrow[f - 1]
                yb = cy[jc] * 100
                S[r, jc] = q + yb * one
                if policy:
                    St[r, jc] = t + yb
    return (S, St) if policy else S


def joker_allowed(variant, b, f, op, lower_open, uf_open):
    """May five f's go in box b (the Yahtzee box filled)? Arrays over states: op = box b
    open, lower_open = any lower box open, uf_open = the upper box of face f open."""
    if variant == rules.JOKER_FREE:
        return op
    if variant == rules.JOKER_FORCED:
        if b < 6:
            return np.where(uf_open, b == f - 1, op & ~lower_open)
        return op & ~uf_open
    return op & (~lower_open if b < 6 else True)


def joker_row(spec, f, cm, cy, cu, Vd, Vt, doubles=0):
    """Best value of five f's once the Yahtzee box is filled, per the joker variant."""
    policy = Vt is not None
    one = ONE if policy else 1
    neg = -(1 << 40) if policy else -np.inf
    nb = spec.nb
    N = len(cm)
    best = np.full(N, neg, dtype=np.int64 if policy else np.float64)
    bt = np.zeros(N) if policy else None
    full = spec.full
    openm = full & ~cm
    lower_open = (openm & ~63) != 0
    fbit = 1 << (f - 1)
    uf_open = (openm & fbit) != 0
    v = spec.joker
    for b in range(nb):
        bit = 1 << b
        op = (openm & bit) != 0
        allowed = joker_allowed(v, b, f, op, lower_open, uf_open)
        if not allowed.any():
            continue
        m2 = cm | bit
        if b < 6:
            s = spec.n * f if (b == f - 1 and v != rules.JOKER_ORIGINAL) else 0
            un = cu + s
            gain = s + np.where((cu < spec.at) & (un >= spec.at), spec.bonus, 0)
            uc = np.minimum(un, spec.at)
            cand = gain * one + Vd[m2, cy, uc]
            tc = gain + Vt[m2, cy, uc] if policy else None
        else:
            if v == rules.JOKER_FREE:
                s = np.where(uf_open, spec.sc[spec.yrow[f - 1], b], spec.jsc[f - 1, b])
            else:
                s = spec.jsc[f - 1, b]
            s = s * (2 if doubles >> b & 1 else 1)
            cand = s * one + Vd[m2, cy, cu]
            tc = s + Vt[m2, cy, cu] if policy else None
        cand = np.where(allowed, cand, neg)
        if policy:
            better = cand > best
            best = np.where(better, cand, best)
            bt = np.where(better, tc, bt)
        else:
            best = np.maximum(best, cand)
    return best, bt


def turn_value(spec, S):
    """Exact: value of the turn start from S (nr x N)."""
    N = S.shape[1]
    A = np.empty((spec.nk + 1, N))
    A[spec.nk] = -np.inf
    A[spec.r0:spec.nk] = S
    expect(spec, A, True)
    maxdown(spec, A)
    expect(spec, A, True)
    maxdown(spec, A)
    expect(spec, A, True)
    return A[0]


def decide(spec, Aq, At, Sq=None, St=None):
    """Per roll: the device's choice among the sub-multisets of Aq (ties: larger index);
    Sq/St replace the keep-all candidate (scoring now). Returns (value_q, value_t)."""
    cq = Aq[spec.subs]  # (nr, W, N)
    if Sq is not None:
        cq[:, 0, :] = Sq
    k = np.argmax(cq, axis=1)  # first max = largest index
    vq = np.take_along_axis(cq, k[:, None, :], axis=1)[:, 0, :]
    ct = At[spec.subs]
    if St is not None:
        ct[:, 0, :] = St
    vt = np.take_along_axis(ct, k[:, None, :], axis=1)[:, 0, :]
    return vq, vt


def one_throw(spec, v, exact):
    """Sharp Dice: the mean of v over one throw of all the dice, rounded as the device
    rounds it (engine._one_throw_steps) unless exact."""
    s = (spec.ways[:, None] * v).sum(axis=0)
    return s / spec.throws if exact else (s + spec.throws // 2) // spec.throws


def policy_turn_value(spec, Sq, St, Sq1=None, St1=None):
    """The true value of the device's turn from each position: Sq/St end the turn with
    each roll (device / true value of its box); Sq1/St1 the same for a roll from one throw
    of all the dice (Sharp Dice; None without it). Holding nothing then throws for those,
    with its own rounding: each stage's empty keep is a one-throw mean."""
    N = Sq.shape[1]
    sharp = Sq1 is not None
    if not sharp:
        Sq1, St1 = Sq, St
    Aq = np.empty((spec.nk, N), dtype=np.int64)
    At = np.empty((spec.nk, N))
    Aq[spec.r0:] = Sq
    At[spec.r0:] = St
    expect(spec, Aq, False)
    expect(spec, At, True)
    if sharp:
        Aq[0], At[0] = one_throw(spec, Sq1, False), one_throw(spec, St1, True)
    rq, rt = decide(spec, Aq, At)  # one re-roll left, some dice held
    if sharp:
        sq, st = decide(spec, Aq, At, Sq1, St1)  # the same, the dice from one throw
    Aq[spec.r0:] = rq
    At[spec.r0:] = rt
    expect(spec, Aq, False)
    expect(spec, At, True)
    if sharp:
        Aq[0], At[0] = one_throw(spec, sq, False), one_throw(spec, st, True)
    rq, rt = decide(spec, Aq, At, Sq1, St1)  # the first roll: one throw
    if sharp:
        return one_throw(spec, rt, True)
    At[spec.r0:] = rt
    expect(spec, At, True)
    return At[0]


def positions(spec):
    """Per popcount level (high first): arrays (mask, y, up) of the positions to solve,
    plus the class map used to spread each value over all upper totals."""
    levels = {}
    for m in range(spec.full):
        if m & spec.start != spec.start:
            continue
        ys = (0, 1) if spec.Y == 2 and m >> spec.yzb & 1 else (0,)
        u = m & 63
        ups = [spec.at] + spec.reps[u]
        for y in ys:
            lv = levels.setdefault(bin(m).count("1"), ([], [], []))
            lv[0].extend([m] * len(ups))
            lv[1].extend([y] * len(ups))
            lv[2].extend(ups)
    return {k: tuple(np.array(x, dtype=np.int64) for x in v) for k, v in levels.items()}


def spread(spec, V, cm, cy, cu, vals):
    """Write each solved class value to every upper total of its class."""
    u = cm & 63
    # column class: 255 for decided (rep = at), else slot of rep
    cls = spec.slot[u, np.minimum(cu, spec.at)].astype(np.int64)
    # for each (m, y) block, map every up to its class's column
    key = (cm * 2 + cy) * 256 + cls
    order = np.argsort(key)
    skey = key[order]
    for up in range(spec.at + 1):
        want = (cm * 2 + cy) * 256 + spec.slot[u, up].astype(np.int64)
        pos = np.searchsorted(skey, want)
        pos = np.minimum(pos, len(skey) - 1)
        ok = skey[pos] == want
        V[cm[ok], cy[ok], up] = vals[order[pos[ok]]]


def solve(spec, Vq=None, label="solve"):
    """Exact optimal values (Vq None; games without Sharp Dice, whose exact solve is the
    builder's) or the true values of the device policy on Vq. Returns a dense array
    V[mask, y, up] (float64; NaN where never needed)."""
    assert Vq is not None or not spec.doubles
    V = np.full((spec.full + 1, spec.Y, spec.at + 1), np.nan)
    V[spec.full] = 0.0
    levels = positions(spec)
    total = sum(len(v[0]) for v in levels.values())
    prog = Progress(label, total)
    for p in sorted(levels, reverse=True):
        cm, cy, cu = levels[p]
        out = np.empty(len(cm))
        for a in range(0, len(cm), spec.chunk):
            sl = slice(a, a + spec.chunk)
            if Vq is None:
                S = s_stage(spec, cm[sl], cy[sl], cu[sl], V)
                out[sl] = turn_value(spec, S)
            else:
                Sq, St = s_stage(spec, cm[sl], cy[sl], cu[sl], Vq, V)
                one = (None, None)
                if spec.doubles:
                    one = s_stage(spec, cm[sl], cy[sl], cu[sl], Vq, V, spec.doubles)
                out[sl] = policy_turn_value(spec, Sq, St, *one)
            prog.step(len(cm[sl]))
        spread(spec, V, cm, cy, cu, out)
    return V


# ---- checking a built table -------------------------------------------------------------------
# The joker rules whose tables serve each other on the device (strategy_table.file_names):
# the device policy's loss in that role is measured too (every other pairing, with the
# exact search, in served_losses)
SHARES = {rules.JOKER_FORCED: rules.JOKER_FREE, rules.JOKER_FREE: rules.JOKER_FORCED}


def check(name, tables=ROOT / "tables"):
    """The device policy's exact loss on its own game and, for a Yahtzee table of a joker
    rule in SHARES, serving the other one with the same Sharp Dice setting (against that
    game's own optimum)."""
    rid, joker, sharp = bt.TABLES[name]
    path = Path(tables) / (name + ".bin")
    info = json.loads(path.with_suffix(".json").read_text())
    t0 = time.time()
    Vq = bt.decode(bt.Spec(rid, joker, sharp=sharp), path.read_bytes())
    res = {"name": name, "optimum": info["optimum"], "checked": True}
    res["device_policy"] = bt.optimum(solve(Spec(rid, joker, sharp=sharp), Vq,
                                            label=name + " policy"))
    res["loss"] = res["optimum"] - res["device_policy"]
    if rid == rules.YAHTZEE and joker in SHARES:
        other = SHARES[joker]
        game = bt.table_name(rid, other, sharp)
        own = json.loads((Path(tables) / (game + ".json")).read_text())["optimum"]
        v = bt.optimum(solve(Spec(rid, other, sharp=sharp), Vq, label="%s for %s" % (name, game)))
        res["as_shared"] = {rules.JOKER_NAMES[other]: {"device_policy": v, "loss": own - v}}
    res["seconds"] = round(time.time() - t0, 1)
    return res


# (table, game it serves): every joker rule on every other's table, with and without Sharp
# Dice, and each game with Sharp Dice on its plain table
SERVED = [(a + sh, b + sh) for sh in ("", "_sharp") for a in ("yahtzee_0", "yahtzee_1",
          "yahtzee_2") for b in ("yahtzee_0", "yahtzee_1", "yahtzee_2") if a != b] + [
    ("yahtzee_0", "yahtzee_0_sharp"), ("yatzy", "yatzy_sharp")]


def served_losses(tables=ROOT / "tables", pairs=SERVED):
    """{"table for game": loss a game}: an exact search choosing on one table's values
    while playing another game, evaluated exactly, against that game's own optimum."""
    out = {}
    for table, game in pairs:
        rid, joker, sharp = bt.TABLES[game]
        Vq = np.load(Path(tables) / (table + ".exact.npy"))
        own = json.loads((Path(tables) / (game + ".json")).read_text())["optimum"]
        v = bt.optimum(bt.solve(bt.Spec(rid, joker, sharp=sharp), served=Vq))
        out["%s for %s" % (table, game)] = own - v
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", default=str(ROOT / "tables"))
    ap.add_argument("--only", default=",".join(bt.TABLES))
    a = ap.parse_args(argv)
    for name in a.only.split(","):
        bt.build(name, a.tables)
    for name in a.only.split(","):
        print(json.dumps(check(name, a.tables)))


if __name__ == "__main__":
    main()
