"""The same core on the real MicroPython unix port, with a 64 KB heap: complete games of
every rule set, and scoring vectors compared byte for byte with CPython's."""

import subprocess
import sys

from conftest import FIRMWARE, HOST_TESTS, run_micropython

SCRIPTS = HOST_TESTS / "mp"


def run_cpython(script, *args):
    env = {"PYTHONPATH": "%s:%s" % (FIRMWARE, SCRIPTS), "PATH": ""}
    out = subprocess.run([sys.executable, str(script), *args], capture_output=True,
                         text=True, env=env, timeout=600)
    assert out.returncode == 0, out.stderr
    return out.stdout


def lines_without_comments(text):
    return [ln for ln in text.splitlines() if not ln.startswith("#")]


def test_scoring_vectors_identical_on_both_interpreters():
    # The vectors themselves are ~10 KB per rule set; the 64 KB game test is below.
    mp = run_micropython(SCRIPTS / "score_vectors.py", heap="256k")
    assert mp.returncode == 0, mp.stderr
    cp = run_cpython(SCRIPTS / "score_vectors.py")
    mp_lines, cp_lines = lines_without_comments(mp.stdout), lines_without_comments(cp)
    assert len(cp_lines) == 6 + 6 + 1
    for a, b in zip(mp_lines, cp_lines, strict=True):
        assert a == b, a[:40]


def test_complete_games_of_every_rule_set_under_64k_heap():
    mp = run_micropython(SCRIPTS / "play_games.py", heap="64k", args=["4"])
    assert mp.returncode == 0, mp.stderr
    cp = run_cpython(SCRIPTS / "play_games.py", "4")
    mp_lines, cp_lines = lines_without_comments(mp.stdout), lines_without_comments(cp)
    assert len(cp_lines) == 12
    assert mp_lines == cp_lines
