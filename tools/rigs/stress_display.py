"""Display faults: I2C errors at random writes and for whole seconds, against a twin.

Two apps run in lockstep on the same button samples, the same entropy and their own
FakeFs: A with a healthy panel, B with a panel whose I2C writes fail at random (a glitch
on ~3% of writes) and which, every few seconds, stops answering for 1-3 s (half the time
it also browns out: RAM garbage, display off, contrast reset). Checks:

  * the game is unaffected: after every loop pass both apps are on the same screen with
    the same cursors, and at every box both games snapshot to the same bytes;
  * the display recovers by itself: after each fault period, with no button pressed, B's
    panel shows exactly A's frame (RAM, on/off, contrast) within RECOVER_MS.

Usage: stress_display.py [seconds=600] [seed=1] [buttons=11]   (virtual seconds)
"""

import sys

from stress_rig import Hands, Rng, app_error, helpful, opts, out, rig

from picoyacht import buttons as K
from picoyacht.store import Store

from fakefs import FakeFs

RECOVER_MS = 600  # allowed from the end of a fault period to the right frame on the panel
GLITCH_PCT = 3


class TwinBoard:
    """What Hands needs of a board, fanned out to both rigs."""

    def __init__(self, a, b):
        self.a = a
        self.b = b

    @property
    def t(self):
        return self.a.t

    @property
    def raw(self):
        return self.a.raw

    @raw.setter
    def raw(self, v):
        self.a.raw = v
        self.b.raw = v


class TwinRunner:
    def __init__(self, ra, rb, check):
        self.ra = ra
        self.rb = rb
        self.check = check

    def step(self):
        self.ra.step()
        self.rb.step()
        self.check()


class Stats:
    def __init__(self):
        self.failures = 0
        self.boxes = 0
        self.games = 0
        self.windows = 0
        self.brownouts = 0
        self.window_ms = 0
        self.recoveries = 0
        self.worst_recovery = 0

    def fail(self, what):
        self.failures += 1
        if self.failures <= 10:
            print("FAIL", what)


def view(screen):
    """The screen and its own state: list selection, cursor, card row, page, animation."""
    return (screen.NAME, getattr(screen, "sel", 0), getattr(screen, "cursor", 0),
            getattr(screen, "row", 0), getattr(screen, "page", 0), getattr(screen, "anim", 0))


def same_view(a, b):
    if view(a.screen) != view(b.screen):
        return "screen %s/%s" % (a.screen.NAME, b.screen.NAME)
    if a.power != b.power:
        return "power"
    if a.save_msg != b.save_msg:  # e.g. a twin's save that failed for heap: not a display fault
        return "saves: %r / %r" % (a.save_msg, b.save_msg)
    ga, gb = a.turn.game, b.turn.game
    if (ga is None) != (gb is None):
        return "game presence"
    if ga is not None and (ga.turn != gb.turn or ga.rolls_used != gb.rolls_used
                           or ga.held != gb.held or ga.dice != gb.dice):
        return "turn state"
    return ""


def panel_matches(pa, pb):
    return pa.ram == pb.ram and pa.on == pb.on and pa.contrast == pb.contrast


def main(argv):
    o = opts(argv, seconds=600, seed=1, buttons=11)
    present = K.FULL_BUTTONS if o["buttons"] == 11 else K.MIN_BUTTONS
    full = o["buttons"] == 11
    ba, ra, da, appa = rig(present, Store(FakeFs(), "/s"))
    bb, rb, db, appb = rig(present, Store(FakeFs(), "/s"))
    pa, pb = ba.i2c, bb.i2c
    st = Stats()
    frng = Rng(o["seed"] * 7 + 3)
    glitch = [False, 0]

    def fault():
        if glitch[0] and frng.below(100) < GLITCH_PCT:
            glitch[1] += 1
            return True
        return False

    pb.fault = fault
    last = [-1, -1]  # (game id, turn) of the last compared box

    def check():
        e = same_view(appa, appb)
        if e:
            st.fail("t=%d: twins differ: %s" % (ba.t, e))
            raise SystemExit(1)
        g = appa.turn.game
        if g is not None and (id(g), g.turn) != (last[0], last[1]):
            last[0], last[1] = id(g), g.turn
            if appb.turn.game.snapshot() != g.snapshot():
                st.fail("t=%d: games differ at turn %d" % (ba.t, g.turn))
            st.boxes += 1
            if g.over:
                st.games += 1

    twin = TwinRunner(ra, rb, check)
    hands = Hands(TwinBoard(ba, bb), twin, Rng(o["seed"]), present)
    rng = hands.rng
    end = ba.t + o["seconds"] * 1000

    def play(ms):
        stop = ba.t + ms
        while ba.t < stop:
            if rng.below(5) == 0:
                hands.tap(hands.random_button(), 10 + rng.below(120), rng.below(80))
            else:
                btn = helpful(appa, full, rng)
                if appa.screen.NAME == "diag":
                    hands.tap(btn, 900, 40)
                else:
                    hands.tap(btn, 20 + rng.below(60), 20 + rng.below(60))
            err = app_error(appb)
            if err:
                st.fail("t=%d: %s" % (ba.t, err))

    def quiet_check():
        """No faults, no input: B must show A's frame within RECOVER_MS."""
        glitch[0] = False
        t0 = ba.t
        while ba.t - t0 <= RECOVER_MS:
            if panel_matches(pa, pb):
                st.recoveries += 1
                if ba.t - t0 > st.worst_recovery:
                    st.worst_recovery = ba.t - t0
                return
            twin.step()
        st.fail("t=%d: panel not recovered %d ms after the fault (%s)" % (
            ba.t, RECOVER_MS, appb.screen.NAME))

    while ba.t < end:
        glitch[0] = True
        play(2000 + rng.below(6000))  # random glitches while playing
        quiet_check()
        glitch[0] = False
        ms = 1000 + rng.below(2001)  # then the bus dies for whole seconds
        pb.fail = True
        st.windows += 1
        st.window_ms += ms
        if rng.below(2):
            pb.brownout()
            st.brownouts += 1
        play(ms)
        pb.fail = False
        quiet_check()
    out("VIRTUAL_SECONDS", o["seconds"])
    out("I2C_WRITES_FAILED", pb.raised)
    out("RANDOM_GLITCHES", glitch[1])
    out("WRITES_REFUSED_IN_WINDOWS", pb.raised - glitch[1])
    out("DRIVER_ERRORS", getattr(bb.display, "errors", -1))
    out("FAULT_WINDOWS", st.windows)
    out("FAULT_WINDOW_SECONDS", st.window_ms // 1000)
    out("BROWNOUTS", st.brownouts)
    out("RECOVERIES_VERIFIED", st.recoveries)
    out("WORST_RECOVERY_MS", st.worst_recovery)
    out("BOXES_COMPARED", st.boxes)
    out("GAMES_COMPLETED", st.games)
    out("BUTTON_EVENTS", hands.edges)
    out("FAULTS", ba.faults + bb.faults)
    out("FAILURES", st.failures + ba.faults + bb.faults)


if __name__ == "__main__":
    main(sys.argv[1:])
