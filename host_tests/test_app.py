"""The app through its buttons, under the MicroPython unix port.

A complete 2-player game is played press by press on the headless board (both the
11-button and the 4-button builds), and replayed on a bare engine; then the behaviours
the issue asks for: zero allocation in the steady state, saves and resume, corrupt saves,
a full flash, idle dim/blank, the roll animation, button mashing, a dead display,
diagnostics and the all-CPU demo.
"""

import subprocess

import pytest

from conftest import HOST_TESTS, ROOT, compiled_firmware, micropython_path

# The issue asks for 64k. On the 64-bit unix port every object and bytecode table is about
# twice its Pico size, and the rules core alone needs ~45k there (make bench-core); the
# whole UI game currently completes from ~135k (make bench prints the exact figure).
UI_HEAP = "160k"


def _compiled():
    """The package plus the headless board and test scripts, all as .mpy."""
    from mpy_build import mpy_cross

    out = compiled_firmware()
    for src in (ROOT / "tools" / "board_sim.py", ROOT / "tools" / "board_term.py",
                HOST_TESTS / "mp" / "ui_play.py",
                HOST_TESTS / "mp" / "ui_checks.py", HOST_TESTS / "fakefs.py",
                HOST_TESTS / "mp" / "scripted.py"):
        dst = out / (src.stem + ".mpy")
        if not dst.exists():
            subprocess.run([mpy_cross(), "-o", str(dst), str(src)], check=True)
    return out


def run(module, args, heap):
    import os

    out = _compiled()
    env = dict(os.environ, MICROPYPATH=os.pathsep.join([str(out), ".frozen"]))
    code = "import %s; %s.main(%r)" % (module, module, list(args))
    return subprocess.run([micropython_path(), "-X", "heapsize=" + heap, "-c", code],
                          capture_output=True, text=True, env=env, timeout=300)


@pytest.mark.parametrize("args,heap", [
    (("buttons=11", "players=2"), UI_HEAP),
    (("buttons=4", "players=2"), UI_HEAP),
    (("buttons=4", "players=2", "rules=4"), UI_HEAP),
    (("buttons=11", "players=3", "rules=3", "cpus=1"), "256k"),  # + strategy's engine
])
def test_whole_game_through_the_buttons(args, heap):
    r = run("ui_play", args, heap)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-3000:]
    assert r.stdout.startswith("OK "), r.stdout


@pytest.mark.parametrize("check", ["alloc", "resume", "corrupt", "full_flash", "idle",
                                   "anim", "display_dead", "diag", "demo"])
def test_behaviour(check):
    r = run("ui_checks", [check], "256k")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-3000:]
    assert "PASS " + check in r.stdout


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_button_mashing_never_faults(seed):
    r = run("ui_checks", ["mash", str(seed)], "256k")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-3000:]


def test_zero_bytes_in_the_steady_state():
    r = run("ui_checks", ["alloc"], "256k")
    assert "idle=0 play_moves=0 card_moves=0 flips=0 presses=0" in r.stdout, r.stdout


def test_firmware_parses_for_old_micropython():
    """mpy-cross in v1.23 compatibility mode accepts every firmware file (no newer syntax)."""
    from mpy_build import mpy_cross

    for src in sorted((ROOT / "firmware").rglob("*.py")):
        r = subprocess.run([mpy_cross(), "-o", "/dev/null", str(src)], capture_output=True)
        assert r.returncode == 0, (src, r.stderr)
