"""Run under CPython (imported by test_sound.py) and the MicroPython unix port.

Plays every sound through sound.Player on a 1 ms virtual clock into a preallocated
recorder, prints one "SOUND <n> <ms>:<hz>:<duty> ..." line per sound, then (MicroPython
only) "ALLOC <bytes>": the heap allocated while playing every sound 20 times with the GC
disabled, which must be 0.
"""

import gc
from array import array

from picoyacht import cues, sound

CAPACITY = 256
MASK = 0x3FFFFFFF


class Recorder:
    """tone() calls as (ms, hz, duty) in preallocated arrays."""

    def __init__(self):
        self.ms = array("i", bytes(4 * CAPACITY))
        self.hz = array("H", bytes(2 * CAPACITY))
        self.duty = array("H", bytes(2 * CAPACITY))
        self.n = 0
        self.now = 0

    def tone(self, hz, duty):
        i = self.n
        if i < CAPACITY:
            self.ms[i] = self.now
            self.hz[i] = hz
            self.duty[i] = duty
            self.n = i + 1

    def calls(self, start=0):
        """[(ms after start, hz, duty)] (allocates: for reporting only)."""
        return [((self.ms[i] - start) & MASK, self.hz[i], self.duty[i]) for i in range(self.n)]


def run(player, rec, t, until_quiet=True, limit=5000):
    """Tick every ms from t until the player is quiet (or `limit` ms); returns the time."""
    for _ in range(limit):
        rec.now = t
        player.tick(t)
        if until_quiet and not player.playing:
            break
        t = t + 1 if t < MASK else 0  # (t + 1) & MASK: a long int at the wrap on a Pico
    return t


def timeline(snd, start=1000, volume=cues.VOLUME_DEFAULT):
    rec = Recorder()
    p = sound.Player(rec.tone, volume)
    p.play(snd)
    run(p, rec, start)
    return rec.calls(start)


def alloc_bytes(rec, player, rounds, start=MASK - 2000):
    """Heap bytes allocated playing every sound `rounds` times from `start` (by default
    just before the 2**30 tick wrap, where a careless sum becomes a long int on a Pico)."""
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    t = start
    for _ in range(rounds):
        for snd in range(cues.NSOUNDS):
            rec.n = 0
            player.play(snd)
            t = run(player, rec, t)
    after = gc.mem_alloc()
    gc.enable()
    return after - before


def main():
    for snd in range(cues.NSOUNDS):
        print("SOUND", snd, " ".join("%d:%d:%d" % c for c in timeline(snd)))
    if hasattr(gc, "mem_alloc"):
        rec = Recorder()
        player = sound.Player(rec.tone)
        alloc_bytes(rec, player, 1)  # warm up
        print("ALLOC", alloc_bytes(rec, player, 20))


if __name__ == "__main__":
    main()
