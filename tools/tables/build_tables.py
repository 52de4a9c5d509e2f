"""Build Expert's tables: the exact optimal value of every turn-start position, for each game
and option that has one, by backward induction over the filled-box masks.

    python tools/tables/build_tables.py [--out tables] [--only yahtzee_1,yatzy] [--force]

Writes tables/<name>.bin (format in firmware/picoyacht/strategy_table.py), <name>.json
(the optimum: the expected final total from the start) and <name>.exact.npy (the exact
values, for the bench). The rules core (rules.evaluate, game.joker_boxes) is the scorer.
NumPy works out what filling each box is worth; tools/tables/turn_kernel.c does the rest of each
turn. A table is rebuilt only when its sources changed since it was written (or --force).
Checking a table (the device policy's exact loss, one table serving another option) is
`make bench-strategy`'s job (tools/tables/table_policy.py), not the builder's.
"""

import argparse
import hashlib
import json
import sys
import time
from math import factorial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tools/, for paths
from paths import ROOT

import numpy as np
import turn_kernel

from picoyacht import rules
from picoyacht.game import joker_boxes
from picoyacht.strategy_table import FLAG_SHARP, TABLE_MAGIC, header_size

BSHIFT = 7
CHUNK = 2048
Y, FO, FR, OR = rules.YAHTZEE, rules.JOKER_FORCED, rules.JOKER_FREE, rules.JOKER_ORIGINAL

# name -> (rule set, joker rule or None, Sharp Dice)
TABLES = {
    "yahtzee_0": (Y, FO, False), "yahtzee_1": (Y, FR, False), "yahtzee_2": (Y, OR, False),
    "yatzy": (rules.YATZY, None, False), "deluxe": (rules.DELUXE, None, False),
    "yahtzee_0_sharp": (Y, FO, True), "yahtzee_1_sharp": (Y, FR, True),
    "yahtzee_2_sharp": (Y, OR, True), "yatzy_sharp": (rules.YATZY, None, True),
}
# the table also installed as the shared Yahtzee table (for boards that carry one)
SHARED = {"yahtzee": "yahtzee_0"}


def table_name(rid, joker, sharp):
    """The table of a game and its options, or None where no exact table exists."""
    for name, (r, j, s) in TABLES.items():
        if r == rid and s == bool(sharp) and j in (None, joker):
            return name
    return None


def words(name):
    """A table's name as a player says it: "Yahtzee, Free joker, Sharp Dice"."""
    rid, joker, sharp = TABLES[name]
    out = rules.NAMES[rid]
    if joker not in (None, FO):
        out += ", %s joker" % rules.JOKER_NAMES[joker]
    return out + (", Sharp Dice" if sharp else "")


def file_size(name):
    """The bytes of a table's file, known before it is built (for a page's progress bar)."""
    rs = rules.RULESETS[TABLES[name][0]]
    _, reps = upper_classes(rs.ndice, rs.bonus_at)
    groups = (1 << (rs.nboxes - 6)) + ((1 << (rs.nboxes - 7)) if rs.joker else 0)
    return header_size(rs.bonus_at) + groups * (128 + sum(len(r) for r in reps))


class Progress:
    """One line in words, rewritten in place: "Expert's table for Yatzy: 40 %, 6 s left"."""

    def __init__(self, label, total, out=sys.stderr):
        self.label, self.total, self.done, self.out = label, total, 0, out
        self.t0 = self.last = time.time()

    def step(self, k):
        self.done += k
        now = time.time()
        if now - self.last < 0.5 and self.done < self.total:
            return
        self.last = now
        frac = self.done / max(1, self.total)
        if self.done >= self.total:
            tail = "done in %.0f s\n" % (now - self.t0)
        else:
            left = (now - self.t0) * (1 - frac) / max(frac, 1e-9)
            tail = "%d %%, %.0f s left" % (100 * frac, left)
        self.out.write("\rExpert's table for %s: %s   " % (self.label, tail))
        self.out.flush()


# ---- the dice: keeps of 0..n dice, smallest first; the rolls are the last ------------------
def keep_graph(n):
    """(keeps as face counts, child, parent, start) for n dice (see turn_kernel.c)."""
    keeps = []
    for size in range(n + 1):
        keeps += sorted(c for c in np.ndindex(*(size + 1,) * 6) if sum(c) == size)
    where = {c: i for i, c in enumerate(keeps)}
    child = np.full((len(keeps), 6), -1)
    parent = np.full((len(keeps), 6), -1)
    for i, c in enumerate(keeps):
        for f in range(6):
            up = c[:f] + (c[f] + 1,) + c[f + 1:]
            child[i, f] = where.get(up, -1)
            if c[f]:
                parent[i, f] = where[c[:f] + (c[f] - 1,) + c[f + 1:]]
    start = [next(i for i, c in enumerate(keeps) if sum(c) == s) for s in range(n + 1)]
    return keeps, child, parent, np.array(start + [len(keeps)])


