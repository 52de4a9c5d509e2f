"""tools/ stays a toolbox the next maintainer can read: every script is reached from a make
target or the README, no tool reaches into the tests, and the tools are smaller than the
firmware they serve. And the performance report is written from a bench report, judged
against the budgets.
"""

import json
import re

import bench_pico
import device_tables
import heap_budget
import perf_report
import pytest
import think_probe

from conftest import ROOT

SOURCE = (".py", ".mjs", ".js", ".html", ".css")


def sources(folder):
    return sorted(p for p in (ROOT / folder).rglob("*")
                  if p.suffix in SOURCE and "node_modules" not in p.parts and p.is_file())


def lines(folder):
    return sum(len(p.read_text().splitlines()) for p in sources(folder))


def names(path, text):
    """Whether `text` names the script at `path`: its file name, an import of its stem, or
    its stem quoted (a module a runner starts under MicroPython, as stress.py's jobs)."""
    stem = re.escape(path.stem)
    return path.name in text or re.search(r"^\s*(from|import)\s+%s\b|[\"']%s[\"']" % (
        stem, stem), text, re.M)


def unreached(roots, texts):
    """The files (path -> text) that no root text names, directly or through a named file."""
    seen, todo = set(), list(roots)
    while todo:
        text = todo.pop()
        for p in texts:
            if p not in seen and names(p, text):
                seen.add(p)
                todo.append(texts[p])
    return [p for p in texts if p not in seen]


def test_every_tools_script_is_reached_from_the_makefile_or_the_readme():
    """Roots: the Makefile, the README and the firmware (tools/hostlib stands in for what it
    imports under CPython); a script is reached when a reached file names it.
    Negative control: dropping perf_report.py's `import power_model` leaves
    tools/emu/power_model.py unreached (only its test names it); an unnamed file is caught."""
    roots = [(ROOT / "Makefile").read_text(), (ROOT / "README.md").read_text()]
    roots += [p.read_text() for p in sources("firmware")]
    tools = sources("tools")
    texts = {p: p.read_text() for p in tools}
    assert [p.relative_to(ROOT) for p in unreached(roots, texts)] == []
    orphan = ROOT / "tools" / "orphan_probe.py"
    assert unreached(roots, {**texts, orphan: ""})[-1:] == [orphan]


def test_no_tool_reaches_into_the_tests():
    """What the tools and the tests share lives in tools/ (tools/rigs: the players, probes
    and fake flash that run under MicroPython or in the browser): no tool imports a test
    module, puts host_tests on its path or runs a script from there. (Reading the golden
    frames as data, and `make stress` running a test file through pytest, are not that.)
    Negative control: the old `HOST_MP = HOST_TESTS / "mp"` of tools/paths.py is caught."""
    reach = re.compile(r"HOST_TESTS|HOST_MP|host_tests[\"']?\s*/\s*[\"']?(mp|web)\b|"
                       r"^\s*(from|import)\s+(conftest|test_\w+)\b", re.M)
    bad = [p.relative_to(ROOT) for p in sources("tools") if reach.search(p.read_text())]
    assert bad == []
    assert reach.search('HOST_MP = HOST_TESTS / "mp"')


def test_tools_are_smaller_than_the_firmware():
    """Lines of .py, .mjs, .js, .html and .css outside node_modules, tools/rigs aside: those
    are the players and rigs the tests drive too, counted with the tests they came from.
    Negative control: restoring the four unix-port bench scripts an earlier cut removed (`git
    show 460739d:tools/bench.py` and bench_mp.py, bench_ui.py, bench_ui_mp.py) puts tools/
    over."""
    host_side = lines("tools") - lines("tools/rigs")
    assert host_side < lines("firmware"), (host_side, lines("firmware"))


