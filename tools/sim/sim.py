"""`make sim`: run the unchanged firmware/main.py in the terminal, on the terminal board.

By default under the MicroPython unix port with a Pico-sized heap (what plays here is
what plays on the device); --cpython runs it under CPython with tools/hostlib's framebuf.
Options: --buttons 4 (the minimal build), --heap 320k, --saves DIR (keep saves there),
--log FILE (the serial game log, whole lines, for tools/deploy/log_csv.py), --diag (boot with Menu
held: the diagnostics screen), --wav FILE (write the piezo's tones to a WAV on exit).
The panel is drawn with half-blocks in a terminal of 128x36 or more, with Braille cells in
a smaller one (down to 64x17); a terminal smaller than that gets told the size it needs.
The panel is laid out again when the terminal is resized. What the firmware prints
(tracebacks, faults) goes to --console FILE, not over the panel; its name is shown on exit.

Expert's tables are read from tables/ (the firmware opens "tables/<name>.bin" from the
repository's root, as it would /tables on a Pico). A game that needs one that is not built
yet asks for it (the board writes its file names to PICOYACHT_TABLE_WANTED); this process
builds it (tools/tables/build_tables.py, seconds) while the board shows the progress in words in
place of the key legend, and the game goes on with it. Each is built once, then cached.
"""

import argparse
import os
import shutil
import signal
import subprocess
import sys
import threading
import wave
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tools/, for paths
from paths import ROOT, TOOLS

RATE = 22050  # WAV samples per second
LEVEL = 96  # WAV amplitude around the 8-bit midpoint at the loudest duty
MASK = 0x3FFFFFFF  # the board's ms clock wraps at 2**30
# The heap stands for a Pico's: what stock MicroPython v1.28.0 has free at its REPL, scaled
# by what the same objects (every module a game imports, and Maxi's engine) take on this
# 64-bit port against the Pico's .mpy layout, where the code is in the heap too. So the
# CPU and the coach run short of heap here where a Pico would, and not before.
# `python tools/emu/heap_budget.py --sim` measures the three figures (bytes).
PICO_FREE = 241536
PICO_LIVE = 95072
HOST_LIVE = 128896
HEAP_KB = PICO_FREE * HOST_LIVE // PICO_LIVE // 1024

TABLES = ROOT / "tables"
SIM = TOOLS / "sim"
# firmware/main.py, started with this folder's terminal board in place of the Pico's
START = "import board_term, main; main.run(board_term.make_board)"
WANTED = ROOT / "build" / "sim-table-wanted"


def say_in(path, text):
    """Replace the file's text in one step: the board never reads half of it."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    tmp.replace(path)


class Progress:
    """The builder's progress lines (a file-like for build_tables) into the wanted file,
    where the board reads the latest."""

    def __init__(self, path):
        self.path = path

    def write(self, text):
        text = text.strip("\r\n ")
        if text:
            say_in(self.path, text)

    def flush(self):
        pass


def serve_tables(wanted, stop, tables=TABLES, provide=None):
    """Until `stop` is set: when the board writes "want <file names>" into `wanted`, build
    the first of them that is a table (progress in words into the same file), then empty
    the file: the board stops waiting and opens it. A failed build is said there."""
    if provide is None:
        from build_tables import provide
    while not stop.wait(0.2):
        try:
            text = wanted.read_text()
        except OSError:
            continue
        if not text.startswith("want "):
            continue
        try:
            for file in text.split()[1:]:
                if provide(file, tables, Progress(wanted)) is not None:
                    break
        except Exception as e:  # noqa: BLE001 (whatever broke, the game goes on)
            say_in(wanted, "Expert's table could not be built (%s)" % e)
            stop.wait(3)
        say_in(wanted, "")


def parse_tones(text):
    """[(ms, hz, duty)] from the board's "ms hz duty" lines."""
    out = []
    for line in text.splitlines():
        f = line.split()
        if len(f) == 3:
            out.append((int(f[0]), int(f[1]), int(f[2])))
    return out


def write_wav(tones, path):
    """The tones as an 8-bit mono WAV: each a square wave of its pitch and duty (a piezo's
    PWM drive), held until the next tone; from the first tone to the last."""
    data = bytearray()
    if tones:
        start = tones[0][0]
        for (t0, hz, duty), (t1, _, _) in zip(tones, tones[1:], strict=False):
            a = RATE * ((t0 - start) & MASK) // 1000
            b = RATE * ((t1 - start) & MASK) // 1000
            if not hz or not duty:
                data += bytes([128]) * (b - a)
                continue
            high = duty * RATE // 65536  # of each RATE-long stretch of phase
            for i in range(b - a):
                data.append(128 + LEVEL if (i * hz) % RATE < high else 128 - LEVEL)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(1)
        w.setframerate(RATE)
        w.writeframes(bytes(data))


