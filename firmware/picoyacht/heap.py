"""The heap's lifetimes: `forget` takes a module out of the heap once its work is done;
`sweep` splits work that makes garbage over loop passes, each collection in a pass of its
own; `collect_often` keeps the collector from leaving garbage to pile up; `locked` runs a
call with the heap locked, and `i2c_write` lets go of that lock for one bus write.

A core module: the CPU's search, the frames and the display driver all lock the heap
through here, every layer drops its modules through here, and the turn's save and the
CPU's step are split into passes here, so none of them imports another's module for it.
"""

import gc
import sys

from micropython import const

import picoyacht

try:
    from micropython import heap_lock, heap_unlock
except ImportError:  # CPython, or a build without them
    heap_lock = None


def forget(name):
    """Takes the package's module `name` out of the heap (if imported): a screen nobody
    can reach, a table once read. As .mpy its code is in RAM; frozen, its globals are."""
    module = picoyacht.__dict__.pop(name, None)
    if module is not None:
        sys.modules.pop(module.__name__, None)


# Work split over loop passes: a move's save, a CPU's step. Collected in the pass that does
# the work, or draws its frame, the garbage made that pass too long; so the work's owner
# keeps one of these small ints, and sweep() moves it on, a pass at a time:
#     DUE --sweep--> SWEPT --the work--> LITTER --sweep--> IDLE
# Work too long for one pass (the save: write, then commit) runs its first half at SWEPT,
# goes to HALF, and runs its second half in the next pass, then LITTER.
# A pass that sweeps does nothing else. An owner that cannot wait (a press to handle, the
# board to sleep) does the work at DUE, unswept, and leaves its LITTER as it is.
IDLE = const(0)  # nothing waits
LITTER = const(1)  # the work is done: the next sweep collects its garbage
DUE = const(2)  # work waits (DUE, SWEPT or HALF: >= DUE): the next sweep collects the heap first
SWEPT = const(3)  # the heap is collected: the work runs in a later pass
HALF = const(4)  # the work's first half is done: its second half runs in the next pass


def sweep(split):
    """The collection a split asks for, if it asks for one: DUE becomes SWEPT and LITTER
    becomes IDLE, with gc.collect(), and the caller's pass then ends; IDLE, SWEPT and HALF
    come back as they are, uncollected."""
    if split == DUE or split == LITTER:
        gc.collect()
        return SWEPT if split == DUE else IDLE
    return split


_COLLECT_EVERY = const(32768)  # bytes allocated between the collector's own runs


def collect_often(on):
    """on: asks MicroPython's collector to run after every _COLLECT_EVERY bytes allocated
    too, not only when an allocation finds no room; off: only then. Left until the heap is
    full, the garbage of a run of imports and the code and names they keep interleave
    through the whole heap, and on the .mpy layout a later import then finds no free run
    long enough for its code or for the interpreter's next pool of names, with a third of
    the heap free. It is on from the Runner's start and between games (the title, setup,
    the results); in a game the loop collects in passes of its own (sweep), and
    a collection the collector chose would fall inside a pass with a budget."""
    try:
        gc.threshold(_COLLECT_EVERY if on else -1)
    except AttributeError:  # CPython: its own collector
        pass


_held = 0  # 1 while locked() holds the heap: i2c_write() lets go of it for a write


def locked(fn, a, b, c):
    """fn(a, b, c) with the heap locked. MicroPython gives a call frame of more than a few
    words from the heap and frees it on return, unless the heap is locked: then it is on
    the C stack. On a fragmented heap that search is the cost, of a frame's drawing and of
    an engine build's box scores alike.
    fn must not allocate: if it does (a MemoryError, or any error, which cannot be built
    while locked), it runs again unlocked, so it must be safe to repeat, and a real error
    then shows as itself. The one place the frames, the display driver and the CPU's
    search lock the heap. Calls do not nest."""
    global _held
    if heap_lock is not None:
        heap_lock()
        _held = 1
        try:
            return fn(a, b, c)
        except MemoryError:
            pass
        finally:
            _held = 0
            heap_unlock()
    return fn(a, b, c)


def i2c_write(i2c, addr, buf, vec):
    """i2c.writevto(addr, buf) if vec, else i2c.writeto(addr, buf); from inside locked()
    with the heap unlocked for the write alone. The display driver sends its frame locked,
    so that its call frames stay off the heap, but the rp2 port's writevto copies its
    buffers into a heap block, and a bus error's exception is made there too."""
    held = _held
    if held:
        heap_unlock()
    try:
        if vec:
            i2c.writevto(addr, buf)
        else:
            i2c.writeto(addr, buf)
    finally:
        if held:
            heap_lock()
