/* The in-turn part of Expert's table builder (tools/tables/build_tables.py): for each turn-start
 * position, the expected points to come from this turn on, playing optimally.
 *
 * Python works out, per position, what filling each box is worth (points now plus the
 * value of the position it leads to); this kernel does the rest of the turn, which is
 * where the time goes: the best box for every roll, then twice (two re-rolls) the mean
 * over the dice thrown and the best hold. With Sharp Dice a roll is worth more when it came
 * from one throw of all the dice, so each roll carries two values ("multi": some dice were
 * held; "single": one throw of them all) and throwing them all again is a choice of its own.
 *
 * Keeps (multisets of 0..n dice) are indexed by size, smallest first; the rolls (size n)
 * are the last nr of them, from r0. child[k*6+f]: keep k plus one die f (-1 for size n);
 * parent[k*6+f]: keep k minus one die f (-1 when k has none). start[s]: first keep of
 * size s (start[n+1] = nk).
 */
#include <math.h>

typedef struct {
    int n, nk, r0, nb;
    const int *child, *parent, *start;
    const double *prob;       /* nr: chance of each roll from one throw of all n dice */
    const int *cnt;           /* nr*6: how many dice of each face */
    const int *sc, *dsc;      /* nr*nb: a box's points; the same when all came in one throw */
    const int *yroll;         /* 6: the roll of n alike, per face (joker rows) */
} Dice;

static void expect(const Dice *d, double *A)
{
    for (int s = d->n - 1; s >= 0; s--)
        for (int k = d->start[s]; k < d->start[s + 1]; k++) {
            const int *c = d->child + 6 * k;
            A[k] = (A[c[0]] + A[c[1]] + A[c[2]] + A[c[3]] + A[c[4]] + A[c[5]]) / 6.0;
        }
}

/* A[k] := best of A over k and its sub-keeps, for every keep of size 1..n. */
static void best_down(const Dice *d, double *A)
{
    for (int k = d->start[1]; k < d->nk; k++) {
        const int *p = d->parent + 6 * k;
        double m = A[k];
        for (int f = 0; f < 6; f++)
            if (p[f] >= 0 && A[p[f]] > m)
                m = A[p[f]];
        A[k] = m;
    }
}

static double throw_all(const Dice *d, const double *v)
{
    double e = 0.0;
    int nr = d->nk - d->r0;
    for (int r = 0; r < nr; r++)
        e += d->prob[r] * v[r];
    return e;
}

/* Per position p: Wu[p][b][k] the value of k dice of face b+1 in upper box b, W[p][b][z]
 * the value of lower box b scoring nothing (z=0) or points (z=1); -INFINITY for a filled
 * box. jok[p]: n alike is a joker here, worth jm[p][f] (some held) / js[p][f] (one throw). */
void turns(const Dice *d, int N, const double *Wu, const double *W, const unsigned char *jok,
           const double *jm, const double *js, double *work, double *out)
{
    int n = d->n, nb = d->nb, nr = d->nk - d->r0;
    double *A = work, *Sm = work + d->nk, *Ss = Sm + nr, *vm = Ss + nr, *vs = vm + nr;
    for (int p = 0; p < N; p++) {
        const double *wu = Wu + (long)p * 6 * (n + 1), *w = W + (long)p * nb * 2;
        for (int r = 0; r < nr; r++) {
            double bm = -INFINITY, bs = -INFINITY;
            const int *c = d->cnt + 6 * r, *s = d->sc + nb * r, *ds = d->dsc + nb * r;
            for (int b = 0; b < 6; b++) {
                double v = wu[b * (n + 1) + c[b]];
                if (v > bm)
                    bm = v;
            }
            if (bm > bs)
                bs = bm;
            for (int b = 6; b < nb; b++) {
                double w0 = w[2 * b];
                if (w0 == -INFINITY)
                    continue;
                double f = s[b] > 0 ? w[2 * b + 1] : w0;
                if (s[b] + f > bm)
                    bm = s[b] + f;
                if (ds[b] + f > bs)
                    bs = ds[b] + f;
            }
            Sm[r] = bm;
            Ss[r] = bs;
        }
        if (jok[p])
            for (int f = 0; f < 6; f++) {
                Sm[d->yroll[f]] = jm[6 * p + f];
                Ss[d->yroll[f]] = js[6 * p + f];
            }
        for (int r = 0; r < nr; r++) {
            vm[r] = Sm[r];
            vs[r] = Ss[r];
        }
        for (int stage = 0; stage < 2; stage++) {
            for (int r = 0; r < nr; r++)
                A[d->r0 + r] = vm[r];
            expect(d, A);
            A[0] = throw_all(d, vs);
            for (int r = 0; r < nr; r++)
                A[d->r0 + r] = -INFINITY;
            best_down(d, A);
            for (int r = 0; r < nr; r++) {
                double hold = A[d->r0 + r];
                vm[r] = Sm[r] > hold ? Sm[r] : hold;
                vs[r] = Ss[r] > hold ? Ss[r] : hold;
            }
        }
        out[p] = throw_all(d, vs);
    }
}

