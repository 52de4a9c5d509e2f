"""Heap budgets of the core on the real MicroPython unix port: complete games of every rule
set in a 66 KB heap (CORE_HEAP), line for line as on CPython, and CPU seats of every level.

The workloads are small scripts (mp/play_games.py, mp/strategy_games.py) because the heap
they prove is the game's: a twin test module loaded beside them would spend it. The other
checks of each concern on MicroPython live in its own test_X.py (host_tests/mp/README.md).
"""

import subprocess
import sys

import pytest

from picoyacht import rules

from conftest import FIRMWARE, HOST_TESTS, RIGS, run_micropython

SCRIPTS = HOST_TESTS / "mp"
HOSTLIB = FIRMWARE.parent / "tools" / "hostlib"  # micropython.const for CPython


def run_cpython(script, *args):
    env = {"PYTHONPATH": ":".join(map(str, (FIRMWARE, SCRIPTS, RIGS, HOSTLIB))), "PATH": ""}
    out = subprocess.run([sys.executable, str(script), *args], capture_output=True,
                         text=True, env=env, timeout=600)
    assert out.returncode == 0, out.stderr
    return out.stdout


def lines_without_comments(text):
    return [ln for ln in text.splitlines() if not ln.startswith("#")]


# The rules core's heap: the smallest heap that completes moves a little with the
# clone's folder (fragmentation: the import paths' lengths move it). Checked at 66k, just
# clear of that band.
CORE_HEAP = "66k"


def test_complete_games_of_every_rule_set_under_66k_heap():
    mp = run_micropython(SCRIPTS / "play_games.py", heap=CORE_HEAP, args=["4"])
    assert mp.returncode == 0, mp.stderr
    cp = run_cpython(SCRIPTS / "play_games.py", "4")
    mp_lines, cp_lines = lines_without_comments(mp.stdout), lines_without_comments(cp)
    assert len(cp_lines) == 12
    assert mp_lines == cp_lines


@pytest.mark.parametrize("kinds,heap", [("11", "96k"), ("32", "128k")])
def test_micropython_plays_every_rule_set_with_cpu_seats(kinds, heap):
    """Easy needs no engine, but imports the strategy module, whose stepwise search is
    loaded as .mpy (this 64-bit port keeps loaded code in the heap): checked at 96k. The
    search engine's work arrays come on top, in a few blocks: Normal and Expert are
    checked at 128k, less than a Pico has free. The rules core alone plays in 66k (the
    test above)."""
    tables = FIRMWARE.parent / "tables"
    args = (kinds, str(tables)) if (tables / "yahtzee.bin").exists() else (kinds,)
    r = run_micropython(SCRIPTS / "strategy_games.py", heap=heap, args=args)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.count("over") == rules.COUNT
