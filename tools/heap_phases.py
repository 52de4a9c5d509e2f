"""Live heap of the app at three points of a game, on the emulated Pico (real rp2 firmware,
the make-flash .mpy layout): at the title, mid-game and after game over.

Why: the screens load lazily and leave the heap when they cannot be reached (issue 12), so
what is resident depends on the phase. A 2-player game is played by a blind key script
(the same keys work on any version whose screens are unchanged), on the headless board of
tools/board_sim.py and host_tests/fakefs.py, run on the device; each point is
gc.mem_alloc() after gc.collect(), so it includes that board (a few KB, counted
alike), without a piezo, as config.py ships.

  python tools/heap_phases.py              this tree
  python tools/heap_phases.py --rev REV    the firmware (and its board_sim, fakefs) of REV,
                                           measured by this tree's tooling
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Runs on the device: the app on a HeadlessBoard, a blind key script, three live-heap points.
DEVICE = '''
import gc
from board_sim import FULL, Driver, HeadlessBoard
from fakefs import FakeFs
from picoyacht import app as A
from picoyacht.store import Store

class NoLog:
    def append(self, _x):
        pass

def live():
    gc.collect()
    return gc.mem_alloc()

fs = FakeFs()
fs.log = NoLog()  # the fake keeps every operation otherwise
b = HeadlessBoard(FULL, Store(fs, "/saves"), b"\\x2a\\x00\\x00\\x00", 0)
b.tone = None  # no piezo, as config.py ships
r = A.Runner(b)
d = Driver(b, r)
d.run_ms(200)
print("LIVE title", live())
keys = {"o": 9, "u": 7, "r": 6}
seq = "ouo" + "rooo" * 30  # New game, Start; then Roll, card, score, next
for i in range(len(seq)):
    d.press(keys[seq[i]])
    d.run_ms(100)
    if i == 3 + 4 * 13:
        print("LIVE mid", live())
print("LIVE end", live())
g = r.app.turn.game
print("DONE", g is not None and g.over)
'''


def measure():
    sys.path.insert(0, str(ROOT / "tools"))
    import pico

    script = Path(tempfile.mkdtemp()) / "heap_phases_device.py"
    script.write_text(DEVICE)
    extra = [ROOT / "tools" / "board_sim.py", ROOT / "host_tests" / "fakefs.py", script]
    out, err = pico.run_code("import heap_phases_device", extra=extra, timeout=1200)
    points = {}
    for line in out.splitlines():
        p = line.split()
        if p[:1] == ["LIVE"]:
            points[p[1]] = int(p[2])
    if "DONE True" not in out or len(points) != 3:
        raise SystemExit("the game did not complete:\n" + out[-1500:] + err[-1500:])
    return points


def at_revision(rev):
    """This tooling over REV's firmware, board_sim and fakefs, in a temporary tree."""
    tmp = Path(tempfile.mkdtemp(prefix="heap-phases-"))
    try:
        tree = tmp / "repo"
        tree.mkdir()
        shutil.copytree(ROOT / "tools", tree / "tools")
        (tree / "host_tests").mkdir()
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", rev, "firmware", "tools/board_sim.py",
             "host_tests/fakefs.py"], check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
        (tree / "build").mkdir()
        os.symlink(ROOT / "build" / "rp2emu", tree / "build" / "rp2emu")
        os.symlink(ROOT.parent / "shared", tmp / "shared")
        r = subprocess.run([sys.executable, str(tree / "tools" / "heap_phases.py")],
                           capture_output=True, text=True)
        if r.returncode:
            raise SystemExit(r.stdout + r.stderr)
        return r.stdout
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rev", help="measure the firmware of this git revision")
    a = ap.parse_args()
    if a.rev:
        sys.path.insert(0, str(ROOT / "tools"))
        import pico

        pico.install()  # build/rp2emu, which the temporary tree links to
        print(at_revision(a.rev), end="")
        return
    for name, value in measure().items():
        print("%-6s %7d B live" % (name, value))


if __name__ == "__main__":
    main()
