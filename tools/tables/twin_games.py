"""Seeded solitaire games of a NumPy twin (tools/tables/strategy_np.py) in lockstep, with
the dice of SequentialDice (the bench's seeds) or CommonDice (per game, turn and throw, so
two policies that hold alike see alike dice, whatever games are played beside). Only NumPy
and the engine's constants are imported, so normal_vs_ref.py plays an older tree's twin here.
"""

import numpy as np

from picoyacht import engine


class SequentialDice:
    """One generator; a throw's dice are drawn only for the games that throw."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)

    def __call__(self, games, turn, throw, n):
        return self.rng.integers(1, 7, size=(len(games), n))


_GOLD = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


def _mix(z):
    """SplitMix64's finalizer over a uint64 array (wrapping arithmetic)."""
    z = z + _GOLD
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


class CommonDice:
    """Dice per (game, turn, throw, die): a hash of those and the seed, the same whichever
    games throw beside it. The first dice of a throw are the ones a re-roll uses."""

    def __init__(self, seed):
        self.key = _mix(np.array([seed], dtype=np.uint64))

    def __call__(self, games, turn, throw, n):
        h = _mix(_mix(_mix(self.key + np.asarray(games, dtype=np.uint64)) + np.uint64(turn))
                 + np.uint64(throw))
        d = _mix(h[:, None] + np.arange(1, n + 1, dtype=np.uint64)[None, :])
        return (d % np.uint64(6)).astype(np.int64) + 1


def play(twin, games, dice, sample=None, first=0):
    """Play `games` solitaire games (numbered first, first + 1, ... for the dice) in
    lockstep. Returns the final totals; `sample`, if given, is called with each decision
    batch: sample(kind, twin, games, mask, up, y, counts, rolls left, action, single)
    (see bench_strategy), single: the dice came from one throw of them all."""
    rs, n, G = twin.rs, twin.n, games
    ids = np.arange(first, first + G)
    mask = np.zeros(G, dtype=np.int64)
    up = np.zeros(G, dtype=np.int64)
    y = np.zeros(G, dtype=np.int64)
    total = np.zeros(G, dtype=np.int64)
    saved = np.zeros(G, dtype=np.int64)
    use_saved = rs.saved_rolls and twin.options.saved_rolls
    for turn in range(rs.nboxes):
        Wu, Wb = twin.weights(mask, up, y)
        S = twin.fill_s(mask, y, Wu, Wb)
        S1 = twin.fill_s(mask, y, Wu, Wb, twin.doubles) if twin.doubles else None
        single = np.ones(G, dtype=bool)
        left = 3 + saved
        saved[:] = 0
        counts = np.zeros((G, 6), dtype=np.int64)
        throw = 0
        d = dice(ids, turn, throw, n)
        for f in range(6):
            counts[:, f] = (d == f + 1).sum(axis=1)
        left -= 1
        active = np.ones(G, dtype=bool)
        while True:
            ridx = twin.roll_index(counts)
            go = active & (left > 0)
            if not go.any():
                break
            idx = np.nonzero(go)[0]
            L = np.minimum(left[idx], engine.STAGES)
            keep = np.empty(len(idx), dtype=np.int64)
            for lv in (1, 2):
                sel = np.nonzero(L == lv)[0]
                if not len(sel):
                    continue
                gi = idx[sel]
                if S1 is None:
                    Al = twin.stage(S[gi], lv)
                    now = S[gi]
                else:
                    Al = twin.stage(S[gi], lv, S1[gi])
                    now = np.where(single[gi][:, None], S1[gi], S[gi])
                k, _ = twin.best_hold(Al, now, ridx[gi])
                keep[sel] = k
                if sample is not None:
                    sample("hold", twin, gi, mask[gi], up[gi], y[gi], counts[gi], left[gi], k,
                           single[gi])
            scoring = keep == ridx[idx] + twin.r0
            stop = idx[scoring]
            active[stop] = False
            roll = idx[~scoring]
            kk = keep[~scoring]
            throw += 1
            if len(roll):
                kc = twin.kcnt[kk]
                nroll = n - twin.ksize[kk]
                d = dice(ids[roll], turn, throw, n)
                d = np.where(np.arange(n)[None, :] < nroll[:, None], d, 0)
                for f in range(6):
                    kc[:, f] += (d == f + 1).sum(axis=1)
                counts[roll] = kc
                single[roll] = kk == 0
                left[roll] -= 1
        ridx = twin.roll_index(counts)
        one = single if twin.doubles else None
        b, pts, _ = twin.box_choice(mask, ridx, Wu, Wb, one)
        if sample is not None:
            sample("score", twin, np.arange(G), mask, up, y, counts, 0, b, single)
        assert (b >= 0).all()
        if twin.yzb >= 0:
            yz5 = counts.max(axis=1) == n
            total += np.where(yz5 & (y == 1), engine.YAHTZEE_BONUS, 0)
            y = np.where((b == twin.yzb) & (pts > 0), 1, y)
        upper = b < 6
        newup = up + np.where(upper, pts, 0)
        total += pts + np.where((up < twin.at) & (newup >= twin.at), twin.bonus, 0)
        up = newup
        mask |= 1 << b
        if use_saved:
            saved = left.copy()
    return total
