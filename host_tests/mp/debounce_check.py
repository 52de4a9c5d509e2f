"""A representative button trace, shared by CPython (test_debounce.py) and MicroPython.

Four buttons (1 and 2 auto-repeat, like Up/Down), sampled every 2 ms for 20 s,
starting just below the 2**30 tick wrap: taps with up to 10 ms of bounce on both
edges, one-sample glitches, chords, long holds. Randomness comes from the
project's Roller so both interpreters build the very same trace.

As a script it prints one line per event ("EV <tick> <event>") and then the heap
bytes allocated by feeding all samples with the GC disabled ("ALLOC <n>").
"""

import gc

from picoyacht.debounce import Debouncer, ticks_add
from picoyacht.roller import Roller

NBUTTONS = 4
REPEAT_MASK = 0b0110
PERIOD_MS = 2
START = (1 << 30) - 3000  # wraps 3 s into the trace
SAMPLES = 10000


def physical_presses(seed=4242, span=SAMPLES * PERIOD_MS):
    """Per button: a list of (t0, t1, bounce_in, bounce_out); times in ms from 0."""
    r = Roller(seed)
    out = []
    for _ in range(NBUTTONS):
        presses = []
        t = 30 + (r.rand15() % 200)
        while True:
            if r.rand15() % 8 == 0:
                dur = 500 + r.rand15() % 900  # long hold: LONG or REPEAT events
            else:
                dur = 20 + r.rand15() % 120
            t1 = t + dur
            if t1 + 60 > span:
                break
            presses.append((t, t1, r.rand15() % 11, r.rand15() % 11))
            t = t1 + 20 + r.rand15() % 400
        out.append(presses)
    return out


def build_masks(presses, span=SAMPLES * PERIOD_MS):
    """The raw mask seen by each sample (one every PERIOD_MS ms from 0): bit b is
    button b's contact, bounce and glitches included, decided per ms."""
    masks = bytearray(SAMPLES)
    r = Roller(99)

    def put(t, bit, on):
        if t % PERIOD_MS == 0 and t < span:
            k = t // PERIOD_MS
            masks[k] = (masks[k] | bit) if on else (masks[k] & ~bit)

    for b in range(NBUTTONS):
        bit = 1 << b
        prev_end = 0
        for t0, t1, bin_, bout in presses[b]:
            for t in range(t0, t1):
                # contact closed, except random opens while the closing edge bounces
                put(t, bit, not (t0 < t < t0 + bin_ and r.rand15() & 1))
            for t in range(t1 + 1, t1 + bout):
                if r.rand15() & 1:  # random closes while the opening edge bounces
                    put(t, bit, True)
            # a 1 ms glitch in the quiet middle of the gap before, and of the press
            if t0 - prev_end > 60:
                put((prev_end + t0) // 2, bit, True)
            if t1 - t0 > 60:
                put((t0 + t1) // 2, bit, False)
            prev_end = t1 + bout
    return masks


def run(masks, emit, start=START):
    """Feed the samples; call emit(sample_index, event) for each event."""
    d = Debouncer(NBUTTONS, repeat_mask=REPEAT_MASK)
    now = start
    for k in range(len(masks)):
        d.update(masks[k], now)
        ev = d.get()
        while ev >= 0:
            emit(k, ev)
            ev = d.get()
        now = ticks_add(now, PERIOD_MS)


def alloc_bytes(masks, start=START):
    d = Debouncer(NBUTTONS, repeat_mask=REPEAT_MASK)
    seen = bytearray(8)  # event counts by kind, kept without allocating
    n = len(masks)
    for _ in range(2):  # second pass: measured with the GC off
        gc.collect()
        gc.disable()
        before = gc.mem_alloc()
        now = start
        k = 0
        while k < n:
            d.update(masks[k], now)
            ev = d.get()
            while ev >= 0:
                seen[ev >> 4] = (seen[ev >> 4] + 1) & 0xFF
                ev = d.get()
            now = ticks_add(now, PERIOD_MS)
            k += 1
        after = gc.mem_alloc()
        gc.enable()
    return after - before


def main():
    masks = build_masks(physical_presses())
    run(masks, lambda k, ev: print("EV", k, ev))
    if hasattr(gc, "mem_alloc"):  # MicroPython only
        print("ALLOC", alloc_bytes(masks))


if __name__ == "__main__":
    main()
