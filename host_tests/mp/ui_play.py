"""Play whole games through the UI, button by button, on the headless board.

The "player" looks at the game the way a person looks at the screen, decides, and then
only presses buttons. Every decision is also replayed on a bare Game with the same seed:
the two must end with identical scorecards, so the UI did exactly what was pressed.
Usage: micropython ui_play.py [buttons=11|4] [players=2] [rules=0] [cpus=0]
"""

import gc
import sys

from board_sim import FOUR, FULL, Driver, HeadlessBoard
from ui_policy import best_box, want_mask  # noqa: F401  (stress_rig takes them from here)

from picoyacht import app as A
from picoyacht.game import Game
from picoyacht.roller import Roller


class Player:
    def __init__(self, present, log):
        self.board = HeadlessBoard(present)
        self.runner = A.Runner(self.board)
        self.d = Driver(self.board, self.runner)
        self.app = self.runner.app
        self.full = present == FULL
        self.log = log  # decisions, for the replay: held mask per roll, 128|box per score
        self.d.run_ms(50)

    def press(self, b):
        self.d.press(b)

    def pick(self, code):
        """Move a list cursor to the item `code`, then press OK."""
        app = self.app
        for _ in range(40):
            if app.items[app.sel] == code:
                break
            self.press(A.B_DOWN)
        assert app.items[app.sel] == code, "item not found"
        self.press(A.B_OK)

    def cursor_to(self, target):
        app = self.app
        n = app._nitems()
        while app.cursor != target:
            fwd = (target - app.cursor) % n
            self.press(A.B_DOWN if fwd <= n - fwd else A.B_UP)

    def setup(self, nplayers, rid, cpus):
        app = self.app
        self.pick(A.T_NEW)
        assert app.state == A.S_SETUP
        s = app.settings
        while s.rid != rid:
            self.pick(A.R_RULES)
        while s.nplayers != nplayers:
            self.pick(A.R_PLAYERS)
        for seat in range(nplayers):
            want = 2 if seat >= nplayers - cpus else 0
            while s.kinds[seat] != want:
                self.pick(A.R_KIND + seat)
        self.pick(A.R_START)
        assert app.state in (A.S_PLAY, A.S_HANDOVER), A.STATE_NAMES[app.state]

    def roll(self):
        g = self.app.game
        self.log.append(g.held if g.rolls_used else 0)
        if self.full:
            self.press(A.B_ROLL)
        else:
            self.cursor_to(len(g.dice))
            self.press(A.B_OK)
        self.d.run_ms(300)  # let the animation finish (a press would also end it)

    def hold(self, mask):
        g = self.app.game
        for i in range(len(g.dice)):
            if (g.held ^ mask) >> i & 1:
                if self.full:
                    self.press(A.B_HOLD1 + i)
                else:
                    self.cursor_to(i)
                    self.press(A.B_OK)
        assert g.held == mask

    def score(self):
        app = self.app
        g = app.game
        box = best_box(g)
        if app.state == A.S_PLAY:
            self.cursor_to(len(g.dice) + 1)
            self.press(A.B_OK)
        assert app.state == A.S_CARD
        idx = app.rows.find(bytes((box,)))
        n = len(app.rows)
        while app.row != idx:
            fwd = (idx - app.row) % n
            self.press(A.B_DOWN if fwd <= n - fwd else A.B_UP)
        self.log.append(128 | box)
        turn = g.turn
        self.press(A.B_OK)
        if app.confirm:
            self.press(A.B_OK)
        assert g.turn == turn + 1 or g.over

    def play(self):
        app = self.app
        peak = 0
        for _ in range(5000):
            st = app.state
            g = app.game
            if st == A.S_OVER:
                break
            if st == A.S_HANDOVER:
                if g.kinds[g.current]:
                    self.d.run_ms(100)
                else:
                    self.press(A.B_OK)
            elif st == A.S_PLAY and g.kinds[g.current]:
                self.d.run_ms(100)  # a CPU turn at its own pace
            elif st == A.S_PLAY:
                if not g.rolls_used:
                    self.roll()
                    continue
                want = want_mask(g)
                full = (1 << len(g.dice)) - 1
                if g.rolls_left and want != full:
                    self.hold(want)
                    self.roll()
                else:
                    self.score()
            elif st == A.S_CARD:
                self.score()
            else:
                raise AssertionError("unexpected screen " + A.STATE_NAMES[st])
            if hasattr(gc, "mem_alloc"):
                m = gc.mem_alloc()
                if m > peak:
                    peak = m
        assert app.state == A.S_OVER
        return peak


def replay(g_ui, log):
    """The same decisions on a bare engine: it must end where the UI ended."""
    g = Game(g_ui.rs, g_ui.names, g_ui.kinds, g_ui.options, Roller(g_ui.seed), g_ui.seed)
    for x in log:
        if x < 128:  # a roll, holding x
            if g.rolls_used:
                g.set_held(x)
            g.roll()
        else:
            g.score(x & 127)
    return g


def main(argv):
    opts = {"buttons": 11, "players": 2, "rules": 0, "cpus": 0}
    for a in argv:
        k, v = a.split("=")
        opts[k] = int(v)
    log = bytearray()
    p = Player(FULL if opts["buttons"] == 11 else FOUR, log)
    p.setup(opts["players"], opts["rules"], opts["cpus"])
    peak = p.play()
    g = p.app.game
    if not opts["cpus"]:
        r = replay(g, log)
        assert bytes(r.scores) == bytes(g.scores), "UI and engine disagree"
        assert [r.total(s) for s in range(g.nseats)] == [g.total(s) for s in range(g.nseats)]
    assert p.board.boxes == g.rs.nboxes * g.nseats, p.board.boxes
    assert '"ev":"end"' in p.board.lines[-1]
    assert p.board.faults == 0, "faults or CPU engine errors: see the lines above"
    print("OK presses=%d totals=%s peak=%d i2c=%d frames=%d" % (
        p.d.presses, [g.total(s) for s in range(g.nseats)], peak, p.board.i2c.bytes,
        p.app.frames))


if __name__ == "__main__":
    main(sys.argv[1:])