def upper_classes(ndice=5, at=63):
    """Per upper mask U: slot[U][up] = live class (0..) or 255 (bonus decided: reached or
    out of reach; 254: a total U cannot have), and the live classes' representative
    totals. Two totals share a class when no remaining upper scores can tell them apart."""
    slot = np.full((64, at + 1), 255, dtype=np.uint8)
    reps = []
    for u in range(64):
        reach, fut = {0}, {0}
        for f in range(1, 7):
            if u >> (f - 1) & 1:
                reach = {min(at, a + k * f) for a in reach for k in range(ndice + 1)}
            else:
                fut = {a + k * f for a in fut for k in range(ndice + 1)}
        sums = sorted(fut)

        def key(up, sums=sums):
            c = [x for x in sums if x >= at - up]
            return c[0] if up < at and c else None

        keys = sorted({key(up) for up in reach} - {None})
        reps.append([min(up for up in reach if key(up) == k) for k in keys])
        for up in range(at + 1):
            k = key(up)
            if k is not None:
                slot[u, up] = keys.index(k) if k in keys else 254
    return slot, reps


# ---- one game and its options as arrays -----------------------------------------------------
class Spec:
    def __init__(self, rid, joker=None, start=0, sharp=False):
        rs = self.rs = rules.RULESETS[rid]
        self.rid, self.joker, self.sharp, self.start = rid, joker, bool(sharp), start
        opts = rules.Options(joker=joker or 0, sharp=sharp)
        self.n, self.nb, self.at = rs.ndice, rs.nboxes, rs.bonus_at
        self.bonus = rs.upper_bonus(opts)
        self.full = (1 << self.nb) - 1
        self.yzb = rs.yahtzee_box if rs.joker else -1
        self.Y = 2 if self.yzb >= 0 else 1
        keeps, child, parent, start_of = keep_graph(self.n)
        rolls = keeps[start_of[self.n]:]
        self.cnt = np.array(rolls, dtype=np.int64)
        nfact = factorial(self.n)
        prob = [nfact / np.prod([factorial(x) for x in c]) / 6 ** self.n for c in rolls]
        doubles = [self.sharp and rules.doubles_with_sharp(b) for b in rs.boxes]
        self.sc = np.array([[max(0, rules.evaluate(box, list((0,) + c))) for box in rs.boxes]
                            for c in rolls], dtype=np.int64)
        self.dsc = self.sc * np.where(doubles, 2, 1)
        alike = [tuple(self.n if g == f else 0 for g in range(6)) for f in range(6)]
        yroll = [rolls.index(c) for c in alike]
        self.kernel = turn_kernel.Kernel(self.n, self.nb, child.ravel(), parent.ravel(),
                                         start_of, prob, self.cnt, self.sc, self.dsc, yroll)
        self.graph = keeps, child, parent, start_of, np.array(prob), yroll
        if self.yzb >= 0:
            self._jokers(alike, doubles)
        self.slot, self.reps = upper_classes(self.n, self.at)

    def _jokers(self, alike, doubles):
        """Per face and lower box, a joker's points (by whether the face's upper box is
        filled: the free rule's condition), plain and from one throw; the boxes it may
        fill per open mask."""
        self.jl = np.zeros((6, self.nb, 2, 2), dtype=np.int64)
        for f in range(6):
            for b in range(6, self.nb):
                for filled in (0, 1):
                    joker = self.joker != FR or filled
                    s = max(0, rules.evaluate(self.rs.boxes[b], list((0,) + alike[f]), joker))
                    self.jl[f, b, filled] = (s, 2 * s if doubles[b] else s)
        self.jallow = np.array([[joker_boxes(o, f, self.joker) for f in range(1, 7)]
                                for o in range(self.full + 1)], dtype=np.int64)

    def lgroups(self):
        return (1 << (self.nb - 6)) + ((1 << (self.nb - 7)) if self.Y == 2 else 0)

    def lgroup(self, low, y):
        if not y:
            return low
        yb = self.yzb - 6
        below = low & ((1 << yb) - 1)
        return (1 << (self.nb - 6)) + (below | ((low >> (yb + 1)) << yb))


