"""No surprises (issue 28, item 3), through the real App on the headless board (CPython):
a saved game is never replaced without asking, Maxi's status row fits at every count, a
resume never replays dice nor gives a free roll, "Score 0?" waits for the next key, game
over leads back to its summary and plays again, and one human against CPUs is not asked
for a key between their own turns."""

from board_sim import FULL, Driver, HeadlessBoard

from picoyacht import app as A
from picoyacht import buttons as K
from picoyacht import menus, newgame, strategy_table
from picoyacht.game import HUMAN, ZERO
from picoyacht.rules import YAHTZEE
from picoyacht.store import Store

from fakefs import FakeFs

# Whether `make tables` was run must not change what a CPU seat does here.
strategy_table.load = lambda game, dirs=(): None


class Rig:
    """The app on a headless board with a flash of its own; reboot() is a power cut."""

    def __init__(self, fs=None, entropy=b"\x2a\x00\x00\x00"):
        self.fs = fs if fs is not None else FakeFs()
        self.board = HeadlessBoard(FULL, Store(self.fs, "/saves"), entropy)
        self.runner = A.Runner(self.board)
        self.app = self.runner.app
        self.d = Driver(self.board, self.runner)
        self.d.run_ms(30)

    def reboot(self, entropy=b"\x07\x00\x00\x00"):
        return Rig(self.fs.reboot(), entropy)

    @property
    def screen(self):
        return self.app.screen.NAME

    def new_game(self, kinds=(HUMAN,), rid=YAHTZEE):
        s = self.app.settings
        s.rid = rid
        s.nplayers = len(kinds)
        s.kinds[:len(kinds)] = bytes(kinds)
        assert self.d.pick(menus.T_NEW)
        assert self.d.pick(newgame.R_START)
        return self.app.turn.game

    def saved(self):
        return bytes(self.app.store.load("game") or b"")


# ---------------------------------------------------------------- "Score 0?" waits
def test_score_zero_question_waits_for_the_next_key_however_late():
    """The second OK scores the 0 even long after the first. Breaks if the question is a
    timed note, or the card forgets it when the note is gone (its old tick())."""
    r = Rig()
    g = r.new_game()
    r.d.press(K.B_ROLL)
    r.d.run_ms(500)
    g.dice[:] = b"\x01\x01\x02\x03\x04"  # no Sixes: that box scores 0
    r.d.press(K.B_OK)
    card = r.app.screen
    assert r.screen == "card"
    while card.rows[card.row] != 5:
        r.d.press(K.B_DOWN)
    card.work_out(g, True)
    assert card.states[5] == ZERO
    r.d.press(K.B_OK)
    assert card.confirm and r.app.status.text.startswith("Score 0?")
    r.d.run_ms(10000)  # a player thinking it over
    assert r.app.status.text.startswith("Score 0?")
    r.d.press(K.B_OK)
    assert g.is_filled(0, 5) and g.box_score(0, 5) == 0


def test_score_zero_question_is_dropped_by_a_move():
    """A cursor move drops the question: OK on another zero box asks again."""
    r = Rig()
    g = r.new_game()
    r.d.press(K.B_ROLL)
    r.d.run_ms(500)
    g.dice[:] = b"\x01\x01\x02\x03\x04"
    r.d.press(K.B_OK)
    card = r.app.screen
    while card.rows[card.row] != 4:  # Fives: 0
        r.d.press(K.B_DOWN)
    r.d.press(K.B_OK)
    assert card.confirm
    r.d.press(K.B_DOWN)  # Sixes: 0 too
    assert not card.confirm and not r.app.status.text
    r.d.press(K.B_OK)
    assert card.confirm and not g.is_filled(0, 5)


# ---------------------------------------------------------------- Maxi's status row
def _row(used, left, rnd, nboxes):
    import framebuf

    from picoyacht.play import rolls_row
    from picoyacht.screens import Canvas

    buf = bytearray(1024)
    cv = Canvas(framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB), buf)
    if used + left >= 0:
        rolls_row(cv, used, left, rnd, nboxes, 8)
    else:  # the round alone, where rolls_row puts it
        from picoyacht.screens import CELL, W

        xr = cv.rnum(nboxes, W, 8)
        cv.glyph(47, xr - CELL, 8)
        cv.rnum(rnd, xr - CELL, 8)
    return bytes(buf[128:256])  # the row's page


def test_every_rule_sets_status_row_fits_at_every_count():
    """Exhaustive over rule sets, rounds and rolls (Maxi saves up to 2 a turn, so up to
    3 + 2 * 19 by the last round): the round ("8/20") is drawn whole with two clear columns
    before it, and every (used, left) pair draws a row of its own at each round. Breaks
    with a box per roll at any count (Maxi's 12 boxes covered the round)."""
    from picoyacht.rules import ROLLS_PER_TURN, RULESETS

    for rs in RULESETS:
        most = ROLLS_PER_TURN + (2 * (rs.nboxes - 1) if rs.saved_rolls else 0)
        for rnd in range(1, rs.nboxes + 1):
            alone = _row(0, -1, rnd, rs.nboxes)
            first = next(x for x in range(128) if alone[x])
            seen = set()
            for total in range(most + 1):
                for used in range(total + 1):
                    row = _row(used, total - used, rnd, rs.nboxes)
                    assert row[first - 2:] == alone[first - 2:], (rs.name, rnd, used, total)
                    assert row not in seen, (rs.name, rnd, used, total)
                    seen.add(row)
