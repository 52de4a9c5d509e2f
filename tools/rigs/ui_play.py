"""Play whole games through the UI, button by button, on the headless board.

The "player" looks at the game the way a person looks at the screen, decides, and then
only presses buttons. Every decision is also replayed on a bare Game with the same seed:
the two must end with identical scorecards, so the UI did exactly what was pressed.
Usage: micropython ui_play.py [buttons=11|4] [players=2] [rules=0] [cpus=0]
"""

import gc
import sys

from board_sim import FOUR, FULL, Driver, HeadlessBoard

from picoyacht import app as A
from picoyacht import buttons as K
from picoyacht import menus
from picoyacht.game import Game
from picoyacht.policy import best_box, most_common_mask
from picoyacht.roller import Roller


def want_mask(g):
    """The player's plan is the firmware's fallback policy: keep the most common face."""
    return most_common_mask(g.dice)


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
        assert self.d.pick(code), "item not found"

    def cursor_to(self, target):
        app = self.app
        n = app.screen.items()
        while app.screen.cursor != target:
            fwd = (target - app.screen.cursor) % n
            self.press(K.B_DOWN if fwd <= n - fwd else K.B_UP)

    def setup(self, nplayers, rid, cpus):
        from picoyacht import newgame  # not held: the app drops it when the game starts

        app = self.app
        self.pick(menus.T_NEW)
        assert app.screen.NAME == "setup"
        s = app.settings
        while s.rid != rid:
            self.pick(newgame.R_RULES)
        while s.nplayers != nplayers:
            self.pick(newgame.R_PLAYERS)
        for seat in range(nplayers):
            want = 2 if seat >= nplayers - cpus else 0
            while s.kinds[seat] != want:
                self.pick(newgame.R_KIND + seat)
        self.pick(newgame.R_START)
        assert app.screen.NAME in ("play", "handover"), app.screen.NAME

    def roll(self):
        g = self.app.turn.game
        self.log.append(g.held if g.rolls_used else 0)
        if self.full:
            self.press(K.B_ROLL)
        else:
            self.cursor_to(len(g.dice))
            self.press(K.B_OK)
        self.d.run_ms(300)  # let the animation finish (a press would also end it)

    def hold(self, mask):
        g = self.app.turn.game
        for i in range(len(g.dice)):
            if (g.held ^ mask) >> i & 1:
                if self.full:
                    self.press(K.B_HOLD1 + i)
                else:
                    self.cursor_to(i)
                    self.press(K.B_OK)
        assert g.held == mask

    def score(self):
        app = self.app
        g = app.turn.game
        box = best_box(g)
        if app.screen.NAME == "play":
            self.cursor_to(len(g.dice) + 1)
            self.press(K.B_OK)
        assert app.screen.NAME == "card"
        idx = app.screen.rows.find(bytes((box,)))
        n = len(app.screen.rows)
        while app.screen.row != idx:
            fwd = (idx - app.screen.row) % n
            self.press(K.B_DOWN if fwd <= n - fwd else K.B_UP)
        self.log.append(128 | box)
        turn = g.turn
        self.press(K.B_OK)
        if app.screen.NAME == "card" and app.screen.confirm:
            self.press(K.B_OK)
        assert g.turn == turn + 1 or g.over

    def play(self):
        app = self.app
        peak = 0
        for _ in range(5000):
            st = app.screen.NAME
            g = app.turn.game
            if st == "over":
                break
            if st == "handover":
                if g.kinds[g.current]:
                    self.d.run_ms(100)
                else:
                    self.press(K.B_OK)
            elif st == "play" and g.kinds[g.current]:
                self.d.run_ms(100)  # a CPU turn at its own pace
            elif st == "play":
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
            elif st == "card":
                self.score()
            else:
                raise AssertionError("unexpected screen " + st)
            if hasattr(gc, "mem_alloc"):
                m = gc.mem_alloc()
                if m > peak:
                    peak = m
        assert app.screen.NAME == "over"
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
    g = p.app.turn.game
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
