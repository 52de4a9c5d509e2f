"""The firmware on the emulated Pico: MicroPython v1.28.0's real rp2 build on an emulated
RP2040 (tools/emu/emulator.py), `make flash`'s layout on its flash, a short game played through
the buttons by the device-side player (tools/rigs/pico_probe.py).

Checked: the boot and setup frames against the goldens; every frame after a press (the
roll animation aside) against the same presses replayed on the headless board with the
device's game seed, so the dice match; the scored boxes against that replay; the console
free of exceptions and faults; the sampling mode announced. Needs node (skipped without
it); installs the pinned emulator package itself.
"""

import pytest

from conftest import HOST_TESTS, emulated_pico

pico = pytest.importorskip("emulator")

GOLDEN = HOST_TESTS / "golden"


@pytest.fixture(scope="module")
def run():
    emulated_pico(pico)
    return pico.probe({"players": 1, "turns": 1, "shots": 1, "record": 0}, timeout=600)


def replay(presses, seed):
    """The device's presses on the headless board, the device's seed for the dice. Like the
    device's shots, each frame is the one up at the end of its press's pass (setup's Start
    answers there, and its game comes in over later passes)."""
    from board_sim import FULL, Driver, HeadlessBoard

    from picoyacht import app as A
    from picoyacht.debounce import PRESS

    b = HeadlessBoard(FULL)
    r = A.Runner(b)
    app = r.app
    app.turn._new_seed = lambda: seed
    d = Driver(b, r)
    d.run_ms(30)
    frames = [(d.frame(), False)]
    scored = []
    shot = []
    event, step = app.event, r.step

    def pressed(ev, now):
        event(ev, now)
        if ev >> 4 == PRESS and not shot:
            shot.append(None)  # the frame comes at the end of this pass

    def stepped():
        step()
        if shot and shot[0] is None:
            shot[0] = (d.frame(), getattr(app.screen, "anim", 0) > 0)

    app.event, r.step = pressed, stepped
    for btn in presses:
        shot.clear()
        d.press(btn, 40, 60)
        frames.append(shot[0])
        scored += [ln for ln in b.lines[-1:] if '"ev":"score"' in ln and ln not in scored]
    return frames, scored


def test_game_runs_clean_on_the_pico(run):
    assert run.completed, run.error or run.raw.get("error")
    assert run.faults() == []
    assert "PicoYacht: buttons sampled every 2 ms by a hard Timer" in run.console
    assert run.summary["game"][2:4] == ["turn", "1"]  # one box scored


def test_boot_and_setup_frames_match_the_goldens(run):
    shots = [bytes.fromhex(s["hex"]) for s in run.raw["shots"]]
    assert shots[0] == bytes.fromhex((GOLDEN / "title.hex").read_text().strip())
    assert shots[1] == bytes.fromhex((GOLDEN / "setup.hex").read_text().strip())


def test_every_frame_matches_the_headless_replay(run):
    presses = [int(c, 16) for c in run.summary["presses"][0]]
    seed = int(run.summary["game"][1])
    shots = [bytes.fromhex(s["hex"]) for s in run.raw["shots"]]
    assert len(shots) == len(presses) + 1
    frames, scored = replay(presses, seed)
    compared = 0
    for k, (want, animating) in enumerate(frames):
        if animating:
            continue  # the roll animation's faces come from the clock
        assert shots[k] == want, "frame after press %d (button %d) differs" % (
            k, presses[k - 1] if k else -1)
        compared += 1
    assert compared >= len(frames) // 2
    device_scored = [ln for ln in run.console if '"ev":"score"' in ln]
    assert device_scored and device_scored == scored


LISTING = r"""
import os, vfs
os.mkdir("/lib/picoyacht/sub")  # a subpackage: the listing must say it is a folder
with open("/lib/picoyacht/sub/__init__.py", "w") as f:
    f.write("FOUND = 1\n")
import picoyacht
from picoyacht.board_pico import PicoBoard
pkg = picoyacht.__path__
print("LISTED", pkg in [at for fs, at in vfs.mount()])
from picoyacht import rules, turn
print("IMPORTED", rules.COUNT > 0, turn.Turn is not None)
from picoyacht import sub
print("SUBPACKAGE", sub.FOUND)
try:
    from picoyacht import no_such_module
except ImportError:
    print("MISSING refused")
print("STAT", os.stat(pkg + "/rules.mpy")[6])
class Unbuilt(PicoBoard):  # restore() alone: no pins, Timer or watchdog taken
    def __init__(self):
        self.piezo = self.timer = self.wdt = None
Unbuilt().restore()
print("RESTORED", pkg in [at for fs, at in vfs.mount()], os.stat(pkg + "/rules.mpy")[6])
with open(pkg + "/scratch.txt", "w") as f:
    f.write("x")
os.remove(pkg + "/scratch.txt")
print("WRITABLE")
"""


def test_the_package_folder_is_listed_at_boot_and_given_back_at_exit():
    """make flash's layout: importing the package mounts its folder's listing, which finds
    every module and a subpackage, and refuses a missing one; PicoBoard.restore() (main.py's
    exit) unmounts it, so the REPL sees littlefs itself: real sizes, and files it may write
    and remove."""
    emulated_pico(pico)
    out, err = pico.run_code(LISTING)
    assert "LISTED True" in out, out + err
    assert "IMPORTED True True" in out and "MISSING refused" in out, out + err
    assert "SUBPACKAGE 1" in out, out + err
    listed_size = int(out.split("STAT ")[1].split()[0])
    restored = out.split("RESTORED ")[1].split()
    assert restored[0] == "False" and int(restored[1]) > 0, out + err
    assert listed_size == 0  # the listing's stat: the mode alone, which import reads
    assert "WRITABLE" in out, out + err