def weights(spec, V, cm, cy, cu):
    """What filling each box is worth (points, bonus, then the position it leads to):
    Wu[p, b, k] for k dice in upper box b, W[p, b, z] for lower box b scoring nothing (z=0)
    or points (z=1); -inf where the box is filled."""
    n, at, N = spec.n, spec.at, len(cm)
    Wu = np.full((N, 6, n + 1), -np.inf)
    W = np.full((N, spec.nb, 2), -np.inf)
    for b in range(spec.nb):
        idx = np.nonzero((cm >> b & 1) == 0)[0]
        m2, y, u = cm[idx] | (1 << b), cy[idx], cu[idx]
        if b < 6:
            for k in range(n + 1):
                u2 = u + k * (b + 1)
                gain = k * (b + 1) + np.where((u < at) & (u2 >= at), spec.bonus, 0)
                Wu[idx, b, k] = gain + V[m2, y, np.minimum(u2, at)]
        else:
            W[idx, b, 0] = V[m2, y, u]
            W[idx, b, 1] = V[m2, 1, u] if b == spec.yzb else W[idx, b, 0]
    return Wu, W


def jokers(spec, cm, cy, Wu, W, Wut=None, Wt=None):
    """Where n alike is a joker (the Yahtzee box filled): (jok, value from held dice, value
    from one throw) per position and face, the Yahtzee bonus included; then the same
    values read from Wut, Wt for the boxes chosen on Wu, W (another table serving)."""
    N = len(cm)
    Wut, Wt = (Wu, W) if Wut is None else (Wut, Wt)
    out = [np.zeros((N, 6)) for _ in range(4)]
    if spec.yzb < 0:
        return (np.zeros(N, dtype=bool), *out)
    jok = (cm >> spec.yzb & 1) == 1
    idx = np.nonzero(jok)[0]
    openm = spec.full & ~cm[idx]
    ybonus = rules.YAHTZEE_BONUS * cy[idx]
    for f in range(6):
        allowed = spec.jallow[openm, f]
        best = [np.full(len(idx), -np.inf), np.full(len(idx), -np.inf)]
        true = [np.zeros(len(idx)), np.zeros(len(idx))]
        filled = (cm[idx] >> f) & 1
        for b in range(spec.nb):
            ok = (allowed >> b & 1) == 1
            if b < 6:
                k = spec.n if (b == f and spec.joker != OR) else 0
                vals = [(Wu[idx, b, k], Wut[idx, b, k])] * 2
            else:
                pts = spec.jl[f, b, filled]
                vals = [(pts[:, i] + W[idx, b, 0], pts[:, i] + Wt[idx, b, 0]) for i in (0, 1)]
            for i, (q, t) in enumerate(vals):
                better = ok & (q > best[i])
                best[i] = np.where(better, q, best[i])
                true[i] = np.where(better, t, true[i])
        for i, v in enumerate(best + true):
            out[i][idx, f] = v + ybonus
    return (jok, *out)


def positions(spec):
    """Per count of filled boxes (most first): the (mask, flag) blocks to solve, each the
    decided total (at) then its upper mask's live classes, and where each block starts."""
    levels = {}
    for m in range(spec.full):
        if m & spec.start != spec.start:
            continue
        for y in ((0, 1) if spec.Y == 2 and m >> spec.yzb & 1 else (0,)):
            levels.setdefault(bin(m).count("1"), []).append((m, y))
    out = {}
    for p, blocks in levels.items():
        cm, cy, cu, bo = [], [], [], []
        for m, y in blocks:
            ups = [spec.at] + spec.reps[m & 63]
            bo.append(len(cm))
            cm += [m] * len(ups)
            cy += [y] * len(ups)
            cu += ups
        out[p] = [np.array(x, dtype=np.int64) for x in (cm, cy, cu, bo)]
    return out


def solve(spec, progress=None, served=None):
    """Exact optimal values: V[mask, y, up] (float64; NaN where never needed). served:
    another table's exact values (same rule set): then the true values of playing this
    game with that table's choices instead (what serving it costs)."""
    V = np.full((spec.full + 1, spec.Y, spec.at + 1), np.nan)
    V[spec.full] = 0.0
    colmap = np.where(spec.slot < 254, spec.slot.astype(np.int64) + 1, 0)
    levels = positions(spec)
    for p in sorted(levels, reverse=True):
        cm, cy, cu, bo = levels[p]
        vals = np.empty(len(cm))
        for a in range(0, len(cm), CHUNK):
            sl = slice(a, a + CHUNK)
            Wu, W = weights(spec, V, cm[sl], cy[sl], cu[sl])
            if served is None:
                vals[sl] = spec.kernel.turns(Wu, W, *jokers(spec, cm[sl], cy[sl], Wu, W)[:3])
            else:
                Wuq, Wq = weights(spec, served, cm[sl], cy[sl], cu[sl])
                jok, jmq, jsq, jmt, jst = jokers(spec, cm[sl], cy[sl], Wuq, Wq, Wu, W)
                vals[sl] = spec.kernel.turns_served((Wuq, Wq, jmq, jsq), (Wu, W, jmt, jst), jok)
            if progress:
                progress.step(len(vals[sl]))
        bm, by = cm[bo], cy[bo]
        V[bm, by, :] = vals[bo[:, None] + colmap[bm & 63]]
    return V


