"""Two proofs on the emulated Pico (tools/emu/emulator.py), for `make stress`: no button
tap is lost to a save's flash erase, and the heap stays flat over many games.

    python tools/stress/pico_stress.py presses [--erase-ms 45] [--saves 40] [--sampling loop]
    python tools/stress/pico_stress.py longplay [--games 100] [--leak 0]

presses: the app saves its game from its main loop every 150 ms (tools/rigs/pico_saves.py)
while the host taps three buttons timed on each save's start and on each flash erase inside
it. The emulator's flash writes take no time, so tools/emu/emulator.mjs holds the core with the
interrupts off for a real chip's time (W25Q16JV, the Pico's flash: sector erase 45 ms
typical, 400 ms worst; page program 0.4 ms typical, 3 ms worst). The presses the app
received, in order and by button, must be exactly the taps made: none lost or doubled.
--sampling loop (buttons read once per main-loop pass) is the negative control: it must
lose taps.

longplay: all-CPU games back to back with the real heap (make flash's .mpy layout, v1.28.0);
free heap after gc.collect() at each game's end. Slope and window growth are computed as
tools/rigs/stress_mash.py trend() does, over the games after the first five. --leak N
keeps N bytes per game: the negative control.

Prints "KEY value" lines like the stress scripts; FAILURES must be 0 (a negative control
must report failures).
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tools/, for paths
import paths

import emulator

DEVICE_SRC = paths.RIGS / "pico_saves.py"
# Taps: buttons hold1..hold3 (GP6..8 in config.py, logical buttons 0..2), holds from a fast
# 25 ms jab to a slow 150 ms press, started at these offsets after a save's start and after
# a flash erase's start or, negative, before its end (so they begin inside the stall and
# end inside or after it).
TAP_GPIOS = (6, 7, 8)
TAP_BUTTONS = "012"
HOLDS_MS = (60, 25, 110, 40, 150, 80, 35)
SAVE_OFFSETS_MS = (0, 2, 5, 9, 14, 20)
ERASE_OFFSETS_MS = (0, -10, 3, -3, 8, -20, 15, 25, -30, 35)
SLOPE_LIMIT = 8000  # millibytes per game
GROWTH_LIMIT = 1024  # bytes, min of the last window over min of the first


def out(key, *vals):
    print(key, *vals)


def run_device(call, opts, extra_job=None, timeout=7200):
    img, files = emulator.image(True, False, (DEVICE_SRC,))
    job = {"boot": "repl", "image": str(img), "files": files,
           "run": "import pico_saves\npico_saves.%s(%r)" % (call, opts)}
    job.update(extra_job or {})
    res = emulator.run(job, timeout=timeout)
    lines = {}
    for line in res.get("out", "").splitlines():
        p = line.split(None, 1)
        if p and p[0].isupper():
            lines[p[0]] = p[1] if len(p) > 1 else ""
    return res, lines


def inside(t0, t1, windows):
    return any(a <= t0 and t1 <= b for a, b in windows)


def overlaps(t0, t1, windows):
    return any(t0 < b and a < t1 for a, b in windows)


def presses(a):
    opts = {"saves": a.saves, "every": 150}
    if a.sampling:
        opts["sampling"] = a.sampling
    job = {"flashStall": {"eraseMs": a.erase_ms, "pageMs": a.page_ms},
           "taps": {"gpios": list(TAP_GPIOS), "holdsMs": list(HOLDS_MS),
                    "saveOffsetsMs": list(SAVE_OFFSETS_MS),
                    "eraseOffsetsMs": list(ERASE_OFFSETS_MS), "gapMs": 30}}
    res, got = run_device("presses", opts, job)
    failures = 0
    if "END" not in got:
        out("DEVICE_ERROR", (res.get("err") or res.get("error") or "")[-300:].replace("\n", " | "))
        failures += 1
    taps = res.get("taps", [])
    stalls = res.get("stalls", [])
    erases = [(t, t + ms) for t, ms, k in stalls if k == "e"]
    flash_ops = [(t, t + ms) for t, ms, _ in stalls]
    saves = [(s, e) for s, e in res.get("saveWindows", []) if e is not None]
    want = "".join(TAP_BUTTONS[TAP_GPIOS.index(t["gpio"])] for t in taps)
    pressed = got.get("PRESSES", "-").replace("-", "")
    released = got.get("RELEASES", "-").replace("-", "")
    lost, doubled = diff_counts(want, pressed)
    figures = {
        "ERASE_MS": a.erase_ms, "PAGE_PROGRAM_MS": a.page_ms,
        "SAMPLING": got.get("SAMPLING", "?").replace(" ", "_"),
        **{k: got.get(k, 0) for k in ("SAVES", "SAVE_MS_MEAN", "SAVE_MS_MAX")},
        "FLASH_ERASES": len(erases), "FLASH_PROGRAMS": len(stalls) - len(erases),
        "TAPS": len(taps),
        "TAPS_IN_A_SAVE": sum(overlaps(t["p"], t["r"], saves) for t in taps),
        "TAPS_OVER_A_FLASH_OP": sum(overlaps(t["p"], t["r"], flash_ops) for t in taps),
        "TAPS_OVER_AN_ERASE": sum(overlaps(t["p"], t["r"], erases) for t in taps),
        "TAPS_WHOLLY_IN_AN_ERASE": sum(inside(t["p"], t["r"], erases) for t in taps),
        "PRESS_EVENTS": len(pressed), "RELEASE_EVENTS": len(released),
        "TAPS_LOST": lost, "TAPS_DOUBLED": doubled,
        **{k: got.get(k, "?") for k in ("LOST_SAMPLES", "QUEUE_DROPPED", "SAVE_ERROR")}}
    for k, v in figures.items():
        out(k, v)
    if pressed != want or released != want:
        failures += 1
        out("WANT", want or "-")
        out("GOT", pressed or "-")
    if not taps or not erases:
        failures += 1  # nothing was tested
    if got.get("SAVE_ERROR", "-") != "-":
        failures += 1
    out("FAILURES", failures)
    return failures


def diff_counts(want, got):
    """Taps lost and doubled: per button, the shortfall and the excess of events."""
    lost = doubled = 0
    for b in set(want + got):
        d = got.count(b) - want.count(b)
        if d < 0:
            lost -= d
        else:
            doubled += d
    return lost, doubled


def trend(heap, first, n):
    """tools/rigs/stress_mash.py trend(), the unix port's heap trend, on these numbers."""
    from stress_mash import trend as mash_trend

    return mash_trend(heap, first, n, len(heap))


