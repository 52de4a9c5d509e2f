"""`make bench-ui` (part of `make bench`): the UI budgets, under the MicroPython unix port.

I2C bytes per user action against a full-frame show() (1030 bytes), render time, bytes
allocated in the steady state, Timer-vs-loop button sampling with modelled I2C time, and
the heap of a whole 2-player game through the UI: the code it loads (host_tests/mp/
ui_heap.py), the game at code + 64 KB (issue 3's budget), the smallest -X heapsize that
completes (by bisection; fragmentation makes it move by a few KB with any change), and an
estimate for the Pico's 32-bit heap from the GC block maps (see pico_estimate). Printed,
and written to build/bench_ui.json. Never asserted in tests.
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import mpy_run  # noqa: E402


def build():
    mp = ROOT / "host_tests" / "mp"
    return mpy_run.build(ROOT / "build" / "bench-ui-mpy", (
        ROOT / "tools" / "board_sim.py", ROOT / "tools" / "bench_ui_mp.py",
        mp / "ui_play.py", mp / "ui_heap.py", mp / "ui_checks.py", mp / "allocs.py",
        ROOT / "host_tests" / "fakefs.py"))


def run(out, code, heap):
    return mpy_run.run(code, [out], heap)


def smallest_heap(out, args, lo=48, hi=512, module="ui_play"):
    def completes(kb):
        r = run(out, mpy_run.call(module, args), "%dk" % kb)
        return r.returncode == 0 and (r.stdout.startswith("OK") or "\nOK " in r.stdout)

    return mpy_run.smallest_heap(completes, lo, hi)


def block_map(text):
    """Blocks per kind from micropython.mem_info(1): a head letter (T tuple, L list,
    D dict, S str/bytes, A bytearray/array, B function, M module, F float; h anything
    else) owns the '=' tail blocks after it."""
    kinds = {}
    head = None
    for line in text.splitlines():
        if len(line) > 10 and line[8:10] == ": ":
            for ch in line[10:]:
                if ch == "=":
                    kinds[head] += 1
                elif ch == ".":
                    head = None
                else:
                    head = ch
                    kinds[ch] = kinds.get(ch, 0) + 1
    return kinds


def pico_estimate(out, code64, smallest64_kb):
    """The Pico's heap, estimated from the 64-bit unix port's GC block maps.

    A GC block is 32 bytes here and 16 on the Pico. An object made of pointer-sized words
    (every typed head: tuples, lists, dicts, str/bytes/array headers, functions, modules)
    is exactly half as big on 32 bits, so it takes as many blocks, of half the size. An
    untyped head ('h') is either raw bytes (bytecode, string and buffer data: the same
    size) or more words (dict tables, list items, code records, instances: half): it
    costs 16..32 bytes per 64-bit block. For the code, the raw part of 'h' is taken as
    the size of the loaded .mpy files (their bytecode and strings), the rest halved; for
    the game's own data (after minus code), the middle of 16..32. Low/high bounds are
    printed with it. Not in the headless game: store.py (saves), board_pico.py and
    board_power.py."""
    r = run(out, "import ui_heap; ui_heap.main(['map'])", "256k")
    parts = r.stdout.split("MAP after")
    code_map = block_map(parts[0])
    after_map = block_map(parts[1])
    mods = r.stdout.split("MODS ", 1)[1].split("\n", 1)[0].split()
    mpy = 0
    for m in mods:
        f = out / (m.replace(".", "/") + ".mpy")
        if f.exists():
            mpy += f.stat().st_size
    typed = sum(v for k, v in code_map.items() if k != "h")
    h = code_map.get("h", 0)
    raw = min(mpy, 32 * h)
    code = 16 * typed + raw + (32 * h - raw) // 2
    code_lo = 16 * (typed + h)
    code_hi = 16 * typed + 32 * h
    dt = sum(v for k, v in after_map.items() if k != "h") - typed
    dh = after_map.get("h", 0) - h
    ratio = (16 * dt + 24 * dh) / max(1, 32 * (dt + dh))
    beyond64 = smallest64_kb * 1024 - code64
    est = code + beyond64 * ratio
    lines = [
        "PICO_EST code_blocks typed=%d h=%d mpy_bytes=%d (unix code %d B = %d blocks)" % (
            typed, h, mpy, code64, typed + h),
        "PICO_EST code_kb=%.1f (bounds %.1f..%.1f)" % (code / 1024, code_lo / 1024,
                                                       code_hi / 1024),
        "PICO_EST game_data_ratio=%.2f (bounds 0.50..1.00) smallest_heap_kb=%.0f "
        "(bounds %.0f..%.0f)" % (ratio, est / 1024, (code_lo + beyond64 / 2) / 1024,
                                 (code_hi + beyond64) / 1024),
    ]
    return lines


def heap_budget(out):
    """Issue 3's budget: the code the UI game loads, the game at code + 64 KB, the smallest
    heap with that code loaded first, and the Pico estimate."""
    lines = []
    m = run(out, "import ui_heap; ui_heap.main(['measure'])", "256k")
    f = m.stdout.split()
    code = int(f[1])
    lines.append("HEAP_CODE bytes=%d modules_only=%d" % (code, int(f[3])))
    kb = -(-(code + 64 * 1024) // 1024)
    r = run(out, "import ui_heap; ui_heap.main(['play'])", "%dk" % kb)
    ok = r.returncode == 0 and "\nOK " in r.stdout
    lines.append("HEAP_BUDGET heap=%dk (code + 64k) %s" % (kb, "OK" if ok else "FAIL"))
    small = smallest_heap(out, ["game"], module="ui_heap")
    lines.append("HEAP_SMALLEST_KB code_first=%d beyond_code_kb=%.1f" % (
        small, (small * 1024 - code) / 1024))
    lines += pico_estimate(out, code, small)
    return lines


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
    for line in heap_budget(out):
        print(line)
        fig["lines"].append(line)
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