def count_positions(spec):
    return sum(len(v[0]) for v in positions(spec).values())


def optimum(V):
    return float(V[0, 0, 0])


# ---- one position's turn, spelled out (for tests: the kernel's choices made visible) ----------
def turn_search(spec, V, mask, up, y):
    """The in-turn search of one position in NumPy, as turn_kernel.c does it. Returns
    (Sm, Ss, holds): what scoring each roll is worth (some dice held / one throw of all),
    and per re-rolls left (1, 2) the value of every keep, keep 0 (nothing held) being
    "throw all the dice again"; and the turn's value."""
    keeps, child, parent, start, prob, yroll = spec.graph
    cm, cy, cu = (np.array([x]) for x in (mask, y, up))
    Wu, W = weights(spec, V, cm, cy, cu)
    jok, jm, js = jokers(spec, cm, cy, Wu, W)[:3]
    r = np.arange(len(spec.cnt))
    Sm = np.max(Wu[0, np.arange(6)[None, :], spec.cnt], axis=1)
    Ss = Sm.copy()
    for b in range(6, spec.nb):
        w = np.where(spec.sc[:, b] > 0, W[0, b, 1], W[0, b, 0])
        Sm = np.maximum(Sm, spec.sc[:, b] + w)
        Ss = np.maximum(Ss, spec.dsc[:, b] + w)
    if jok[0]:
        Sm[yroll], Ss[yroll] = jm[0], js[0]
    r0 = start[spec.n]
    vm, vs, holds = Sm, Ss, {}
    for left in (1, 2):
        A = np.empty(len(keeps))
        A[r0:] = vm
        for k in range(r0 - 1, -1, -1):
            A[k] = A[child[k]].mean()
        A[0] = prob @ vs
        holds[left] = A[:r0].copy()
        A[r0:] = -np.inf
        for k in range(1, len(keeps)):
            A[k] = max(A[k], max(A[q] for q in parent[k] if q >= 0))
        vm, vs = np.maximum(Sm, A[r0 + r]), np.maximum(Ss, A[r0 + r])
    return Sm, Ss, holds, float(prob @ vs)


# ---- the file ---------------------------------------------------------------------------------
def layout(spec):
    nlive = np.array([len(r) for r in spec.reps])
    uoff = np.concatenate([[0], np.cumsum(nlive)[:-1]])
    return nlive, uoff, 128 + int(nlive.sum())


def encode(spec, V):
    """Quantize: 16-bit decided value per (lower group, upper mask), one byte per live
    class. Returns the file bytes."""
    nlive, uoff, gsize = layout(spec)
    ng = spec.lgroups()
    body = np.zeros((ng, gsize), dtype=np.uint8)
    scale = float(1 << BSHIFT)
    masks = np.arange(spec.full)
    for y in range(spec.Y):
        m = masks[~np.isnan(V[masks, y, spec.at])]
        if y:
            m = m[(m >> spec.yzb & 1) == 1]
        g, u = lgroups(spec, m, y), m & 63
        base = np.round(V[m, y, spec.at] * scale).astype(np.int64)
        assert ((0 <= base) & (base < 65536)).all()
        body[g, 2 * u], body[g, 2 * u + 1] = base & 255, base >> 8
        for uu in range(64):
            sel = u == uu
            for k, up in enumerate(spec.reps[uu]):
                dv = V[m[sel], y, up] - base[sel] / scale
                q = np.clip(np.round(np.nan_to_num(dv) * 255 / spec.bonus), 0, 255)
                body[g[sel], 128 + uoff[uu] + k] = q
    head = bytearray(16)
    head[0:4] = TABLE_MAGIC
    head[4:10] = bytes((spec.rid, 255 if spec.joker is None else spec.joker, spec.nb,
                        spec.at, spec.bonus, BSHIFT))
    head[10:12] = ng.to_bytes(2, "little")
    head[12:14] = gsize.to_bytes(2, "little")
    head[14] = FLAG_SHARP if spec.sharp else 0
    out = bytes(head) + uoff.astype("<u2").tobytes() + spec.slot.tobytes()
    assert len(out) == header_size(spec.at)
    return out + body.tobytes()