/* Another game's table serving this one: the same turn, but every choice is made on the q
 * values (what that table says filling each box is worth) while the points follow the t
 * values (what it is worth in this game, under the choices made). out = the true value
 * of playing so. work: 2 nk + 8 nr doubles. */
void turns_served(const Dice *d, int N, const double *Wuq, const double *Wq,
                  const double *Wut, const double *Wt, const unsigned char *jok,
                  const double *jmq, const double *jsq, const double *jmt, const double *jst,
                  double *work, double *out)
{
    int n = d->n, nb = d->nb, nr = d->nk - d->r0;
    double *Aq = work, *At = Aq + d->nk, *S = At + d->nk; /* S: Smq Smt Ssq Sst vmq vmt vsq vst */
    double *Smq = S, *Smt = S + nr, *Ssq = S + 2 * nr, *Sst = S + 3 * nr;
    double *vmq = S + 4 * nr, *vmt = S + 5 * nr, *vsq = S + 6 * nr, *vst = S + 7 * nr;
    for (int p = 0; p < N; p++) {
        const double *uq = Wuq + (long)p * 6 * (n + 1), *ut = Wut + (long)p * 6 * (n + 1);
        const double *wq = Wq + (long)p * nb * 2, *wt = Wt + (long)p * nb * 2;
        for (int r = 0; r < nr; r++) {
            double mq = -INFINITY, mt = 0, sq, st;
            const int *c = d->cnt + 6 * r, *s = d->sc + nb * r, *ds = d->dsc + nb * r;
            for (int b = 0; b < 6; b++) {
                int i = b * (n + 1) + c[b];
                if (uq[i] > mq) {
                    mq = uq[i];
                    mt = ut[i];
                }
            }
            sq = mq;
            st = mt;
            for (int b = 6; b < nb; b++) {
                if (wq[2 * b] == -INFINITY)
                    continue;
                int z = s[b] > 0;
                if (s[b] + wq[2 * b + z] > mq) {
                    mq = s[b] + wq[2 * b + z];
                    mt = s[b] + wt[2 * b + z];
                }
                if (ds[b] + wq[2 * b + z] > sq) {
                    sq = ds[b] + wq[2 * b + z];
                    st = ds[b] + wt[2 * b + z];
                }
            }
            Smq[r] = mq;
            Smt[r] = mt;
            Ssq[r] = sq;
            Sst[r] = st;
        }
        if (jok[p])
            for (int f = 0; f < 6; f++) {
                int r = d->yroll[f];
                Smq[r] = jmq[6 * p + f];
                Ssq[r] = jsq[6 * p + f];
                Smt[r] = jmt[6 * p + f];
                Sst[r] = jst[6 * p + f];
            }
        for (int r = 0; r < 4 * nr; r++)
            S[4 * nr + r] = S[r];
        for (int stage = 0; stage < 2; stage++) {
            for (int r = 0; r < nr; r++) {
                Aq[d->r0 + r] = vmq[r];
                At[d->r0 + r] = vmt[r];
            }
            expect(d, Aq);
            expect(d, At);
            Aq[0] = throw_all(d, vsq);
            At[0] = throw_all(d, vst);
            for (int r = 0; r < nr; r++)
                Aq[d->r0 + r] = -INFINITY;
            for (int k = d->start[1]; k < d->nk; k++) {
                const int *pa = d->parent + 6 * k;
                for (int f = 0; f < 6; f++)
                    if (pa[f] >= 0 && Aq[pa[f]] > Aq[k]) {
                        Aq[k] = Aq[pa[f]];
                        At[k] = At[pa[f]];
                    }
            }
            for (int r = 0; r < nr; r++) {
                int k = d->r0 + r;
                int m = Smq[r] >= Aq[k], s = Ssq[r] >= Aq[k];
                vmq[r] = m ? Smq[r] : Aq[k];
                vmt[r] = m ? Smt[r] : At[k];
                vsq[r] = s ? Ssq[r] : Aq[k];
                vst[r] = s ? Sst[r] : At[k];
            }
        }
        out[p] = throw_all(d, vst);
    }
}
