"""docs/PERFORMANCE.md from a `make bench-pico` report (build/bench_pico.json): one table of
the latest figures against docs/DESIGN.md's budgets, with the layout, the MicroPython firmware and
the command that measures each row. No history: that is the file's git log.

Apart from tools/emu/bench_pico.py, which measures, so that the table can be rewritten (and
tested) from a saved report without an emulator:  python tools/emu/perf_report.py [JSON]
"""

import re
import sys
from collections import namedtuple
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tools/, for paths
import paths

import device_tables
import heap_budget
import power_model

DOC = paths.ROOT / "docs" / "PERFORMANCE.md"
REPORT = paths.BUILD / "bench_pico.json"
ACTIONS = ("hold", "cursor", "card_cursor", "roll", "score", "menu", "page", "help", "help_back")
CTRLC_SCREENS = ("title", "setup", "play", "card", "handover", "menu", "scores", "anim", "cpu",
                 "over")
LEVELS = {1: "Easy", 2: "Normal", 3: "Expert"}
UF2 = "uf2"  # the report's key for the frozen .uf2's figures; stock firmwares go by version

# One line of the table: what is budgeted, its target, the figure, the verdict (True, False,
# or None where there is no target), the layout, the MicroPython firmware and the command.
Row = namedtuple("Row", "budget target figure ok layout firmware command")


def part(args):
    """The command that measures one part of the report."""
    return 'make bench-pico PICOARGS="%s"' % args


def fmt(x, unit, none="-"):
    if isinstance(x, float):
        x = round(x, 1) if round(x, 1) % 1 else int(round(x, 1))
    return none if x is None else "%s %s" % (x, unit)


def within(xs, limit):
    xs = [x for x in xs if x is not None]
    return all(x <= limit for x in xs) if xs else None


def mark(rep, where, name, figure):
    """A figure kept from an earlier run of another PicoYacht version says which."""
    at = rep.get("at", {}).get("%s %s" % (where, name), rep.get("version"))
    return figure if at == rep.get("version") else _label(figure, at)


def _label(figure, version):
    return "%s (PicoYacht %s)" % (figure, version)


def _labelled(cells):
    """A row's figure names the version that measured it (mark): not the document's."""
    return "(PicoYacht " in cells[2]


def err(out):
    """A run that raised: its error in place of the figure."""
    if not (isinstance(out, dict) and "error" in out):
        return "-"
    return "error: " + " ".join(out["error"].split())[-80:]  # one line: a table's cell


def heap_rows(rep):
    """The smallest free heap per rule set: the frozen .uf2, then the .mpy layout."""
    rows = []
    for where, layout in ((UF2, "uf2"), (rep.get("heap_fw", "1.28.0"), "mpy")):
        got = rep.get(where, {})
        free = got.get("repl free")
        names = sorted((k for k in got if k.startswith("heap ")), key=lambda k: k.split()[1:])
        for key in names:
            _, rid, seats, *flags = key.split()  # "heap 0 4", "heap 0 4 sharp"
            rid, seats = int(rid), int(seats)
            sharp = "sharp" in flags
            out = got[key]
            # {"completes": KB}: a game run at that one heap (a probe of the budget, no
            # bisection), so the figure is an upper bound
            checked = out.get("completes") if isinstance(out, dict) else None
            kb = out if isinstance(out, int) else checked
            target, figure, ok = heap_budget.verdict(layout, rid, seats, kb,
                                              free if isinstance(free, int) else None)
            if checked is not None:
                figure = "completes at %d KB (not bisected)" % checked
            elif isinstance(out, dict):
                figure, ok = err(out), False
            figure = mark(rep, where, key, figure)
            what = "1 Expert seat" if seats == 1 else "%d Expert seats" % seats
            name = heap_budget.RULE_NAMES[rid] + (" + Sharp Dice" if sharp else "")
            rows.append(Row("smallest free heap: %s, %s, coach on" % (name, what),
                            target, figure, ok, layout, where, part(
                                "--only heap --layout %s --rules %d --seats %d%s" % (
                                    layout, rid, seats, " --sharp" if sharp else ""))))
    return rows


