"""The README's commands as a newcomer types them, with no environment beyond PATH.

`make sim` and `make sim SIMARGS="--buttons 4"`, taken from the README's own text, run in a
real terminal and must draw the title screen (a newcomer without Expert's tables is offered
to build them first, and presses Enter, the default "no"): the panel is read back from the
half-block characters and compared with the golden title frame, so a crash, a traceback or
a wrong screen all fail here. Every other make command the README gives must at least be one make
accepts (`make -n`, which runs nothing)."""

import fcntl
import os
import pty
import re
import select
import shlex
import struct
import subprocess
import termios
import time

import pytest
from test_docs import make_commands

from conftest import HOST_TESTS, ROOT

README = (ROOT / "README.md").read_text()
SIM_COMMANDS = [c for c in make_commands(README) if c.split()[0] == "sim"]

HALVES = {" ": (0, 0), "\u2580": (1, 0), "\u2584": (0, 1), "\u2588": (1, 1)}
ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def panel_frames(text):
    """Every 128x64 frame drawn in half-blocks in the terminal output, as framebuffers."""
    frames = []
    for chunk in text.split("\x1b[H")[1:]:
        lines = ESCAPE.sub("", chunk).split("\r\n")
        rows = [line for line in lines[:32] if len(line) == 128 and set(line) <= set(HALVES)]
        if len(rows) < 32:
            continue
        fb = bytearray(1024)
        for row, line in enumerate(rows):
            for x, ch in enumerate(line):
                top, bottom = HALVES[ch]
                for y, on in ((2 * row, top), (2 * row + 1, bottom)):
                    if on:
                        fb[(y >> 3) * 128 + x] |= 1 << (y & 7)
        frames.append(bytes(fb))
    return frames


STEP_GAP_S = 0.4  # from one step's frame to typing the next: longer than a key's tap
OFFER = "[y/N]"  # the end of sim.py's offer to build Expert's tables


def run_in_terminal(argv, seconds=60, cols=140, rows=50, cwd=ROOT, answer=b"\r", steps=(),
                    done=None):
    """argv in a fresh pty of cols x rows with only PATH set; returns (output, exit code)
    after waiting for the title, then pressing q. The offer to build the tables, if made,
    gets `answer` (None: no answer). `steps`, once the title is up: (bytes typed, the frame
    they must bring) in turn, each typed a while after the last one's frame (so its key is
    up again); the index of each step whose frame came is appended to `done`."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    env = {"PATH": os.environ["PATH"]}
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=slave, stdout=slave, stderr=slave,
                            start_new_session=True)
    os.close(slave)
    out = bytearray()
    title = bytes.fromhex((HOST_TESTS / "golden" / "title.hex").read_text())
    deadline = time.monotonic() + seconds
    quit_sent = answered = False
    typed_at = None  # where the output stood when the step under way was typed
    ready_at = time.monotonic()
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:
                break
            if not data:
                break
            out += data
        if not answered and answer is not None and OFFER.encode() in out:
            os.write(master, answer)
            answered = True
        if not quit_sent and title in panel_frames(out.decode("utf-8", "replace")):
            step = len(done) if done is not None else 0
            if step == len(steps):
                os.write(master, b"q")
                quit_sent = True
            elif typed_at is None and time.monotonic() > ready_at:
                os.write(master, steps[step][0])
                typed_at = len(out)
            elif typed_at is not None and steps[step][1] in panel_frames(
                    out[typed_at:].decode("utf-8", "replace")):
                done.append(step)
                typed_at = None
                ready_at = time.monotonic() + STEP_GAP_S
        if proc.poll() is not None and not ready:
            break
    if proc.poll() is None:
        proc.kill()
    code = proc.wait()
    os.close(master)
    return out.decode("utf-8", "replace"), code


def test_the_readme_gives_both_simulator_commands():
    assert SIM_COMMANDS == ["sim", 'sim SIMARGS="--buttons 4"']


@pytest.fixture
def keep_the_offer_state():
    """A "no" the test gives is not left behind for the developer's own `make sim`."""
    declined = ROOT / "build" / "sim-tables-declined"
    before = declined.exists()
    yield
    if not before and declined.exists():
        declined.unlink()


@pytest.mark.parametrize("command", SIM_COMMANDS)
def test_make_sim_draws_the_title_as_the_readme_starts_it(command, keep_the_offer_state):
    text, code = run_in_terminal(["make", *shlex.split(command)])
    assert "Traceback" not in text, text[-2000:]
    title = bytes.fromhex((HOST_TESTS / "golden" / "title.hex").read_text())
    assert title in panel_frames(text), text[-2000:]
    assert code == 0, text[-2000:]


@pytest.mark.parametrize("command", make_commands(README))
def test_every_make_command_in_the_readme_is_accepted(command):
    r = subprocess.run(["make", "-n", *shlex.split(command)], cwd=ROOT, capture_output=True,
                       text=True, env={"PATH": os.environ["PATH"]}, timeout=60)
    assert r.returncode == 0, r.stderr


def test_make_rejects_a_command_it_does_not_know():
    """The negative control of the dry run."""
    r = subprocess.run(["make", "-n", "no-such-target"], cwd=ROOT, capture_output=True,
                       env={"PATH": os.environ["PATH"]}, timeout=60)
    assert r.returncode != 0


def test_panel_reader_rejects_a_frame_that_is_not_the_title():
    """The negative control of the reader: a frame with one pixel changed is not the title."""
    title = bytearray.fromhex((HOST_TESTS / "golden" / "title.hex").read_text())
    lines = []
    for row in range(32):
        line = ""
        for x in range(128):
            top = title[(2 * row >> 3) * 128 + x] >> (2 * row & 7) & 1
            bottom = title[((2 * row + 1) >> 3) * 128 + x] >> ((2 * row + 1) & 7) & 1
            line += {(0, 0): " ", (1, 0): "\u2580", (0, 1): "\u2584", (1, 1): "\u2588"}[
                (top, bottom)]
        lines.append(line)
    drawn = "\x1b[H" + "\r\n".join(lines) + "\r\n"
    assert panel_frames(drawn) == [bytes(title)]
    title[0] ^= 1
    assert bytes(title) not in panel_frames(drawn)


def fresh_clone(tmp_path):
    """The simulator's sources without tables/ or build/: what a newcomer has."""
    import shutil

    clone = tmp_path / "clone"
    for d in ("firmware", "tools"):
        shutil.copytree(ROOT / d, clone / d, ignore=shutil.ignore_patterns("__pycache__"))
    return clone


def test_a_fresh_clone_goes_straight_to_the_title(tmp_path):
    """Without tables the first run asks nothing and builds nothing up front: the title is
    drawn at once (a game builds its own table when it first needs one). Fails if an
    offer or a build stands before the title (control: the old offer of sim.py)."""
    import sys

    clone = fresh_clone(tmp_path)
    sim = [sys.executable, str(clone / "tools" / "sim" / "sim.py")]
    text, code = run_in_terminal(sim, cwd=clone, answer=None)
    title = bytes.fromhex((HOST_TESTS / "golden" / "title.hex").read_text())
    assert OFFER not in text and "Expert's table" not in text, text[-2000:]
    assert title in panel_frames(text) and code == 0, text[-2000:]
    assert not (clone / "tables").exists()
