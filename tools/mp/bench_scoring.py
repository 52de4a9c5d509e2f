"""Scoring throughput: every box of every rule set for every multiset, timed. Runs on both
interpreters; prints `ruleset evaluations microseconds` lines."""

import sys

from picoyacht import rules

try:
    from time import ticks_diff, ticks_us
except ImportError:
    from time import perf_counter_ns

    def ticks_us():
        return perf_counter_ns() // 1000

    def ticks_diff(a, b):
        return a - b


def main():
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    for rs in rules.RULESETS:
        boxes = rs.boxes
        evaluate = rules.evaluate
        sets = [bytearray(c) for c in rules.multisets(rs.ndice)]
        best = None
        for _ in range(reps):
            t0 = ticks_us()
            for c in sets:
                for box in boxes:
                    evaluate(box, c)
            dt = ticks_diff(ticks_us(), t0)
            best = dt if best is None or dt < best else best
        print(rs.name.replace(" ", "_"), len(sets) * len(boxes), best)


main()
