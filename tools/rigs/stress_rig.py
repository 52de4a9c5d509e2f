"""Shared pieces of the stress scripts (tools/rigs/stress_*.py).

Runs under the MicroPython unix port (and CPython): a seeded RNG, the headless rig,
invariant checks of the game and the app, a "player" that knows which button moves a
screen forward, and gestures (taps with contact bounce, long holds, chords) that set the
raw button mask sample by sample. Scripts print "KEY value" lines that tools/stress/stress.py and
host_tests/test_stress.py read.
"""

import gc

from board_sim import FULL, Driver, HeadlessBoard
from ui_play import best_box, want_mask  # noqa: F401  (the stress scripts use them)

from picoyacht import app as A
from picoyacht import buttons as K
from picoyacht import menus, newgame
from picoyacht.game import HUMAN, Game
from picoyacht.invariants import popcount


def out(key, *values):
    print(key, *values)


def opts(argv, **defaults):
    """key=value arguments over integer defaults."""
    d = dict(defaults)
    for a in argv:
        k, v = a.split("=")
        d[k] = int(v)
    return d


class Rng:
    """xorshift32: the same stream on every interpreter; below() for small ranges."""

    def __init__(self, seed):
        self.s = ((seed * 2654435761) ^ 0x5BD1E995) & 0xFFFFFFFF or 1

    def next(self):
        x = self.s
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.s = x
        return x >> 2

    def below(self, n):
        return self.next() % n

    def chance(self, num, den):
        return self.next() % den < num


def rig(present=FULL, store=None, entropy=b"\x2a\x00\x00\x00", boot=0, sample_ms=5):
    """The real loop on a headless board: (board, runner, driver, app)."""
    b = HeadlessBoard(present, store, entropy, boot)
    b.SAMPLE_MS = sample_ms
    r = A.Runner(b)
    d = Driver(b, r)
    return b, r, d, r.app


# ---------------------------------------------------------------- invariants
def game_error(g):
    """"" when the game is consistent, else what is wrong."""
    rs = g.rs
    n = g.nseats
    nb = rs.nboxes
    if not 0 <= g.turn <= nb * n:
        return "turn %d" % g.turn
    for pos in range(n):
        seat = g.order[pos]
        done = g.turn // n + (1 if pos < g.turn % n else 0)
        if popcount(g.filled[seat]) != done:
            return "seat %d filled %x at turn %d" % (seat, g.filled[seat], g.turn)
        for b in range(nb):
            if not g.filled[seat] >> b & 1 and g.scores[seat * nb + b]:
                return "score in open box %d" % b
    if g.held >> len(g.dice):
        return "held %x" % g.held
    if g.rolls_left < 0 or g.rolls_used < 0:
        return "rolls %d/%d" % (g.rolls_used, g.rolls_left)
    for d in g.dice:
        if (g.rolls_used and not 1 <= d <= 6) or (not g.rolls_used and d):
            return "dice %r" % (bytes(g.dice),)
    if g.over and (g.rolls_used or g.rolls_left):
        return "rolls after the end"
    return ""


def app_error(app):
    st = app.screen.NAME
    if st not in A.SCREENS:
        return "screen " + st
    g = app.turn.game
    if st in ("play", "card", "handover", "menu", "scores", "over", "ratings"):
        if g is None:
            return "no game on " + st
    if st in ("title", "menu", "setup") and not 0 <= app.screen.sel < len(app.screen.items):
        return "sel %d of %d" % (app.screen.sel, len(app.screen.items))
    if st == "play" and not 0 <= app.screen.cursor < app.screen.items():
        return "cursor %d" % app.screen.cursor
    if st == "card" and not 0 <= app.screen.row < len(app.screen.rows):
        return "row %d" % app.screen.row
    if g is not None:
        e = game_error(g)
        if e:
            return e
    return ""


def snapshot_error(g):
    """A snapshot must restore to the same bytes (what a power cut would resume)."""
    s = g.snapshot()
    back = Game.restore(s, None).snapshot()
    # the restored game has no roller: its state field reads 0; compare the rest
    if back[:16] != s[:16] or back[20:-2] != s[20:-2]:
        return "snapshot round trip"
    return ""


# ---------------------------------------------------------------- a player
def index(seq, code):
    """Position of code in a bytearray, -1 if absent (MicroPython has no `int in bytes`)."""
    for i in range(len(seq)):
        if seq[i] == code:
            return i
    return -1


def toward(cur, target, n):
    fwd = (target - cur) % n
    return K.B_DOWN if fwd <= n - fwd else K.B_UP


_QUIT = menus.Menu.LABELS.index("Quit to title")
_STOP = menus.Menu.LABELS.index("Stop demo")


