"""`make sim`: run the unchanged firmware/main.py in the terminal.

By default under the MicroPython unix port with a Pico-sized heap (what plays here is
what plays on the device); --cpython runs it under CPython with tools/hostlib's framebuf.
Options: --buttons 4 (the minimal build), --heap 256k, --saves DIR (keep saves there).
"""

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cpython", action="store_true", help="run under CPython instead")
    ap.add_argument("--buttons", type=int, default=0, choices=(0, 4, 11),
                    help="force a build (default: config.py's pin map)")
    # 256k on this 64-bit port is roughly a Pico's free heap: objects here are up to twice
    # their 32-bit size. Less starves the CPU players' engine (they fall back to a simple
    # policy, noted on the console), which is not what a Pico does.
    ap.add_argument("--heap", default="256k", help="MicroPython heap (default 256k)")
    ap.add_argument("--saves", default=str(ROOT / "build" / "sim-saves"),
                    help="directory for saves ('' for none)")
    a = ap.parse_args(argv)
    env = dict(os.environ)
    if a.buttons:
        env["PICOYACHT_BUTTONS"] = str(a.buttons)
    if a.saves:
        Path(a.saves).mkdir(parents=True, exist_ok=True)
        env["PICOYACHT_SAVES"] = a.saves
    if not a.cpython:
        # Load .mpy like the Pico does after `make flash`: compiling from source on the
        # unix port would need far more heap than the game itself.
        sys.path.insert(0, str(ROOT / "tools"))
        import mpy_run

        out = mpy_run.build(ROOT / "build" / "sim-mpy", (
            ROOT / "tools" / "board_sim.py", ROOT / "tools" / "board_term.py",
            ROOT / "firmware" / "main.py", ROOT / "firmware" / "config.py"))
        # imported by name: the script's own directory would shadow the .mpy package
        env.update(mpy_run.env([out]))
        cmd = mpy_run.command("import main", a.heap)
    else:
        env["PYTHONPATH"] = os.pathsep.join(
            str(ROOT / d) for d in ("firmware", "tools", "tools/hostlib"))
        cmd = [sys.executable, str(ROOT / "firmware" / "main.py")]
    os.execvpe(cmd[0], cmd, env)


if __name__ == "__main__":
    main()
