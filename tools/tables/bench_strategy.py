"""Bench of the CPU levels and Expert's tables -> build/bench_strategy.json and a printed table.

    python tools/tables/bench_strategy.py [--games 10000] [--coach-games 300] [--hint-games 400]
                                   [--mp-games 3] [--quick] [--only coach,hint]

Sections (--only runs some; the others' figures stay from the last run's json):
- tables: every table's build time, exact optimum (against independent figures where
  known), the device policy's exact loss on it (tools/table_policy.py: every game and
  option, Sharp Dice and Deluxe too; and the Forced and Free jokers serving each other),
  the exact search's loss serving other games, sizes, and whether the device tables fit
  the Pico's filesystem next to the compiled firmware;
- games: mean +- standard error over seeded solitaire games per level and rule set. Easy
  runs the device code itself; Greedy (the baseline), Normal and Expert run the NumPy twin
  (tools/tables/strategy_np.py, proven action-identical to the device engine by the tests);
  Expert agreement: every decision of Expert's games is re-valued with the exact float
  table; a decision counts as identical when its exact value equals the best (ties too);
- sharp: the same for Normal and Expert with Sharp Dice, Expert's mean against the device
  policy's exact value;
- coach: what the coach says each of Easy's moves gave away against the exact regret
  (tools/tables/coach_bias.py), with the table, with Normal's estimate, with exact values;
- estimate: Normal of this tree against Normal at normal_vs_ref.REF (the estimate before
  an open box counted its later chances), over the same seeded games with common dice:
  each mean +- standard error and the paired difference (tools/tables/normal_vs_ref.py);
- hint: with Sharp Dice and no table, the final total minus the hint's "Est. final avg";
- micropython: on the unix port, time per decision, inner-loop steps, table reads, bytes
  allocated per decision and the RAM the engine holds (tools/rigs/strategy_timing.py).
"""

import argparse
import json
import math
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tools/, for paths
from paths import RIGS, ROOT

import build_tables as bt
import calibrate_avg
import coach_bias
import mpy_run
import normal_vs_ref
import numpy as np
import strategy_np as sn
import table_policy as tp
from cpu_moves import apply
from mpy_build import compile_package
from normal_vs_ref import mean_se

from picoyacht import final_gap, rules, strategy
from picoyacht.game import Game

from scripted import LcgRoller

TABLES = ROOT / "tables"
OUT = ROOT / "build" / "bench_strategy.json"
PICO_FS = 1408 * 1024  # RPI_PICO MicroPython filesystem (bytes)
LEVELS = {strategy.EASY: "Easy", strategy.GREEDY: "Greedy", strategy.NORMAL: "Normal",
          strategy.EXPERT: "Expert"}
DEVICE_TABLES = {rules.YAHTZEE: ("yahtzee", None), rules.YATZY: ("yatzy", None),
                 rules.DELUXE: ("deluxe", None)}


def log(msg):
    sys.stderr.write(msg + "\n")
    sys.stderr.flush()


# ---- tables -------------------------------------------------------------------------------------
def build_times():
    """Every table built from scratch into a scratch directory, each timed: the builder's
    goals are Yahtzee's table in 10 s and all of them in 3 minutes."""
    times = {}
    with tempfile.TemporaryDirectory() as d:
        for name in bt.TABLES:
            t0 = time.time()
            bt.build(name, d, force=True)
            times[name] = round(time.time() - t0, 2)
    return times


