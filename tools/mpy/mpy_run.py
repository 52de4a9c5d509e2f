"""Run code under the MicroPython unix port the way a Pico runs it after `make flash`.

The picoyacht package and the scripts a run needs are compiled to .mpy into one directory
(compiling from source on the unix port would need far more heap than the game itself),
MICROPYPATH points there, and -X heapsize fixes the heap. The tools, the benchmarks and the
tests all start MicroPython through here; smallest_heap() is the one heap bisection.
"""

import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from mpy_build import compile_package, mpy_cross


def micropython():
    """The unix-port interpreter from the project's venv, else from PATH (None if absent)."""
    here = Path(sys.executable).parent / "micropython"
    return str(here) if here.exists() else shutil.which("micropython")


def compile_scripts(out, scripts, only_missing=False):
    """Each script (a .py path) as out/<stem>.mpy, next to the package."""
    for src in map(Path, scripts):
        dst = Path(out) / (src.stem + ".mpy")
        if not (only_missing and dst.exists()):
            subprocess.run([mpy_cross(), "-o", str(dst), str(src)], check=True)
    return out


def build(out, scripts=()):
    """The package (stale modules removed) and `scripts` as .mpy in `out`; returns out."""
    out = Path(out)
    for old in (out / "picoyacht").glob("*.mpy"):
        old.unlink()  # no module left over from a file since removed
    compile_package(out)
    return compile_scripts(out, scripts)


def call(module, args=None):
    """Source that imports `module` and calls its main(args), or main() without args."""
    return "import %s; %s.main(%s)" % (module, module, "" if args is None else repr(list(args)))


def command(target, heap, args=()):
    """argv for a script file (a Path) or source text (a str) on a heap of `heap`."""
    where = [str(target)] if isinstance(target, Path) else ["-c", target]
    return [micropython() or "micropython", "-X", "heapsize=" + heap, *where, *map(str, args)]


def env(paths):
    """The environment with MICROPYPATH set to `paths` (then the frozen modules)."""
    return dict(os.environ, MICROPYPATH=os.pathsep.join([*map(str, paths), ".frozen"]))


def run(target, paths, heap="256k", args=(), timeout=600, cwd=None):
    """Run a script file or source text to completion; the caller reads stdout/returncode."""
    return subprocess.run(command(target, heap, args), capture_output=True, text=True,
                          env=env(paths), timeout=timeout, cwd=cwd)


def smallest_heap(completes, lo, hi, jobs=1):
    """Bisection on whole units (KB): the smallest x for which completes(x) holds, or None
    when even `hi` is not enough. With jobs > 1 each round tries that many points of the
    interval at once (emulator runs take minutes). Fragmentation moves the answer by a few
    KB with any change."""
    if not completes(hi):
        return None
    lo -= 1  # lo itself is still a candidate
    with ThreadPoolExecutor(jobs) as pool:
        while hi - lo > 1:
            n = min(jobs, hi - lo - 1)
            xs = sorted({lo + (hi - lo) * (i + 1) // (n + 1) for i in range(n)})
            for x, ok in zip(xs, pool.map(completes, xs), strict=True):
                if ok:
                    hi = min(hi, x)
                elif hi > x > lo:
                    lo = x
    return hi