def terminal_fit():
    """The terminal size as "COLSxROWS" for the board; exits saying what is needed if the
    panel fits no rendering."""
    from board_term import layout, too_small

    cols, rows = shutil.get_terminal_size((128, 36))
    if layout(cols, rows) is None:
        raise SystemExit("make sim: " + too_small(cols, rows))
    return "%dx%d" % (cols, rows)


def run_beside_panel(cmd, env, fit, console, cwd=ROOT):
    """Runs the firmware with the terminal passed as its panel (PICOYACHT_PANEL) and its
    own output in `console`; a resize rewrites the size file the board reads. Exit code."""
    console.parent.mkdir(parents=True, exist_ok=True)
    size_file = console.with_name("sim-term-size")
    size_file.write_text(fit)

    def resized(signum, frame):
        cols, rows = shutil.get_terminal_size((128, 36))
        size_file.write_text("%dx%d" % (cols, rows))

    panel = os.dup(1)  # the terminal
    env = dict(env, PICOYACHT_PANEL="/dev/fd/%d" % panel, PICOYACHT_TERM_FILE=str(size_file))
    old = signal.signal(signal.SIGWINCH, resized)
    try:
        with open(console, "w") as out:
            rc = subprocess.run(cmd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                pass_fds=(panel,), cwd=cwd).returncode
    finally:
        signal.signal(signal.SIGWINCH, old)
        os.close(panel)
    if console.stat().st_size:
        print("the firmware's console output: %s" % console)
    return rc


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cpython", action="store_true", help="run under CPython instead")
    ap.add_argument("--buttons", type=int, default=0, choices=(0, 4, 11),
                    help="force a build (default: config.py's pin map)")
    ap.add_argument("--heap", default="%dk" % HEAP_KB,
                    help="MicroPython heap (default %dk: a Pico's)" % HEAP_KB)
    ap.add_argument("--saves", default=str(ROOT / "build" / "sim-saves"),
                    help="directory for saves ('' for none)")
    ap.add_argument("--log", default=str(ROOT / "build" / "sim-saves" / "game.log"),
                    help="append the game log here ('' for none)")
    ap.add_argument("--diag", action="store_true", help="boot into diagnostics (Menu held)")
    ap.add_argument("--wav", help="write the piezo's tones to this WAV file on exit")
    ap.add_argument("--console", default=str(ROOT / "build" / "sim-console.txt"),
                    help="where the firmware's own output goes")
    a = ap.parse_args(argv)
    fit = terminal_fit()
    WANTED.parent.mkdir(parents=True, exist_ok=True)
    say_in(WANTED, "")
    env = dict(os.environ, PICOYACHT_TERM=fit, PICOYACHT_TABLE_WANTED=str(WANTED))
    if a.buttons:
        env["PICOYACHT_BUTTONS"] = str(a.buttons)
    # the firmware runs in the repository's root (where tables/ is): paths made absolute
    a.saves, a.log = (os.path.abspath(p) if p else p for p in (a.saves, a.log))
    if a.saves:
        Path(a.saves).mkdir(parents=True, exist_ok=True)
        env["PICOYACHT_SAVES"] = a.saves
    if a.log:
        Path(a.log).parent.mkdir(parents=True, exist_ok=True)
        env["PICOYACHT_LOG"] = a.log
    if a.diag:
        env["PICOYACHT_DIAG"] = "1"
    tones = None
    if a.wav:
        tones = ROOT / "build" / "sim-tones.txt"
        tones.parent.mkdir(parents=True, exist_ok=True)
        env["PICOYACHT_TONES"] = str(tones)
    if not a.cpython:
        # Load .mpy like the Pico does after `make flash`: compiling from source on the
        # unix port would need far more heap than the game itself.
        import mpy_run

        out = mpy_run.build(ROOT / "build" / "sim-mpy", (
            SIM / "board_sim.py", SIM / "board_term.py",
            ROOT / "firmware" / "main.py", ROOT / "firmware" / "config.py"))
        # imported by name: the script's own directory would shadow the .mpy package
        env.update(mpy_run.env([out]))
        cmd = mpy_run.command(START, a.heap)
    else:
        env["PYTHONPATH"] = os.pathsep.join(
            str(d) for d in (ROOT / "firmware", SIM, TOOLS / "hostlib"))
        cmd = [sys.executable, "-c", START]
    stop = threading.Event()
    threading.Thread(target=serve_tables, args=(WANTED, stop), daemon=True).start()
    try:
        rc = run_beside_panel(cmd, env, fit, Path(a.console))
    finally:
        stop.set()
    if a.log:
        print("game log: %s (python tools/deploy/log_csv.py %s)" % (a.log, a.log))
    if tones is not None:
        log = parse_tones(tones.read_text()) if tones.exists() else []
        write_wav(log, a.wav)
        print("%d tones -> %s" % (len(log), a.wav))
    return rc


if __name__ == "__main__":
    sys.exit(main())