def play_rows(rep, fw):
    """A 1-player game through the buttons on the .mpy layout: garbage, time, I2C."""
    p = rep.get(fw, {}).get("play") or {}
    acts = p.get("actions") or {}
    cmd = part("--only play")

    def row(budget, target, figure, ok):
        return Row(budget, target, mark(rep, fw, "play", figure), ok, "mpy", fw, cmd)

    allocs = {k: a["alloc_max"] for k, a in acts.items()}
    idle = {k: v["alloc_per_pass"] for k, v in (p.get("idle") or {}).items()}
    ms = {k: a["emulated_ms_max"] for k, a in acts.items()}
    save = (p.get("save") or {}).get("ms_max")
    h = p.get("help")
    return [
        row("garbage per user action (max)", "0 B", ", ".join(
            "%s %s" % (k, fmt(v, "B")) for k, v in allocs.items()) or err(p),
            within(allocs.values(), 0)),
        row("garbage per idle pass", "0 B", ", ".join(
            "%s %s" % (k, fmt(v, "B")) for k, v in idle.items()) or err(p),
            within(idle.values(), 0)),
        row("user action's pass before I2C (max)", "at most 20 ms + I2C", ", ".join(
            "%s %s" % (k, fmt(v, "ms")) for k, v in ms.items()) or err(p),
            within(ms.values(), 20)),
        row("I2C bytes per user action (median)", "at most 150 B",
            fmt(p.get("i2c_median_all"), "B"), within([p.get("i2c_median_all")], 150)),
        row("roll animation frame + I2C (max)", "at most 50 ms", fmt(p.get("anim_ms_max"), "ms"),
            within([p.get("anim_ms_max")], 50)),
        row("a box's save, the pass after its frame (max)", "at most 50 ms", fmt(save, "ms"),
            within([save], 50)),
        row("button sampling running", "", p.get("sampling", "-"), None),
    ] + ([row("box help's openings (first, repeat): pass before I2C and allocation; box_help's "
              "import alone; heap kept after each closing", "reported", "%s; import %d B in %.1f "
              "ms, %d B left after forget; kept %s" % (", ".join("%s ms with %s B" % (
                  round(us / 1000, 1), b) for us, b in h["opens"]), h["import"][0],
                  h["import"][1] / 1000, h["import"][2], ", ".join("%d B" % b for b in h["kept"])),
              None)] if h else [])


def cpu_rows(rep, fw):
    rows = []
    got = rep.get(fw, {})
    for key in sorted(k for k in got if k.startswith("cpu ")):
        c = got[key]
        _, level, rid, *sharp = key.split()
        worst = max(c.get("max_ms") or 0, c.get("any_pass_max_ms") or 0) or None
        rows.append(Row("pass while a CPU plays (max): %s, %s%s" % (
            LEVELS[int(level)], heap_budget.RULE_NAMES[int(rid)], " + Sharp Dice" * len(sharp)),
            "at most 50 ms", mark(rep, fw, key, fmt(worst, "ms", err(c))), within([worst], 50),
            "mpy", fw, part("--only cpu --levels %s --rules %s%s" % (
                level, rid, " --sharp" * len(sharp)))))
    return rows


# bench_pico's games (part "game", its GAMES): their rows for the start's key pass, the
# start's passes and the end's passes (the last three measure a start only: the demo's end
# is an all-CPU game's, and the other two end as the player's game does)
_GAMES = (
    ("game 0", "setup's Start, its key's pass before I2C: a player's game",
     "pass of the game's start, after its key: a player's game (max)",
     "pass of the game's end, after a player's last box (max)"),
    ("game 1", "setup's Start, its key's pass before I2C: an Expert CPU's game",
     "pass of the game's start, after its key: an Expert CPU's game (max)",
     "pass of the game's end, after an Expert CPU's last box (max)"),
    ("game 2", "the title's Demo, its key's pass before I2C",
     "pass of the demo's start, after its key (max)", None),
    ("game 3", "game over's Play again, its key's pass before I2C",
     "pass of Play again's start, after its key (max)", None),
    ("game 4", "the title's Resume, its key's pass before I2C",
     "pass of the resumed game's start, after its key (max)", None),
)