def longplay(a):
    opts = {"games": a.games + 5, "seats": a.seats, "leak": a.leak}
    res, got = run_device("longplay", opts, {"timeoutS": a.wall_s} if a.wall_s else None)
    failures = 0
    if "END" not in got:
        out("DEVICE_ERROR", (res.get("err") or res.get("error") or "")[-300:].replace("\n", " | "))
        failures += 1
    heap = [int(line.split()[2]) for line in res.get("out", "").splitlines()
            if line.startswith("G ") and len(line.split()) == 4]
    # free heap: growth of the live heap is a fall in free heap
    live = [-x for x in heap]
    slope, growth, k = trend(live, 5, a.games)
    figures = {"GAMES": len(heap), "SEATS": a.seats, "LEAK_PER_GAME": a.leak,
               "TURN_SKIPS": got.get("TURN_SKIPS", 0), "SIM_S": got.get("SIM_S", 0),
               "WALL_S": round(res.get("wallMs", 0) / 1000), "HEAP_GAMES": k}
    if heap:
        figures.update(FREE_FIRST=heap[min(5, len(heap) - 1)], FREE_LAST=heap[-1],
                       FREE_MIN=min(heap), FREE_MAX=max(heap))
    figures.update(HEAP_SLOPE_MILLIBYTES_PER_GAME=slope, HEAP_WINDOW_MIN_GROWTH=growth,
                   MEMORY_ERROR=got.get("MEMORY_ERROR", "-").replace(" ", "_"),
                   FAULTS=got.get("FAULTS", "?"), SAVE_ERRORS=got.get("SAVE_ERRORS", "?"))
    for key, v in figures.items():
        out(key, v)
    if k < a.games or slope >= SLOPE_LIMIT or growth > GROWTH_LIMIT:
        failures += 1
    if "MEMORY_ERROR" in got or got.get("FAULTS") != "0" or got.get("SAVE_ERRORS") != "0":
        failures += 1
    out("FAILURES", failures)
    return failures


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=("presses", "longplay"))
    ap.add_argument("--erase-ms", type=float, default=45)
    ap.add_argument("--page-ms", type=float, default=0.4)
    ap.add_argument("--saves", type=int, default=40)
    ap.add_argument("--sampling", default="")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seats", type=int, default=2)
    ap.add_argument("--leak", type=int, default=0)
    ap.add_argument("--wall-s", type=int, default=0, help="stop the emulator after this long")
    a = ap.parse_args(argv)
    (presses if a.what == "presses" else longplay)(a)
    return 0


if __name__ == "__main__":
    sys.exit(main())