def bench_report(title_ms=580.0, yahtzee_kb=52, action_alloc=0, yatzy_kb=72, reads_alloc=0,
                 help_alloc=0, help_ms=15.5, end_ms=41.0, start_ms=6.3):
    """A bench_pico report as `make bench-pico` writes it, with no emulator run."""
    play = {"actions": {k: {"n": 3, "alloc_max": action_alloc, "ms_max": 30.0, "ms_median": 20.0,
                            "emulated_ms_max": 15.5, "i2c_median": 80}
                        for k in ("hold", "roll", "score", "help_back")},
            "help": {"opens": [[help_ms * 1000, help_alloc], [12500, 0]],
                     "import": [4384, 9300, 0], "kept": [544, 0]},
            "idle": {"play": {"sampled": 40, "alloc_per_pass": 0.0, "ms_max": 1.2,
                              "passes": 400, "ms_mean": 0.6}},
            "i2c_median_all": 81, "anim_ms_max": 14.3, "save": {"ms_max": 37.6},
            "sampling": "hard Timer"}
    play["actions"]["help"] = dict(play["actions"]["hold"], alloc_max=help_alloc,
                                   emulated_ms_max=help_ms)
    return {"version": "abc1234", "when": "2026-11-27 01:00 UTC", "fws": ["1.28.0"],
            "command": ".venv/bin/python tools/emu/bench_pico.py", "seconds": 3725,
            "heap_fw": "1.28.0", "at": {"uf2 heap 4 4": "0ld0ld0"},
            "uf2": {"reset": {"title_ms": 81.5}, "heap 0 4": yahtzee_kb, "heap 4 4": 72,
                    "heap 5 4": {"error": "does not complete with 96 KB"},
                    "heap 1 4": {"completes": yatzy_kb},
                    "heap 0 4 sharp": {"completes": yahtzee_kb},
                    "tables": {"yatzy.bin": {"decisions": 100, "median_ms": 30.1, "max_ms": 57.2,
                                             "rows": 46, "alloc_max": reads_alloc}},
                    "think 0 1 1": {"turns": 8, "table": True, "decisions": 19, "median_us": 53312,
                                    "max_us": 268871, "passes_max": 24, "shown_median_us": 310020,
                                    "shown_max_us": 590000, "first_us": 1071400,
                                    "first_passes": 100, "first_shown_us": 1180000},
                    "think 4 0 0": {"error": "no THINK_END"}},
            "1.28.0": {"reset": {"title_ms": title_ms}, "play": play, "repl free": 241536,
                       "heap 0 1": 104, "heap 4 4": 212, "cpu 3 4": {"max_ms": 41.0},
                       "game 0": {"passes": 7, "max_ms": 44.8, "results": True,
                                  "completed": True, "faults": [], "start_key_ms": 6.1,
                                  "start_passes": 17, "start_max_ms": 41.0, "started": True},
                       "game 1": {"passes": 8, "max_ms": end_ms, "results": True,
                                  "completed": True, "faults": [], "start_key_ms": start_ms,
                                  "start_passes": 18, "start_max_ms": 79.7,
                                  "started": True},
                       "game 2": {"passes": 0, "max_ms": None, "results": False,
                                  "completed": True, "faults": [], "start_key_ms": 20.4,
                                  "start_passes": 10, "start_max_ms": 37.4, "started": True},
                       "game 3": {"passes": 7, "max_ms": 44.0, "results": True,
                                  "completed": True, "faults": [], "start_key_ms": 7.2,
                                  "start_passes": 16, "start_max_ms": 50.3, "started": True},
                       "game 4": {"passes": 0, "max_ms": None, "results": False,
                                  "completed": True, "faults": [], "start_key_ms": 8.4,
                                  "start_passes": 0, "start_max_ms": None, "started": False}}}


def table_rows(text):
    return [r.split(" | ") for r in text.splitlines() if r.startswith("| ") and "---" not in r]