def game_rows(rep, fw):
    """A 1-seat game's start, from setup's Start key to the game's first frame (the key's
    pass answers; setup's drop, the settings' save, each module and the game come a pass
    each after it), and its end, from the last box to the results' frame (a pass each for
    the records' save, the game's delete, the results' module and their frame)."""
    rows = []
    got = rep.get(fw, {})
    for key, start_key, start, end in _GAMES:
        e = got.get(key)
        if e is None:
            continue
        failed = err(e) if "error" in e else None

        def judged(name, target, ms, limit, ok, passes, missing, key=key, failed=failed):
            figure = mark(rep, fw, key, fmt(ms if ok else None, "ms", failed or missing))
            rows.append(Row(name, target, figure + (" (%d passes)" % passes
                                                    if ok and passes is not None else ""),
                            within([ms], limit) if ok else False, "mpy", fw,
                            part("--only game")))

        started = bool(e.get("started") and e.get("completed"))
        judged(start_key, "at most 20 ms + I2C", e.get("start_key_ms"), 20, started, None,
               "no game")
        judged(start, "at most 50 ms", e.get("start_max_ms"), 50, started,
               e.get("start_passes"), "no game")
        if end:
            judged(end, "at most 50 ms", e.get("max_ms"), 50,
                   bool(e.get("results") and e.get("completed")), e.get("passes"),
                   "no results")
    return rows


def console_rows(rep, fw):
    got = rep.get(fw, {})
    tries = {s: (got.get("ctrlc " + s) or {}).get("tries") for s in CTRLC_SCREENS}
    tries["boot"] = (got.get("reset") or {}).get("ctrlc_tries")
    if not any(k.startswith("ctrlc ") for k in got):
        return []
    figure = ", ".join("%s %s" % (s, "-" if t is None else t) for s, t in tries.items())
    return [Row("Ctrl-C reaches the REPL (tries, per screen)", "1st try",
                mark(rep, fw, "ctrlc " + CTRLC_SCREENS[0], figure), within(tries.values(), 1),
                "mpy", fw, part("--only ctrlc"))]


def reset_rows(rep):
    rows = []
    for where, layout, limit in ((UF2, "uf2", 150), *((fw, "mpy", 600)
                                                      for fw in rep.get("fws", []))):
        r = rep.get(where, {}).get("reset")
        if r is not None:
            title = r.get("title_ms")
            figure = mark(rep, where, "reset", fmt(title, "ms", err(r)))
            rows.append(Row("reset to the title frame", "at most %d ms" % limit, figure,
                            within([title], limit), layout, where,
                            part("--only reset --layout %s" % layout)))
    return rows


def reads_rows(rep):
    """Expert's reads of a CPU decision on each packed table of the .uf2's ROMFS."""
    got = rep.get(UF2, {}).get("tables")
    cmd = part("--only tables --layout uf2")
    if not got or "error" in got:
        return [Row("Expert's table reads of a decision", "0 B", err(got), None, "uf2", UF2,
                    cmd)] if got else []
    return [Row("Expert's table reads of a decision: %s (median, longest, garbage)" % name,
                "0 B", mark(rep, UF2, "tables", "%s, %s, %s" % (
                    fmt(r["median_ms"], "ms"), fmt(r["max_ms"], "ms"), fmt(r["alloc_max"], "B"))),
                within([r["alloc_max"]], 0), "uf2", UF2, cmd) for name, r in sorted(got.items())]


def think_rows(rep):
    """A CPU Expert decision's whole thinking per game and option (a loop pass has a budget)."""
    got, out = rep.get(UF2, {}), []
    for words, rid, joker, sharp in device_tables.combinations():
        key = "think %d %d %d" % (rid, joker, sharp)
        t = got.get(key)
        if t is None:
            continue
        ms = {k: fmt(v / 1000, "ms") for k, v in t.items() if k.endswith("_us")}
        figure = err(t) if "error" in t else (
            "median %s, longest %s (%s decisions, up to %s passes; move shown at a median %s, "
            "longest %s); first %s (%s passes); Expert %s" % (
                ms["median_us"], ms["max_us"], t["decisions"], t["passes_max"],
                ms["shown_median_us"], ms["shown_max_us"], ms["first_us"], t["first_passes"],
                "from its table" if t["table"] else "by estimate"))
        out.append(Row("CPU Expert decision's whole thinking: %s (median, longest; the game's "
                       "first, with the engine build)" % words, "reported",
                       mark(rep, UF2, key, figure), None, "uf2", UF2,
                       part("--only think --layout uf2 --rules %d --runs 1" % rid)))
    return out