def lgroups(spec, m, y):
    """Spec.lgroup over an array of masks."""
    return np.array([spec.lgroup(x >> 6, y) for x in m], dtype=np.int64)


def decode(spec, data):
    """The device's fixed-point value of every position of a table file, as V[mask, y, up]
    (int64), using exactly strategy_table's arithmetic."""
    nlive, uoff, gsize = layout(spec)
    bonus, bshift = data[8], data[9]
    head = header_size(spec.at)
    body = np.frombuffer(data[head:], dtype=np.uint8).reshape(-1, gsize).astype(np.int64)
    V = np.zeros((spec.full + 1, spec.Y, spec.at + 1), dtype=np.int64)
    masks = np.arange(spec.full)
    for y in range(spec.Y):
        ok = masks if y == 0 else masks[(masks >> spec.yzb) & 1 == 1]
        g = lgroups(spec, ok, y)
        u = ok & 63
        base = (body[g, 2 * u] | (body[g, 2 * u + 1] << 8)) << (16 - bshift)
        for up in range(spec.at + 1):
            s = spec.slot[u, up].astype(np.int64)
            live = s < 254
            d = body[g, np.minimum(128 + uoff[u] + np.where(live, s, 0), gsize - 1)]
            V[ok, y, up] = base + np.where(live, (d * (bonus << 16) + 127) // 255, 0)
    return V


# Bump when the solve or the encoding changes; the tables also depend on these sources.
BUILDER_VERSION = 2
SOURCES = ("tools/tables/build_tables.py", "tools/tables/turn_kernel.c",
           "firmware/picoyacht/rules.py", "firmware/picoyacht/game.py",
           "firmware/picoyacht/strategy_table.py")


def source_stamp():
    h = hashlib.sha256(b"%d" % BUILDER_VERSION)
    for p in SOURCES:
        h.update((ROOT / p).read_bytes())
    return h.hexdigest()[:16]


def is_current(name, out_dir):
    """True when tables/<name>.bin was built from today's sources."""
    meta = Path(out_dir) / (name + ".json")
    if not ((Path(out_dir) / (name + ".bin")).exists() and meta.exists()):
        return False
    return json.loads(meta.read_text()).get("stamp") == source_stamp()


def build(name, out_dir, force=False, out=sys.stderr):
    """tables/<name>.bin, .json and .exact.npy (unless current); returns the .json's info."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    binf, meta = out_dir / (name + ".bin"), out_dir / (name + ".json")
    if not force and is_current(name, out_dir):
        return json.loads(meta.read_text())
    t0 = time.time()
    out.write("\rExpert's table for %s: 0 %%" % words(name))
    rid, joker, sharp = TABLES[name]
    spec = Spec(rid, joker, sharp=sharp)
    V = solve(spec, Progress(words(name), count_positions(spec), out))
    data = encode(spec, V)
    info = {"name": name, "rid": rid, "joker": joker, "sharp": sharp,
            "optimum": optimum(V), "bytes": len(data),
            "seconds": round(time.time() - t0, 2), "stamp": source_stamp()}
    np.save(out_dir / (name + ".exact.npy"), V)
    tmp = binf.with_suffix(".tmp")
    tmp.write_bytes(data)
    tmp.replace(binf)
    meta.write_text(json.dumps(info, indent=1))
    for alias, src in SHARED.items():
        if src == name:
            (out_dir / (alias + ".bin")).write_bytes(data)
    return info


def provide(file, cache, out=sys.stderr):
    """<cache>/<file> (a table's file, or an alias such as yahtzee.bin), built first if it
    is missing or stale; None when no table has that name."""
    stem = file[:-4] if file.endswith(".bin") else ""
    name = SHARED.get(stem, stem)
    if name not in TABLES:
        return None
    build(name, cache, out=out)
    path = Path(cache) / file
    if stem != name:
        path.write_bytes((Path(cache) / (name + ".bin")).read_bytes())
    return path


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(ROOT / "tables"))
    ap.add_argument("--only", default="", help="comma-separated names: " + ",".join(TABLES))
    ap.add_argument("--force", action="store_true")
    a = ap.parse_args(argv)
    names = [x for x in a.only.split(",") if x] or list(TABLES)
    for name in names:
        if name not in TABLES:
            ap.error("no table %r (there are: %s)" % (name, ", ".join(TABLES)))
    for name in names:
        info = build(name, a.out, a.force)
        print("%-16s optimum %.7f  %7d bytes  built in %.1f s" % (
            name, info["optimum"], info["bytes"], info["seconds"]))


if __name__ == "__main__":
    main()