def helpful(app, full, rng=None):
    """The one button a purposeful player presses next on this screen."""
    st = app.screen.NAME
    g = app.turn.game
    if st == "title":
        i = index(app.screen.items, menus.T_RESUME)
        if i < 0:
            i = index(app.screen.items, menus.T_NEW)
        return K.B_OK if app.screen.sel == i else toward(app.screen.sel, i, len(app.screen.items))
    if st == "setup":
        i = index(app.screen.items, newgame.R_START)
        return K.B_OK if app.screen.sel == i else toward(app.screen.sel, i, len(app.screen.items))
    if st == "name":
        return K.B_MENU
    if st == "handover" or st == "message":
        return K.B_OK
    if st == "over":  # its menu, to quit to the title
        return K.B_MENU
    if st == "ratings":
        return K.B_OK
    if st in ("scores", "records"):
        return K.B_MENU
    if st == "menu":
        i = max(index(app.screen.items, _QUIT), index(app.screen.items, _STOP)) if g.over else 0
        return K.B_OK if app.screen.sel == i else toward(app.screen.sel, i, len(app.screen.items))
    if st == "diag":
        return K.B_MENU  # held long by the caller
    if st == "card":
        box = best_box(g)
        if box < 0:
            return K.B_MENU
        card = app.screen
        idx = index(card.rows, box)
        return K.B_OK if card.row == idx else toward(card.row, idx, len(card.rows))
    if st != "play" or g is None:
        return K.B_OK
    if g.kinds[g.current] != HUMAN or g.over:
        return K.B_OK  # skips the CPU's turn
    n = len(g.dice)
    if not g.rolls_used:
        target, btn = n, K.B_ROLL
    else:
        want = want_mask(g)
        if g.rolls_left and want != (1 << n) - 1 and (rng is None or rng.below(8)):
            diff = want ^ g.held
            if diff:
                i = 0
                while not diff >> i & 1:
                    i += 1
                target, btn = i, K.B_HOLD1 + i
            else:
                target, btn = n, K.B_ROLL
        else:
            target, btn = n + 1, -1
    if full and btn >= 0:
        return btn
    if app.screen.cursor != target:
        return toward(app.screen.cursor, target, app.screen.items())
    return K.B_OK


# ---------------------------------------------------------------- gestures
class Hands:
    """Presses buttons on a rig sample by sample; counts raw edges ("button events")."""

    def __init__(self, board, runner, rng, present):
        self.b = board
        self.r = runner
        self.rng = rng
        self.buttons = bytearray(i for i in range(K.NBUTTONS) if present >> i & 1)
        self.edges = 0
        self.check = None  # called after every loop pass when set

    def set(self, raw):
        changed = raw ^ self.b.raw
        while changed:
            changed &= changed - 1
            self.edges += 1
        self.b.raw = raw

    def run_ms(self, ms):
        b = self.b
        end = b.t + ms
        while b.t < end:
            self.r.step()
            if self.check is not None:
                self.check()

    def bounce(self, bits, down, ms):
        """Contact bounce for ms: the bits flip at random, then settle (down or up)."""
        rng = self.rng
        b = self.b
        end = b.t + ms
        while b.t < end:
            if rng.below(2):
                self.set(b.raw ^ bits)
            self.run_ms(1)
        self.set((b.raw | bits) if down else (b.raw & ~bits))

    def tap(self, btn, hold=40, gap=40, chatter=True):
        bit = 1 << btn
        rng = self.rng
        if chatter and rng.below(3) == 0:
            self.bounce(bit, True, rng.below(10) + 1)
        else:
            self.set(self.b.raw | bit)
        self.run_ms(hold)
        if chatter and rng.below(3) == 0:
            self.bounce(bit, False, rng.below(10) + 1)
        else:
            self.set(self.b.raw & ~bit)
        self.run_ms(gap)

    def random_button(self):
        return self.buttons[self.rng.below(len(self.buttons))]

    def chord(self):
        """Two to four buttons, pressed and released in a random order."""
        rng = self.rng
        k = 2 + rng.below(3)
        bits = 0
        for _ in range(k):
            bits |= 1 << self.random_button()
        down = bits
        while down:
            low = down & -down
            down ^= low
            self.set(self.b.raw | low)
            self.run_ms(rng.below(30))
        self.run_ms(rng.below(900))
        up = bits
        while up:
            low = up & -up
            up ^= low
            self.set(self.b.raw & ~low)
            self.run_ms(rng.below(30))
        self.run_ms(rng.below(60))


def live_heap():
    gc.collect()
    return gc.mem_alloc()