def tables_section():
    """Each table's optimum against the independent figures, its build time, and the
    device policy's exact loss on it (alone and serving the other joker rules)."""
    times = build_times()
    out = {}
    for name in bt.TABLES:
        bt.build(name, TABLES)
        info = json.loads((TABLES / (name + ".json")).read_text())
        ref = tp.REFERENCE_OPTIMA.get(name)
        assert ref is None or abs(info["optimum"] - ref) < 1e-5, (name, info["optimum"], ref)
        out[name] = {"optimum": info["optimum"], "reference": ref, "bytes": info["bytes"],
                     "build_seconds": times[name]}
        out[name].update(tp.check(name, TABLES))
    served = tp.served_losses(TABLES)
    free = out["yahtzee_1"]["optimum"]
    sizes = {}
    for name in ("yahtzee", "yatzy"):
        p = TABLES / (name + ".bin")
        if p.exists():
            sizes[name] = p.stat().st_size
    with tempfile.TemporaryDirectory() as d:
        files = compile_package(d)
        fw = sum(f.stat().st_size for f in files) + (ROOT / "firmware" / "main.py").stat().st_size
    block = 4096  # littlefs rounds every file up to whole blocks
    used = sum(-(-s // block) * block for s in sizes.values()) + fw + 16 * block
    return {"tables": out, "device_table_bytes": sizes, "firmware_mpy_bytes": fw,
            "fs_bytes": PICO_FS, "fs_estimate_used": used, "fits": used <= PICO_FS,
            "free_joker_optimum": free, "build_seconds_all": round(sum(times.values()), 1),
            "served_losses": served}


# ---- games ---------------------------------------------------------------------------
def easy_games(rid, games, seed):
    tot = []
    for k in range(games):
        g = Game(rid, ["cpu"], kinds=[strategy.EASY], roller=LcgRoller(seed + k), seed=k)
        rng = LcgRoller(seed + k + 1_000_003)
        while not g.over:
            apply(g, strategy.cpu_step(g, strategy.EASY, None, rng))
        tot.append(g.total(0))
    return tot


def device_table(rid, joker):
    name = DEVICE_TABLES.get(rid, (None,))[0]
    if joker is not None and rid == rules.YAHTZEE:
        name = "yahtzee_%d" % joker
    if name is None or not (TABLES / (name + ".bin")).exists():
        return None, None
    jk = joker if joker is not None else (0 if rid == rules.YAHTZEE else None)
    spec = bt.Spec(rid, jk)
    return name, bt.decode(spec, (TABLES / (name + ".bin")).read_bytes())


def exact_values(rid, joker):
    name = {rules.YATZY: "yatzy", rules.DELUXE: "deluxe"}.get(rid, "yahtzee_%d" % (joker or 0))
    p = TABLES / (name + ".exact.npy")
    return np.load(p) if p.exists() else None


class Agreement:
    """Re-values each of Expert's decisions with the exact table (float search): identical
    when its exact value equals the best's (ties too)."""

    def __init__(self, rid, options, Vexact):
        self.ex = sn.Twin(rid, options, strategy.EXPERT, Vexact, exact=True)
        self.same = 0
        self.total = 0
        self.worst = 0.0

    def __call__(self, kind, twin, gi, mask, up, y, counts, left, act, single):
        hold = kind == "hold"
        mv = coach_bias.Moves.of(mask=mask, up=up, y=y, counts=counts,
                                 left=left if hold else np.zeros_like(mask), single=single,
                                 kind=np.full(len(mask), strategy.HOLD if hold else
                                              strategy.SCORE),
                                 arg=twin.kcode[act] if hold else act)
        best, chosen = coach_bias.values(self.ex, mv)
        gap = best - chosen
        tol = 1e-9 * np.maximum(1.0, np.abs(best))
        self.same += int((gap <= tol).sum())
        self.total += len(gap)
        self.worst = max(self.worst, float(gap.max()))


def games_section(games, quick):
    res = {}
    for rid in range(rules.COUNT):
        rs = rules.RULESETS[rid]
        opts = rules.Options()
        row = {}
        t0 = time.time()
        easy_n = games if not quick else min(games, 2000)
        m, se = mean_se(easy_games(rid, easy_n, 10_000_000 * (rid + 1)))
        row["Easy"] = {"mean": m, "se": se, "games": easy_n}
        for level in (strategy.GREEDY, strategy.NORMAL):
            tot = sn.play(sn.Twin(rid, opts, level), games, 1000 + 10 * rid + level)
            m, se = mean_se(tot)
            row[LEVELS[level]] = {"mean": m, "se": se, "games": games}
        name, Vq = device_table(rid, None)
        if Vq is not None:
            ag = None
            Vx = exact_values(rid, opts.joker if rid == rules.YAHTZEE else None)
            if Vx is not None:
                ag = Agreement(rid, opts, Vx)
            tot = sn.play(sn.Twin(rid, opts, strategy.EXPERT, Vq), games,
                          1000 + 10 * rid + 3, ag)
            m, se = mean_se(tot)
            row["Expert"] = {"mean": m, "se": se, "games": games, "table": name}
            if ag is not None:
                row["Expert"]["agreement"] = ag.same / ag.total
                row["Expert"]["decisions_checked"] = ag.total
                row["Expert"]["worst_gap_points"] = ag.worst
        else:
            row["Expert"] = dict(row["Normal"], note="no table: Expert plays Normal")
        n, g = row["Normal"], row["Greedy"]
        row["normal_minus_greedy"] = {"diff": n["mean"] - g["mean"],
                                      "se": math.hypot(n["se"], g["se"])}
        res[rs.name] = row
        log("%s: %.0f s" % (rs.name, time.time() - t0))
    # Yahtzee's other joker variants with their own tables and with the shared one
    extra = {}
    for joker in (rules.JOKER_FREE, rules.JOKER_ORIGINAL):
        opts = rules.Options(joker=joker)
        for label, name in (("own table", "yahtzee_%d" % joker), ("shared table", "yahtzee")):
            p = TABLES / (name + ".bin")
            if not p.exists():
                continue
            Vq = bt.decode(bt.Spec(rules.YAHTZEE, joker), p.read_bytes())
            tot = sn.play(sn.Twin(rules.YAHTZEE, opts, strategy.EXPERT, Vq), games, 77 + joker)
            m, se = mean_se(tot)
            extra["Yahtzee %s joker, %s" % (rules.JOKER_NAMES[joker], label)] = {
                "mean": m, "se": se, "games": games}
    return res, extra


# ---- Sharp Dice, and the coach on every combination ---------------------------------------------
def sharp_section(games, checked=None):
    """Per Sharp Dice table: Normal's and Expert's seeded games (the twin), Expert's
    agreement with the exact search, and its mean against the device policy's exact value
    from the tables section (checked: {name: that value}), which it must match within
    its noise."""
    out = {}
    for i, name in enumerate(n for n, c in bt.TABLES.items() if c[2]):
        rid, joker, sharp = bt.TABLES[name]
        opts = rules.Options(joker=joker or 0, sharp=True)
        Vq = bt.decode(bt.Spec(rid, joker, sharp=True), (TABLES / (name + ".bin")).read_bytes())
        ag = Agreement(rid, opts, np.load(TABLES / (name + ".exact.npy")))
        row = {}
        for level, twin, sample in ((strategy.NORMAL, sn.Twin(rid, opts, strategy.NORMAL), None),
                                    (strategy.EXPERT, sn.Twin(rid, opts, strategy.EXPERT, Vq),
                                     ag)):
            m, se = mean_se(sn.play(twin, games, 3000 + 10 * i + level, sample))
            row[LEVELS[level]] = {"mean": m, "se": se, "games": games}
        row["Expert"].update(agreement=ag.same / ag.total, decisions_checked=ag.total,
                             worst_gap_points=ag.worst)
        if checked and name in checked:
            row["Expert"]["device_policy"] = checked[name]
        out[bt.words(name)] = row
    return out


def coach_section(games):
    """Per table: the coach's figures against the exact regret over Easy's moves
    (tools/tables/coach_bias.py), judging with the table, as a board without it judges (Normal's
    estimate), and with the exact values in the device's fixed point."""
    return {bt.words(name): coach_bias.measure(name, games, 1) for name in bt.TABLES}


# ---- the hint's avg without a table, with Sharp Dice ------------------------------------
def _plain_gap(game, value):
    """The hint's avg with the gap measured without Sharp Dice (what the hint said before
    final_gap had Sharp Dice's rows)."""
    plain = SimpleNamespace(rs=game.rs, options=rules.Options(), filled=game.filled,
                            current=game.current)
    return value + final_gap.gap(plain)


def hint_section(games):
    """Per rule set with Sharp Dice, on it: the final total minus the hint's avg (Normal's
    value plus final_gap), per seeded game the mean over its decisions, then its mean +-
    standard error over games (seed 70, not the calibration's), with final_gap's Sharp
    rows and with its rows without Sharp Dice."""
    out = {}
    for rid in range(rules.COUNT):
        if not rules.RULESETS[rid].sharp:
            continue
        row = {}
        for label, shown in (("Sharp Dice rows", final_gap.expected_total),
                             ("rows without Sharp Dice", _plain_gap)):
            per_game = [sum(r for _, r in g) / len(g) / 100 for g in calibrate_avg.residuals(
                rid, games, 70, shown, rules.Options(sharp=True))]
            m, se = mean_se(per_game)
            row[label] = {"mean": m, "se": se, "games": games}
        out[rules.NAMES[rid]] = row
    return out


# ---- MicroPython ---------------------------------------------------------------------
def micropython_section(mp_games):
    with tempfile.TemporaryDirectory() as d:
        compile_package(d)
        r = mpy_run.run(RIGS / "strategy_timing.py", [d, ROOT / "firmware", RIGS], "256k",
                        (mp_games, TABLES), timeout=1800)
    if r.returncode:
        raise SystemExit("MicroPython timing failed:\n" + r.stdout + r.stderr)
    rows = []
    for line in r.stdout.split("\n"):
        if not line.strip():
            continue
        rid, level, n, mean_us, max_us, steps, reads, alloc, held, total = map(int, line.split())
        rows.append({"ruleset": rules.RULESETS[rid].name, "level": LEVELS[level],
                     "decisions": n, "mean_us": mean_us, "max_us": max_us,
                     "steps_per_decision": steps, "table_reads_per_decision": reads,
                     "alloc_bytes_per_decision": alloc, "held_bytes": held})
    return rows


SECTIONS = ("tables", "games", "sharp", "coach", "estimate", "hint", "micropython")


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--coach-games", type=int, default=300)
    ap.add_argument("--hint-games", type=int, default=400)
    ap.add_argument("--mp-games", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="fewer Easy games (CPython speed)")
    ap.add_argument("--only", default=",".join(SECTIONS),
                    help="sections to run (the others' figures are kept from the last "
                    "run's json): " + ",".join(SECTIONS))
    a = ap.parse_args(argv)
    only = a.only.split(",")
    t0 = time.time()
    out = json.loads(OUT.read_text()) if OUT.exists() and set(only) != set(SECTIONS) else {}
    if "tables" in only:
        out.update(tables_section())
    if "games" in only:
        out["games_per_case"] = a.games
        out["games"], out["yahtzee_joker_variants"] = games_section(a.games, a.quick)
    if "sharp" in only:
        checked = {n: t["device_policy"] for n, t in out.get("tables", {}).items()
                   if t.get("checked")}
        out["sharp"] = sharp_section(a.games, checked)
    if "coach" in only:
        out["coach"] = coach_section(a.coach_games)
    if "estimate" in only:
        out["estimate"] = {rules.NAMES[rid]: normal_vs_ref.compare(rid, a.games, 1)
                           for rid in range(rules.COUNT)}
    if "hint" in only:
        out["hint"] = hint_section(a.hint_games)
    if "micropython" in only:
        out["micropython"] = micropython_section(a.mp_games)
    out["seconds"] = round(time.time() - t0, 1)
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(out, indent=1))
    report(out)


def report(out):
    """The figures as a table, each section the json holds."""
    for key, part in (("tables", report_tables), ("games", report_games),
                      ("sharp", report_sharp), ("coach", report_coach),
                      ("estimate", report_estimate), ("hint", report_hint),
                      ("micropython", report_micropython)):
        if key in out:
            print()
            part(out)
    print("\nwritten %s (%.0f s)" % (OUT.relative_to(ROOT), out["seconds"]))


def report_tables(out):
    print("Tables (exact optimum / independent figure / build s / bytes / device policy's "
          "exact loss, alone and serving the joker rule that shares it; goal 0.01):")
    for name, t in out["tables"].items():
        ref = "%.7f" % t["reference"] if t["reference"] is not None else "-"
        loss = "%.5f" % t["loss"] if t.get("checked") else "not modelled"
        print("  %-16s %12.7f %12s %6.1f s %8d  loss %s" % (
            name, t["optimum"], ref, t["build_seconds"], t["bytes"], loss))
        for j, v in t.get("as_shared", {}).items():
            print("  %-16s serving the %s joker: loss %.5f" % ("", j, v["loss"]))
    print("  every table built in %.1f s (goal 180 s); Yahtzee's in %.1f s (goal 10 s)" % (
        out["build_seconds_all"], out["tables"]["yahtzee_0"]["build_seconds"]))
    print("One table serving another game (exact search on it, evaluated exactly), loss a game:")
    for pair, loss in out["served_losses"].items():
        print("  %-36s %9.6f%s" % (pair, loss, "" if loss <= 0.01 else "  (over 0.01)"))
    print("  device tables %s; firmware .mpy %d bytes; estimated fs use %d of %d: %s" % (
        out["device_table_bytes"], out["firmware_mpy_bytes"], out["fs_estimate_used"],
        out["fs_bytes"], "fits" if out["fits"] else "DOES NOT FIT"))


def report_games(out):
    print("Mean final score +- standard error, %d seeded solitaire games each:" %
          out["games_per_case"])
    print("  %-11s %16s %16s %16s %16s %16s  %s" % ("rule set", "Easy", "Greedy", "Normal",
                                                   "Expert", "Normal-Greedy", "agreement"))
    for name, row in out["games"].items():
        cells = ["%8.2f +- %5.2f" % (row[k]["mean"], row[k]["se"])
                 for k in ("Easy", "Greedy", "Normal", "Expert")]
        d = row["normal_minus_greedy"]
        ag = row["Expert"].get("agreement")
        print("  %-11s %s %9.2f +- %4.2f  %s" % (
            name, " ".join(cells), d["diff"], d["se"],
            "%.5f of %d" % (ag, row["Expert"]["decisions_checked"]) if ag is not None else
            row["Expert"].get("note", "")))
    for k, v in out["yahtzee_joker_variants"].items():
        print("  %-40s %8.2f +- %5.2f" % (k, v["mean"], v["se"]))


def report_sharp(out):
    print("Sharp Dice, mean final score +- standard error over seeded games (twin); Expert's "
          "agreement with the exact search; Expert's mean minus the device policy's exact "
          "value (0 within the noise):")
    for name, row in out["sharp"].items():
        n, e = row["Normal"], row["Expert"]
        dp = e.get("device_policy")
        print("  %-36s Normal %7.2f +- %4.2f  Expert %7.2f +- %4.2f  agreement %.5f of %d%s" % (
            name, n["mean"], n["se"], e["mean"], e["se"], e["agreement"],
            e["decisions_checked"],
            "" if dp is None else "  Expert - exact %+.2f +- %.2f" % (e["mean"] - dp, e["se"])))


def report_coach(out):
    print("The coach's 'gave' against the exact regret, over Easy's moves (%d games each): "
          "bias (its sum over the exact sum - 1), tips without cause / missing (from 0.5), "
          "moves within 0.01 of the exact figure, the worst gap:" %
          next(iter(out["coach"].values()))["table"]["games"])
    for name, row in out["coach"].items():
        for how in coach_bias.COACHES:
            c = row[how]
            print("  %-36s %-11s %5d moves  bias %+6.1f %%  tips %3d / %3d  within 0.01 "
                  "%6.2f %%  worst %.3f" % (
                      name if how == "table" else "", how, c["moves"], 100 * c["bias"],
                      c["unjustified_tips"], c["missing_tips"], 100 * c["within_0.01"],
                      c["max_abs_error"]))


def report_estimate(out):
    first = next(iter(out["estimate"].values()))
    print("Normal now against Normal at %s, the same %d seeded games with common dice "
          "(seed %d): mean +- standard error, now - then paired per game:" % (
              first["ref_commit"], first["games"], first["seed"]))
    for name, r in out["estimate"].items():
        print("  %-11s now %7.2f +- %4.2f  then %7.2f +- %4.2f  now - then %+6.2f +- %4.2f" % (
            name, *r["now"], *r["ref"], *r["diff"]))


def report_hint(out):
    print("Sharp Dice without a table: the final total minus the hint's 'Est. final avg', "
          "mean +- standard error over seeded games (0 is unbiased):")
    for name, row in out["hint"].items():
        print("  %-11s %s" % (name, "   ".join("%s %+.2f +- %.2f (%d games)" % (
            label, v["mean"], v["se"], v["games"]) for label, v in row.items())))


def report_micropython(out):
    print("MicroPython unix port, per CPU decision (rolls excluded):")
    print("  %-11s %-7s %6s %8s %8s %7s %6s %7s %7s" % (
        "rule set", "level", "moves", "mean us", "max us", "steps", "reads", "alloc B",
        "held B"))
    for r in out["micropython"]:
        print("  %-11s %-7s %6d %8d %8d %7d %6d %7d %7d" % (
            r["ruleset"], r["level"], r["decisions"], r["mean_us"], r["max_us"],
            r["steps_per_decision"], r["table_reads_per_decision"],
            r["alloc_bytes_per_decision"], r["held_bytes"]))


if __name__ == "__main__":
    main()
