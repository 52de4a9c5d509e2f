"""How the scripted player chooses, shared by the host scripts (ui_play, the stress rig)
and the emulated Pico's player (tools/pico_probe.py): small, so it fits on the device."""

from picoyacht.game import POINTS, ZERO


def want_mask(g):
    counts = bytearray(7)
    for d in g.dice:
        counts[d] += 1
    best = 6
    for f in range(6, 0, -1):
        if counts[f] > counts[best]:
            best = f
    m = 0
    for i in range(len(g.dice)):
        if g.dice[i] == best:
            m |= 1 << i
    return m


def best_box(g):
    best, pts = -1, -1
    for b in range(g.rs.nboxes):
        st = g.box_state(b)
        if st == POINTS or st == ZERO:
            p = g.preview(b)
            if p > pts:
                best, pts = b, p
    return best