def test_the_report_is_one_table_of_figures_against_their_budgets(tmp_path):
    """Each row: budget, target, figure, verdict, layout, MicroPython, the command that
    measures it. A game checked at one heap only says so. Negative control: over-budget
    figures (a 53 KB Yahtzee, a Yatzy checked at 73 KB, 640 ms to the title, 16 B per action,
    a 50.2 ms pass at a game's end, a 20.1 ms Start key) must read FAIL, and a writer that
    stops judging fails this. A table's reads that allocate fail too."""
    doc = tmp_path / "PERFORMANCE.md"
    perf_report.write(bench_report(), doc)
    text = doc.read_text()
    assert text.count("| budget | target | measured | verdict | layout | MicroPython | command |") \
        == 1
    assert "PicoYacht abc1234" in text and "62 min 5 s" in text
    rows = {r[0][2:] + " @" + r[4]: r for r in table_rows(text)[1:]}
    assert all(len(r) == 7 and r[6].startswith("`make bench-pico PICOARGS=") for r in rows.values())
    yahtzee = rows["smallest free heap: Yahtzee, 4 Expert seats, coach on @frozen .uf2"]
    assert yahtzee[1:4] == ["at most 52 KB", "52 KB", "pass"]
    maxi = rows["smallest free heap: Maxi, 4 Expert seats, coach on @frozen .uf2"]
    assert maxi[1:4] == ["at most 72 KB", "72 KB (PicoYacht 0ld0ld0)", "pass"]
    assert "--only heap --layout uf2 --rules 4 --seats 4" in maxi[6]
    deluxe = rows["smallest free heap: Deluxe, 4 Expert seats, coach on @frozen .uf2"]
    assert deluxe[1] == "at most 72 KB" and deluxe[3] == "**FAIL**" and "96 KB" in deluxe[2]
    yatzy = rows["smallest free heap: Yatzy, 4 Expert seats, coach on @frozen .uf2"]
    assert yatzy[2:4] == ["completes at 72 KB (not bisected)", "pass"]
    sharp = rows["smallest free heap: Yahtzee + Sharp Dice, 4 Expert seats, coach on @frozen .uf2"]
    assert sharp[1:4] == ["at most 52 KB", "completes at 52 KB (not bisected)", "pass"]
    assert "--rules 0 --seats 4 --sharp" in sharp[6]
    spare = rows["smallest free heap: Maxi, 4 Expert seats, coach on @.mpy"]
    assert spare[1:4] == ["at least 24 KB spare", "23 KB spare (needs 212 of 235 KB)", "**FAIL**"]
    assert rows["smallest free heap: Yahtzee, 1 Expert seat, coach on @.mpy"][3] == "pass"
    assert rows["reset to the title frame @frozen .uf2"][1:4] == ["at most 150 ms", "81.5 ms",
                                                                  "pass"]
    assert rows["reset to the title frame @.mpy"][3] == "pass"
    assert rows["garbage per user action (max) @.mpy"][3] == "pass"
    assert rows["pass while a CPU plays (max): Expert, Maxi @.mpy"][3] == "pass"
    player_end = rows["pass of the game's end, after a player's last box (max) @.mpy"]
    assert player_end[1:4] == ["at most 50 ms", "44.8 ms (7 passes)", "pass"]
    assert "--only game" in player_end[6]
    for name, want in (("setup's Start, its key's pass before I2C: a player's game",
                        ["at most 20 ms + I2C", "6.1 ms", "pass"]),
                       ("pass of the game's start, after its key: a player's game (max)",
                        ["at most 50 ms", "41 ms (17 passes)", "pass"]),
                       ("pass of the game's start, after its key: an Expert CPU's game (max)",
                        ["at most 50 ms", "79.7 ms (18 passes)", "**FAIL**"]),
                       ("the title's Demo, its key's pass before I2C",
                        ["at most 20 ms + I2C", "20.4 ms", "**FAIL**"]),
                       ("pass of the demo's start, after its key (max)",
                        ["at most 50 ms", "37.4 ms (10 passes)", "pass"]),
                       ("game over's Play again, its key's pass before I2C",
                        ["at most 20 ms + I2C", "7.2 ms", "pass"]),
                       ("pass of Play again's start, after its key (max)",
                        ["at most 50 ms", "50.3 ms (16 passes)", "**FAIL**"]),
                       ("the title's Resume, its key's pass before I2C",
                        ["at most 20 ms + I2C", "no game", "**FAIL**"]),
                       ("pass of the resumed game's start, after its key (max)",
                        ["at most 50 ms", "no game", "**FAIL**"])):
        got = rows[name + " @.mpy"]
        assert got[1:4] == want and "--only game" in got[6], got
    reads = "Expert's table reads of a decision: yatzy.bin (median, longest, garbage) @frozen .uf2"
    assert rows[reads][1:4] == ["0 B", "30.1 ms, 57.2 ms, 0 B", "pass"]
    assert "--only tables --layout uf2" in rows[reads][6]
    assert any(k.startswith("power model, ") and "h, asleep" in r[2] for k, r in rows.items())
    think = rows["CPU Expert decision's whole thinking: Yahtzee, Free joker, Sharp Dice (median, "
                 "longest; the game's first, with the engine build) @frozen .uf2"]
    assert think[1:4] == ["reported", "median 53.3 ms, longest 268.9 ms (19 decisions, up to 24 "
                          "passes; move shown at a median 310 ms, longest 590 ms); first "
                          "1071.4 ms (100 passes); Expert from its table", ""]
    assert "--only think --layout uf2 --rules 0" in think[6]
    maxi = rows["CPU Expert decision's whole thinking: Maxi Yatzy (median, longest; the game's "
                "first, with the engine build) @frozen .uf2"]
    assert maxi[2] == "error: no THINK_END"

    over = tmp_path / "over.md"
    perf_report.write(bench_report(title_ms=640.0, yahtzee_kb=53, action_alloc=16, yatzy_kb=73,
                                   reads_alloc=16, end_ms=50.2, start_ms=20.1), over)
    rows = {r[0][2:] + " @" + r[4]: r for r in table_rows(over.read_text())[1:]}
    assert rows["smallest free heap: Yatzy, 4 Expert seats, coach on @frozen .uf2"][3] \
        == "**FAIL**"

    assert rows["reset to the title frame @.mpy"][2:4] == ["640 ms", "**FAIL**"]
    assert rows["smallest free heap: Yahtzee, 4 Expert seats, coach on @frozen .uf2"][3] \
        == "**FAIL**"
    assert rows["smallest free heap: Yahtzee + Sharp Dice, 4 Expert seats, coach on"
                " @frozen .uf2"][3] == "**FAIL**"
    assert rows["garbage per user action (max) @.mpy"][3] == "**FAIL**"
    assert rows[reads][3] == "**FAIL**"
    assert rows["pass of the game's end, after an Expert CPU's last box (max) @.mpy"][2:4] \
        == ["50.2 ms (8 passes)", "**FAIL**"]
    assert rows["setup's Start, its key's pass before I2C: an Expert CPU's game @.mpy"][2:4] \
        == ["20.1 ms", "**FAIL**"]


