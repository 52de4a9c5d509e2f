"""Normal of this tree against Normal of an earlier commit (--ref), over the same games.

Each tree's NumPy twin (tools/tables/strategy_np.py, held to its device engine by its tests)
plays the same solitaire games with common dice (twin_games.CommonDice: per game, turn and
throw), so two policies that hold alike see alike dice, and the paired per-game difference
has a far smaller standard error than the two means. The ref's firmware and tools are
exported by `git archive` to a temporary folder, and its twin runs there in a subprocess
(--worker) playing this tree's twin_games; nothing of the ref is kept. Only the standard
library and NumPy are imported at the top: the worker puts a tree on the path first.
"""

import argparse
import importlib.util
import io
import json
import math
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
REF = "00ff491"  # Normal's estimate before an open box counted its later chances
CHUNK = 1000  # games per batch in the worker (memory), the dice are the same either way


def export(ref, dest):
    """The ref's firmware/ and tools/ into dest (a folder)."""
    tar = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", ref, "firmware",
                          "tools"], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as t:
        t.extractall(dest, filter="data")


def totals(tree, rid, games, seed):
    """Per game, the final total of `tree`'s Normal (a subprocess: its own picoyacht)."""
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "totals.npy"
        subprocess.run([sys.executable, __file__, "--worker", str(tree), "--only", str(rid),
                        "--games", str(games), "--seed", str(seed), "--out", str(out)],
                       check=True)
        return np.load(out)


def worker(tree, rid, games, seed, out):
    """In a fresh interpreter: `tree`'s twin plays the games; per-game totals into out."""
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
    sys.path[:0] = [str(tree / "tools"), str(tree / "tools" / "tables")]
    import strategy_np  # the tree's (it imports the tree's paths, then its picoyacht)

    from picoyacht import rules, strategy
    spec = importlib.util.spec_from_file_location("twin_games_here", HERE / "twin_games.py")
    games_here = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(games_here)
    twin = strategy_np.Twin(rid, rules.Options(), strategy.NORMAL)
    dice = games_here.CommonDice(seed)
    tot = [games_here.play(twin, min(CHUNK, games - a), dice, first=a)
           for a in range(0, games, CHUNK)]
    np.save(out, np.concatenate(tot))


def mean_se(x):
    x = np.asarray(x, dtype=np.float64)
    return float(x.mean()), float(x.std(ddof=1) / math.sqrt(len(x)))


def compare(rid, games, seed, ref=REF):
    """{"now", "ref", "diff"}: each a (mean, standard error) over the same games; diff is
    paired (per game, this tree minus the ref)."""
    now = totals(ROOT, rid, games, seed)
    with tempfile.TemporaryDirectory() as d:
        export(ref, d)
        old = totals(Path(d), rid, games, seed)
    return {"now": mean_se(now), "ref": mean_se(old), "diff": mean_se(now - old),
            "games": games, "seed": seed, "ref_commit": ref,
            "same_total": float(np.mean(now == old))}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ref", default=REF)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", default="0,1,2,3,4,5", help="rule set ids")
    ap.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.worker:
        worker(a.worker, int(a.only), a.games, a.seed, a.out)
        return
    names = ("Yahtzee", "Yatzy", "Casino 5", "Casino 6", "Maxi Yatzy", "Deluxe")
    print("Normal now and at %s, %d seeded games each (common dice, seed %d): mean +- "
          "standard error; now - ref paired per game:" % (a.ref, a.games, a.seed))
    for rid in map(int, a.only.split(",")):
        r = compare(rid, a.games, a.seed, a.ref)
        print("  %-11s now %7.2f +- %4.2f  ref %7.2f +- %4.2f  diff %+6.2f +- %4.2f  "
              "(%.0f %% of games end on the same total)" % (
                  names[rid], *r["now"], *r["ref"], *r["diff"], 100 * r["same_total"]),
              flush=True)
        print(json.dumps({"ruleset": rid, **r}), file=sys.stderr)


if __name__ == "__main__":
    main()
