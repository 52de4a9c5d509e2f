"""A NumPy twin of picoyacht.strategy for the bench: the same decision procedure with the
same integer arithmetic and tie rules, run for thousands of solitaire games at once.

host_tests/test_strategy.py checks that it picks exactly the device engine's actions.
With exact=True it runs the same search in float64 on the exact table (the bench's
"optimal action" reference for Expert agreement).
"""

import paths  # noqa: F401  (the firmware package on the path)

import numpy as np
import twin_games
from table_policy import joker_allowed, sweeps

from picoyacht import engine, estimate, rules, strategy
from picoyacht.dice import WAYS_AT

ONE = engine.ONE


class Twin:
    def __init__(self, rid, options, level, table=None, exact=False):
        """table: V[mask, y, up] (int64 device values, or float64 exact values)."""
        rs = rules.RULESETS[rid]
        self.rs, self.rid, self.options, self.level = rs, rid, options, level
        self.exact = exact
        self.one = 1 if exact else ONE
        self.eng = eng = engine.Engine(rs, options)
        d = eng.dice
        self.n, self.nb = rs.ndice, rs.nboxes
        self.nr, self.nk, self.r0 = d.nrolls, d.nkeeps, d.first_roll
        self.at = rs.bonus_at
        self.bonus = rs.upper_bonus(options)
        self.sc = np.array([[eng.score(r, b) for b in range(self.nb)]
                            for r in range(self.nr)], dtype=np.int64)
        codes = np.array([d.code(i) for i in range(d.nkeeps)], dtype=np.int64)
        self.kcode = codes
        self.kcnt = np.stack([(codes >> (3 * f)) & 7 for f in range(6)], axis=1)  # (nk, 6)
        self.kc = self.kcnt[self.r0:]
        self.ksize = self.kcnt.sum(axis=1)
        self.yzb = eng.joker_box
        self.doubles = eng.doubles  # Sharp Dice: the lower boxes a one-throw roll doubles
        if self.doubles:
            self.ways = np.array(eng.dice.roll_codes, dtype=np.int64) >> WAYS_AT
        self.yroll = np.array(list(eng.yahtzee_rolls), dtype=np.int64)
        self.jsc = np.frombuffer(bytes(eng.joker_scores), dtype=np.uint8).reshape(
            6, self.nb).astype(np.int64)
        self.exp_levels, self.max_levels, self.subs = sweeps(d, self.kc)
        self.lookup = {int(c): i for i, c in enumerate(codes)}  # code -> keep index
        self.table = table
        if level == strategy.NORMAL:
            masks = np.arange(1 << self.nb)
            nopen = np.zeros(len(masks), dtype=np.int64)
            for b in range(self.nb):
                nopen += ((masks >> b) & 1) == 0
            par = eng.estimate().pars()
            gains = []  # per count of open boxes, each box's term: the estimate's own
            for n in range(self.nb + 1):
                eng.heuristic(((1 << self.nb) - 1) >> n, self.at, 0)  # fills n's terms
                gains.append(list(par[2 * self.nb:3 * self.nb]))
            gains = np.array(gains, dtype=np.int64)
            tot = np.zeros(len(masks), dtype=np.int64)
            for b in range(self.nb):
                tot += np.where(((masks >> b) & 1) == 0, gains[nopen, b], 0)
            self.parsum = (tot >> 8) * estimate.PAR_W
            self.nopen = nopen
            self.phi = np.array([list(eng.phi(o)) for o in range(64)], dtype=np.int64)
            self.bunit = self.bonus * ONE // 255

    # ---- the position's value after filling a box -------------------------------------------
    def fut(self, m2, u2, y2):
        lv = self.level
        if lv == strategy.EXPERT:
            return self.table[m2, y2, u2]
        if lv == strategy.GREEDY:
            return np.zeros(np.broadcast(m2, u2, y2).shape, dtype=np.int64)
        v = self.parsum[m2] + np.where(u2 < self.at, self.bunit * self.phi[
            (~m2) & 63, np.clip(self.at - u2, 0, self.at)], 0)
        return v + np.where(y2 == 1, self.nopen[m2] * (estimate.YZ_OPEN * ONE), 0)

    def weights(self, mask, up, y):
        G = len(mask)
        n, at = self.n, self.at
        upc = np.minimum(up, at)
        Wu = np.zeros((G, 6, n + 1), dtype=np.float64 if self.exact else np.int64)
        Wb = np.zeros((G, self.nb + 1), dtype=Wu.dtype)
        for b in range(6):
            f = b + 1
            m2 = mask | (1 << b)
            for k in range(n + 1):
                u2 = up + k * f
                pts = k * f + np.where((up < at) & (u2 >= at), self.bonus, 0)
                Wu[:, b, k] = pts * self.one + self.fut(m2, np.minimum(u2, at), y)
        for b in range(6, self.nb):
            m2 = mask | (1 << b)
            if b == self.yzb:
                Wb[:, b] = self.fut(m2, upc, np.zeros_like(y))
                Wb[:, self.nb] = self.fut(m2, upc, np.ones_like(y))
            else:
                Wb[:, b] = self.fut(m2, upc, y)
        return Wu, Wb

    def neg(self, shape):
        if self.exact:
            return np.full(shape, -np.inf)
        return np.full(shape, engine.NEG, dtype=np.int64)

    def fill_s(self, mask, y, Wu, Wb, doubles=0):
        """Per game and roll: the value of ending the turn with it, the boxes in `doubles`
        scoring double (Sharp Dice: a roll from one throw of all the dice)."""
        G = len(mask)
        S = self.neg((G, self.nr))
        for b in range(self.nb):
            op = ((mask >> b) & 1) == 0
            one = self.one * (2 if doubles >> b & 1 else 1)
            if b < 6:
                cand = Wu[:, b, :][:, self.kc[:, b]]
            elif b == self.yzb:
                s = self.sc[:, b][None, :]
                cand = s * one + np.where(s > 0, Wb[:, self.nb][:, None], Wb[:, b][:, None])
            else:
                cand = self.sc[:, b][None, :] * one + Wb[:, b][:, None]
            np.maximum(S, np.where(op[:, None], cand, S), out=S)
        if self.yzb >= 0:
            jg = np.nonzero((mask >> self.yzb) & 1)[0]
            if len(jg):
                for f in range(1, 7):
                    v, _, _ = self.joker_choice(mask[jg], f, Wu[jg], Wb[jg], doubles)
                    S[jg, self.yroll[f - 1]] = v + y[jg] * (engine.YAHTZEE_BONUS * self.one)
        return S

    def joker_allowed(self, mask, f, b, doubles=0):
        """Per game: may five f's go in box b (Yahtzee box filled), and its score (doubled
        for a box in `doubles`)."""
        full = (1 << self.nb) - 1
        openm = full & ~mask
        op = ((openm >> b) & 1) == 1
        lower_open = (openm & ~63) != 0
        uf_open = ((openm >> (f - 1)) & 1) == 1
        v = self.options.joker
        allowed = joker_allowed(v, b, f, op, lower_open, uf_open)
        if b < 6:
            s = self.n * f if (b == f - 1 and v != rules.JOKER_ORIGINAL) else 0
            s = np.full(len(mask), s)
        elif v == rules.JOKER_FREE:
            s = np.where(uf_open, self.sc[self.yroll[f - 1], b], self.jsc[f - 1, b])
        else:
            s = np.full(len(mask), self.jsc[f - 1, b])
        return allowed, s * (2 if doubles >> b & 1 else 1)

    def joker_choice(self, mask, f, Wu, Wb, doubles=0):
        G = len(mask)
        best = self.neg(G)
        bb = np.full(G, -1)
        pts = np.zeros(G, dtype=np.int64)
        for b in range(self.nb):
            allowed, s = self.joker_allowed(mask, f, b, doubles)
            if b < 6:
                cand = Wu[np.arange(G), b, s // (b + 1)]
            else:
                cand = s * self.one + Wb[:, b]
            better = allowed & (cand > best)
            best = np.where(better, cand, best)
            bb = np.where(better, b, bb)
            pts = np.where(better, s, pts)
        return best, bb, pts

    # ---- stages and decisions ------------------------------------------------------------------
    def stage(self, S, left, S1=None):
        """Per game: every keep's value, `left` re-rolls to go, from S (the turn ended with
        each roll); with Sharp Dice S1 (each roll from one throw of all the dice) values
        holding nothing: throwing them all."""
        G = S.shape[0]
        A = np.empty((G, self.nk + 1), dtype=S.dtype)
        A[:, self.nk] = -np.inf if self.exact else engine.NEG * 4
        A[:, self.r0:self.nk] = S
        for i in range(left):
            if i:
                for rows, p in self.max_levels:
                    m = A[:, rows]
                    for f in range(6):
                        np.maximum(m, A[:, p[:, f]], out=m)
                    A[:, rows] = m
            for rows, ch in self.exp_levels:
                s = A[:, ch[:, 0]]
                for f in range(1, 6):
                    s = s + A[:, ch[:, f]]
                A[:, rows] = s / 6.0 if self.exact else (s + 3) // 6
            if S1 is not None:
                A[:, 0] = self.one_throw(np.maximum(S1, A[:, self.r0:self.nk]))
        return A

    def one_throw(self, v):
        """Per game: the mean of v (per roll) over one throw of all the dice, rounded as
        the device rounds it (engine._one_throw_steps)."""
        t = 6 ** self.n
        s = v @ self.ways
        return s / t if self.exact else (s + t // 2) // t

    def best_hold(self, A, S, ridx):
        """ridx: roll index (0..nr-1) per game. Returns (keep index, value)."""
        G = len(ridx)
        cand = A[np.arange(G)[:, None], self.subs[ridx]]
        cand[:, 0] = S[np.arange(G), ridx]
        k = np.argmax(cand, axis=1)
        return self.subs[ridx, k], cand[np.arange(G), k]

    def box_values(self, mask, ridx, Wu, Wb, single=None):
        """(values, points): per game and box, the device's value of filling the box with
        the final roll (NEG / -inf where not allowed) and the points it scores; single:
        per game, the dice came from one throw of them all (Sharp Dice doubles)."""
        G = len(mask)
        two = np.ones(G, dtype=np.int64) if single is None else np.where(single, 2, 1)
        vals = self.neg((G, self.nb))
        pts = np.zeros((G, self.nb), dtype=np.int64)
        for b in range(self.nb):
            op = ((mask >> b) & 1) == 0
            s = self.sc[ridx, b] * (two if self.doubles >> b & 1 else 1)
            if b < 6:
                cand = Wu[np.arange(G), b, self.kc[ridx, b]]
            elif b == self.yzb:
                cand = s * self.one + np.where(s > 0, Wb[:, self.nb], Wb[:, b])
            else:
                cand = s * self.one + Wb[:, b]
            vals[:, b] = np.where(op, cand, vals[:, b])
            pts[:, b] = s
        if self.yzb >= 0:
            jg = ((mask >> self.yzb) & 1) == 1
            for f in range(1, 7):
                sel = np.nonzero(jg & (ridx == self.yroll[f - 1]))[0]
                if not len(sel):
                    continue
                for b in range(self.nb):
                    allowed, s = self.joker_allowed(mask[sel], f, b)
                    if b >= 6 and self.doubles >> b & 1:
                        s = s * two[sel]
                    if b < 6:
                        cand = Wu[sel, b, s // (b + 1)]
                    else:
                        cand = s * self.one + Wb[sel, b]
                    vals[sel, b] = np.where(allowed, cand, self.neg(len(sel)))
                    pts[sel, b] = s
        return vals, pts

    def box_choice(self, mask, ridx, Wu, Wb, single=None):
        """The device's box for the final roll (ties: lowest box): (box, points, value)."""
        vals, pts = self.box_values(mask, ridx, Wu, Wb, single)
        b = np.argmax(vals, axis=1)
        G = len(mask)
        return b, pts[np.arange(G), b], vals[np.arange(G), b]

    def roll_index(self, counts):
        code = np.zeros(len(counts), dtype=np.int64)
        for f in range(6):
            code |= counts[:, f] << (3 * f)
        return np.array([self.lookup[int(c)] for c in code]) - self.r0


def play(twin, games, seed, sample=None):
    """Play `games` seeded solitaire games in lockstep, dice from one generator (the bench's
    seeds); see twin_games.play for `sample`. Returns the final totals."""
    return twin_games.play(twin, games, twin_games.SequentialDice(seed), sample)