def test_the_box_help_is_judged_as_a_user_action_and_reported_opening_by_opening(tmp_path):
    """Opening the box help is a user action judged by the same 0 B and 20 ms budgets as the
    others (box_help itself loads ahead, in a quiet pass of the card), and its own row gives
    each opening, the module's import alone and the heap kept after each closing. Negative control:
    play_rows without that row (its `if h` made `if False`) fails here."""
    doc = tmp_path / "PERFORMANCE.md"
    perf_report.write(bench_report(help_alloc=4864, help_ms=35.4), doc)
    rows = {r[0][2:] + " @" + r[4]: r for r in table_rows(doc.read_text())[1:]}
    garbage = rows["garbage per user action (max) @.mpy"]
    assert "help 4864 B" in garbage[2] and "help_back 0 B" in garbage[2]
    assert garbage[3] == "**FAIL**"
    assert "help 35.4 ms" in rows["user action's pass before I2C (max) @.mpy"][2]
    assert rows["user action's pass before I2C (max) @.mpy"][3] == "**FAIL**"
    opening = rows["box help's openings (first, repeat): pass before I2C and allocation; "
                   "box_help's import alone; heap kept after each closing @.mpy"]
    assert opening[1:4] == ["reported", "35.4 ms with 4864 B, 12.5 ms with 0 B; import 4384 B in "
                            "9.3 ms, 0 B left after forget; kept 544 B, 0 B", ""]
    assert "--only play" in opening[6]

    perf_report.write(bench_report(), doc)
    rows = {r[0][2:] + " @" + r[4]: r for r in table_rows(doc.read_text())[1:]}
    assert rows["garbage per user action (max) @.mpy"][3] == "pass"


