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
