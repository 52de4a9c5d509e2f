"""The allocation probe: heap bytes that n calls of a function allocate, on MicroPython.

The collector is off while it counts, so every byte allocated shows (a collection would
hide garbage). Tests use it to hold "no allocation in the steady state"; the benchmarks
use it to report bytes per loop pass. CPython has no gc.mem_alloc(): there it gives None.
"""

import gc


def allocated(fn, n, warmup=0):
    """Bytes allocated by n calls of fn() after `warmup` uncounted ones (first calls may
    intern names or fill caches); None where the interpreter cannot tell."""
    for _ in range(warmup):
        fn()
    if not hasattr(gc, "mem_alloc"):
        for _ in range(n):
            fn()
        return None
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()
        for _ in range(n):
            fn()
        return gc.mem_alloc() - before
    finally:
        gc.enable()