def test_the_design_notes_state_every_budget_the_report_judges_by(tmp_path):
    """Every target the report writes (a heap bound, a time, a byte count) is a budget of
    docs/DESIGN.md's, so the notes and the judge cannot drift apart. Negative control: a
    1-seat .mpy bound of 113 KB in heap_budget.py, or "at most 150 ms" dropped from the notes,
    fails here."""
    doc = tmp_path / "PERFORMANCE.md"
    perf_report.write(bench_report(), doc)
    targets = {r[1] for r in table_rows(doc.read_text())[1:]}
    design = (ROOT / "docs" / "DESIGN.md").read_text()
    figures = {m for t in targets for m in re.findall(r"\d+ (?:KB|ms|B)\b", t)}
    assert {"52 KB", "72 KB", "112 KB", "24 KB", "150 ms", "600 ms", "0 B"} <= figures
    assert [f for f in sorted(figures) if f not in design] == []


def test_the_committed_report_is_the_generated_one():
    """docs/PERFORMANCE.md is the writer's output, not a lab notebook: its header, one table
    in the writer's columns, and a command on every row."""
    text = (ROOT / "docs" / "PERFORMANCE.md").read_text()
    assert "Generated by `make bench-pico`" in text
    assert re.search(r"^- Firmware: PicoYacht \S+", text, re.M)
    rows = table_rows(text)
    assert rows[0] == ["| budget", "target", "measured", "verdict", "layout", "MicroPython",
                       "command |"]
    assert all(len(r) == 7 and "make bench-pico" in r[6] for r in rows[1:])


@pytest.mark.parametrize("text,ids", [("all", [0, 1, 2, 3, 4, 5]), ("maxi", [4]),
                                      ("0,casino 5", [0, 2])])
def test_rule_sets_are_chosen_by_id_or_name(text, ids):
    assert heap_budget.rule_ids(text) == ids