def power_rows(rep):
    """The power model's estimates (tools/emu/power_model.py) from the .mpy game's busy time:
    as old as that game."""
    return [Row("power model, %s (%d mAh)" % (name, e["mah"]), "",
                mark(rep, "1.28.0", "play", "play %.0f-%.0f h, asleep %.0f-%.0f days" % (
                    *e["play_hours"], *e["standby_days"])),
                None, "mpy", "1.28.0", part("--only play"))
            for name, e in (rep.get("power") or {}).items()]


def rows(rep):
    out = heap_rows(rep) + reset_rows(rep) + reads_rows(rep) + think_rows(rep)
    for fw in rep.get("fws", []):
        out += play_rows(rep, fw) + cpu_rows(rep, fw) + game_rows(rep, fw) + console_rows(rep, fw)
    return out + power_rows(rep)


def markdown(rep, table):
    def verdict(ok):
        return "" if ok is None else ("pass" if ok else "**FAIL**")

    layouts = {"uf2": "frozen .uf2", "mpy": ".mpy"}
    head = [
        "# PicoYacht performance",
        "",
        "Generated by `make bench-pico` (tools/emu/bench_pico.py); do not edit by hand. The",
        "budgets are those of [DESIGN.md](DESIGN.md). Figures come from MicroPython's real rp2",
        "firmware on an emulated RP2040 (rp2040js), played through the buttons; emulated times",
        "are slightly optimistic. Each row's command measures that row again.",
        "",
        "- Firmware: PicoYacht %s, measured %s" % (rep.get("version"), rep.get("when")),
        "- Last run: `%s`, %s (each part's time: build/bench_pico.json)" % (
            rep.get("command"), duration(rep.get("seconds"))),
        "",
        "| budget | target | measured | verdict | layout | MicroPython | command |",
        "|---|---|---|---|---|---|---|",
    ]
    body = []
    for r in table:
        fw = "v1.28.0" if r.firmware == UF2 else "v" + r.firmware
        body.append("| %s | %s | %s | %s | %s | %s | `%s` |" % (
            r.budget, r.target, r.figure, verdict(r.ok), layouts[r.layout], fw, r.command))
    return "\n".join(head + body) + "\n"


def duration(seconds):
    return "time not recorded" if seconds is None else "%d min %d s" % divmod(seconds, 60)


def _table_rows(text):
    """{(budget, layout): the row's line} of a written document, in its order."""
    out = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.split(" | ")]
        if line.startswith("| ") and len(cells) == 7 and cells[0] != "| budget":
            out[cells[0], cells[4]] = line
    return out


def _with_version(line, version):
    """A row of a document whose header names `version`, saying so if it does not."""
    cells = line.split(" | ")
    if not _labelled(cells):
        cells[2] = _label(cells[2], version)
    return " | ".join(cells)


def keep_committed(new, old):
    """A partial run's document, with the committed one's figures where the run measured
    nothing newer: a row the run did not measure keeps the document's (labelled with the
    version that measured it), and a row missing from the run's report stays where it was.
    The run's own rows (no version label) replace the document's."""
    header = re.search(r"^- Firmware: PicoYacht (\S+),", old, re.M)
    if header is None:
        return new
    kept = {k: _with_version(line, header.group(1)) for k, line in _table_rows(old).items()}
    rows_of = {line: k for k, line in _table_rows(new).items()}
    lines = []  # (key or None, line)
    for line in new.splitlines():
        key = rows_of.get(line)
        if key in kept and _labelled(line.split(" | ")):
            line = kept[key]
        lines.append((key, line))
    before = None  # each row only the document has goes after the row it followed there
    for key, line in kept.items():
        keys = [k for k, _ in lines]
        if key not in keys:
            at = keys.index(before) + 1 if before in keys else len(lines)
            lines.insert(at, (key, line))
        before = key
    return "\n".join(line for _, line in lines) + "\n"


def write(rep, path=DOC):
    """Rewrite the document from a report; the rows, to print. A partial run (--only) keeps
    the committed document's other rows (keep_committed)."""
    rep = dict(rep, power=power_model.report(rep)[0])
    table = rows(rep)
    path.parent.mkdir(exist_ok=True)
    text = markdown(rep, table)
    if "--only" in (rep.get("command") or "") and path.exists():
        text = keep_committed(text, path.read_text())
    path.write_text(text)
    return table


if __name__ == "__main__":
    import json

    write(json.loads(Path(sys.argv[1] if len(sys.argv) > 1 else REPORT).read_text()))
    print("written", DOC.relative_to(paths.ROOT))