@pytest.mark.parametrize("rid,ok", [(0, True), (4, False)])
def test_a_heap_row_at_its_budget_is_one_game_at_that_heap(monkeypatch, rid, ok):
    """`--at-budget` plays one game per frozen row at the row's own budget (Yahtzee's 52 KB,
    the others' 72) and records it as a check, not a bisected figure; a failure keeps its
    reason. Control: asking at a fixed 72 KB fails the Yahtzee case."""
    import argparse

    import bench_pico

    played = []

    def completes(layout, rid, free, seats, sharp=False):
        played.append(free // 1024)
        return ok, None if ok else "MemoryError in the build"

    monkeypatch.setattr(heap_budget, "completes", completes)
    a = argparse.Namespace(at_budget=True, window=None, jobs=1, sharp=False)
    out = bench_pico.smallest("uf2", rid, 4, bench_pico.UF2_WINDOW, a)
    budget = 52 if rid == 0 else 72
    assert played == [budget]
    if ok:
        assert out == {"completes": budget}
        target, _, passed = heap_budget.verdict("uf2", rid, 4, out["completes"])
        assert passed and target == "at most %d KB" % budget
    else:
        assert "does not complete with 72 KB" in out["error"] and "MemoryError" in out["error"]


@pytest.mark.parametrize("seats,kb", [(1, 112), (4, 235 - 24)])
def test_an_mpy_heap_row_at_its_budget_is_one_game_at_that_heap(monkeypatch, seats, kb):
    """On the .mpy layout `--at-budget` plays the 1-seat game at its bound and a 4-seat game
    with the Pico's free heap (the window's top) less the spare the budget asks for, and the
    verdict reads the spare. Control: the window's top passed through unchanged plays at
    235."""
    import argparse

    import bench_pico

    played = []

    def completes(layout, rid, free, seats, sharp=False):
        played.append((layout, free // 1024))
        return True, None

    monkeypatch.setattr(heap_budget, "completes", completes)
    a = argparse.Namespace(at_budget=True, window=None, jobs=1, sharp=False)
    out = bench_pico.smallest("mpy", 0, seats, (bench_pico.MPY_LO, 235, bench_pico.MPY_STEP), a)
    assert played == [("mpy", kb)] and out == {"completes": kb}
    assert heap_budget.verdict("mpy", 0, seats, kb, 235 * 1024)[2]


def test_every_game_and_option_has_its_thinking_row():
    """Yahtzee under each joker rule with and without Sharp Dice, Yatzy with and without,
    and the rule sets with neither, each named as a player would. Negative control: Sharp
    Dice offered to every rule set (`(False, True) if True`) gives 16."""
    combos = device_tables.combinations()
    assert len(combos) == 12 and len({c[1:] for c in combos}) == 12
    assert {c[1:] for c in combos if c[1] == 0} == {(0, j, s) for j in (0, 1, 2)
                                                    for s in (False, True)}
    assert [c[0] for c in combos if c[1] != 0] == ["Yatzy", "Yatzy, Sharp Dice", "Casino 5",
                                                   "Casino 6", "Maxi Yatzy", "Deluxe"]


# (seat, turn, rolls used, thinking us, passes, until the move us), as think_probe notes them
DECISIONS = [(0, 0, 0, 355, 1, 569108), (0, 0, 1, 1036616, 90, 1047986),
             (0, 0, 2, 31958, 3, 313520), (0, 0, 3, 5769, 1, 299511),
             (1, 1, 0, 555, 1, 589454), (1, 1, 1, 69022, 7, 311626), (1, 1, 2, 29185, 3, 310400)]


def test_the_thinking_figures_leave_the_engine_build_and_the_first_roll_apart(monkeypatch):
    """The decisions after a roll count; the game's first of those (it builds the engine) is
    reported apart; bench_pico reads them off the console, and a run that faults or ends
    without them is an error. Negative control: counting the decisions before a roll
    (`d[2] >= 0`) gives 6 decisions and a 16.4 ms median; the first kept among the others,
    a 1036.6 ms longest."""
    got = think_probe.figures(DECISIONS)
    assert got == {"decisions": 4, "median_us": 30571, "max_us": 69022, "passes_max": 7,
                   "shown_median_us": 311013, "shown_max_us": 313520, "first_us": 1036616,
                   "first_passes": 90, "first_shown_us": 1047986}
    assert think_probe.figures(DECISIONS[:2]) == {}
    console = "THINK 1 1 2 29185 3 310400\r\nTHINK_END %s\r\n" % json.dumps(
        dict(got, turns=2, table=True))
    runs = {}
    monkeypatch.setattr(bench_pico.emulator, "run_frozen", lambda *a, **k: {"out": runs["out"]})
    for out, ok in ((console, True), ('THINK_END {}\r\n', False),
                    (console.replace("THINK 1", '{"ev":"fault"}\r\nTHINK 1'), False),
                    (console.replace("THINK_END", "Traceback"), False)):
        runs["out"] = out
        figures = bench_pico.think("fw.uf2", 0, 1, 1, 2)
        assert (figures == dict(got, turns=2, table=True)) is ok and ("error" in figures) is not ok


def test_the_play_run_counts_the_box_help_with_the_user_actions(monkeypatch):
    """bench_pico reads the probe's console: the box help's passes (the held Menu's press
    and long press, and OK back to the card) are user actions beside a hold, in the garbage,
    time and I2C figures; its openings, its import alone and what each closing kept are kept
    apart for their own row. Negative control: "help" dropped from perf_report.ACTIONS
    leaves the 4864 B opening out of the actions."""
    out = "\n".join(("S sampling hard Timer", "R hold play 9000 0 60 4", "R help card 5000 0 0 0",
                     "R help box_help 35400 4864 1021 4", "R help_back card 9500 0 1024 4",
                     "R nav title 90000 8704 1030 4", "S help_kept 544 0",
                     "S help_import 4384 9300 0", "S end"))
    monkeypatch.setattr(bench_pico.emulator, "probe",
                        lambda *a, **k: bench_pico.emulator.Probe({"out": out}))
    res = bench_pico.play("1.28.0", 3)
    assert sorted(res["actions"]) == ["help", "help_back", "hold"]
    opening = res["actions"]["help"]
    assert (opening["n"], opening["alloc_max"], opening["emulated_ms_max"]) == (2, 4864, 35.4)
    assert res["actions"]["help_back"]["i2c_median"] == 1028
    assert res["i2c_median_all"] == (64 + 1025) / 2
    assert res["help"] == {"opens": [(35400, 4864)], "kept": [544, 0], "import": [4384, 9300, 0]}


def test_a_second_start_is_measured_apart_from_the_first(monkeypatch):
    """The games that start twice (Play again, Resume) are judged on their second start's
    passes: the probe's start records come in runs, one a start. A run that started once
    only has no figure. Negative control: Play again's 2 starts in GAMES made 1 finds two
    runs where it expects one, and gives no figure."""
    first = ("R start setup 6000 0 0 0", "R start other 41000 0 0 0", "R start play 30000 0 0 0")
    between = ("R roll play 9000 0 60 4", "R end over 44000 0 0 0", "R nav menu 5000 0 0 0")
    second = ("R start menu 7200 0 0 0", "R start other 45500 0 0 0",
              "R start play 33000 0 0 0")
    runs = {}
    monkeypatch.setattr(bench_pico.emulator, "probe", lambda *a, **k: bench_pico.emulator.Probe(
        {"out": "\n".join(runs["out"] + ("S end",))}))
    runs["out"] = first + between + second
    again = bench_pico.game("1.28.0", 3)
    assert (again["start_key_ms"], again["start_passes"], again["start_max_ms"]) == (7.2, 2, 45.5)
    assert again["started"] and again["results"] and again["completed"]
    runs["out"] = first + between
    assert bench_pico.game("1.28.0", 3)["started"] is False
    assert bench_pico.game("1.28.0", 0)["start_key_ms"] == 6.0


def test_a_partial_run_keeps_the_committed_rows_it_did_not_measure(tmp_path):
    """bench-pico --only rewrites the document with the committed one's rows where it
    measured nothing newer: a row from an older report keeps the document's figure, labelled
    with the document's version; a row the run's report lacks stays after the row it
    followed; the run's own rows replace the document's. A full run writes only its own.
    Negative control: keep_committed returning the run's document unchanged loses row C and
    keeps A's stale 9 ms."""
    def doc(version, command, rows):
        rep = {"version": version, "when": "2026-11-29 09:00 UTC", "command": command}
        return perf_report.markdown(rep, [perf_report.Row(name, "at most 20 ms", figure, True,
                                                          "mpy", "1.28.0", "make x")
                                          for name, figure in rows])

    old = doc("0ld0ld0", "bench_pico.py --only play", [
        ("A", "5 ms"), ("B", "6 ms (PicoYacht 01d01d0)"), ("C", "7 ms"), ("E", "8 ms")])
    new = doc("n3wn3w0", "bench_pico.py --only game", [
        ("A", "9 ms (PicoYacht 57a1e00)"), ("B", "4 ms"), ("D", "3 ms"), ("E", "2 ms")])
    merged = perf_report.keep_committed(new, old)
    figures = [(r[0][2:], r[2]) for r in table_rows(merged)[1:]]
    assert figures == [("A", "5 ms (PicoYacht 0ld0ld0)"), ("B", "4 ms"), ("C", "7 ms (PicoYacht "
                       "0ld0ld0)"), ("D", "3 ms"), ("E", "2 ms")]
    assert "PicoYacht n3wn3w0" in merged and "--only game" in merged

    path = tmp_path / "PERFORMANCE.md"
    path.write_text(old)
    rep = {"version": "n3wn3w0", "command": "bench_pico.py --only heap"}
    perf_report.write(rep, path)
    assert "| C | at most 20 ms | 7 ms (PicoYacht 0ld0ld0) |" in path.read_text()
    path.write_text(old)
    perf_report.write(dict(rep, command="bench_pico.py"), path)
    assert "| C |" not in path.read_text()


def test_the_rows_a_run_did_not_measure_name_the_version_that_did(tmp_path):
    """The Ctrl-C row and the power model's rows (worked out from the play run) say which
    version measured them when it is not the report's, as every other row does: a partial
    run's merge (keep_committed) takes an unlabelled row for one it measured itself.
    Negative control: either row built without perf_report.mark reads unlabelled."""
    rep = bench_report()
    rep["1.28.0"]["ctrlc title"] = {"tries": 1}
    rep["at"].update({"1.28.0 play": "0ld0ld0", "1.28.0 ctrlc title": "0ld0ld0"})
    doc = tmp_path / "PERFORMANCE.md"
    perf_report.write(rep, doc)
    rows = {r[0][2:]: r for r in table_rows(doc.read_text())[1:]}
    power = [r for k, r in rows.items() if k.startswith("power model, ")]
    assert power and all(r[2].endswith("days (PicoYacht 0ld0ld0)") for r in power)
    assert rows["Ctrl-C reaches the REPL (tries, per screen)"][2].endswith("(PicoYacht 0ld0ld0)")
