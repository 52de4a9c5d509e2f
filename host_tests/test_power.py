"""Sleep and wake on the headless board: idle minutes or "Power off" save the game, blank
the display and sleep the board; the waking press does nothing else; play resumes."""

from test_ux import Rig

from picoyacht import app as A
from picoyacht import buttons as K
from picoyacht import power
from picoyacht.game import HUMAN
from picoyacht.heap import DUE
from picoyacht.policy import best_box
from picoyacht.store import Store

from fakefs import FakeFs

MIN = power.MINUTE_MS


class Cfg:
    pass


def cfg(**kw):
    c = Cfg()
    c.__dict__.update(kw)
    return c


def test_sleep_minutes_from_config():
    assert power.sleep_after_ms(cfg()) == 5 * MIN  # a config.py from before the setting
    assert power.sleep_after_ms(cfg(SLEEP_MIN=3)) == 3 * MIN
    for never in (0, -2, "soon", None):
        assert power.sleep_after_ms(cfg(SLEEP_MIN=never)) == 0
    assert power.sleep_after_ms(cfg(SLEEP_MIN=10 ** 9)) == 24 * 60 * MIN < 2 ** 30


def test_sleep_is_due_on_power_off_or_after_the_idle_time():
    assert power.sleep_due(True, 0, 0)
    assert power.sleep_due(False, 5 * MIN, 5 * MIN)
    assert not power.sleep_due(False, 5 * MIN - 1, 5 * MIN)
    assert not power.sleep_due(False, 10 ** 8, 0)  # 0: never


def rig(minutes=1, store=None):
    r = Rig(store=store)
    r.runner.power.after_ms = minutes * MIN
    r.new_game((HUMAN,))
    r.d.press(K.B_ROLL)
    return r


def test_idle_minutes_blank_the_display_and_sleep_the_board_once():
    r = rig()
    r.d.run_ms(MIN - 2000)
    assert r.board.sleeps == 0 and r.board.i2c.on
    r.d.run_ms(3000)
    assert r.board.sleeps == 1
    assert not r.board.i2c.on and r.app.power == A.BLANK
    r.d.run_ms(MIN // 2)  # asleep on the headless board means: no new sleep until a minute
    assert r.board.sleeps == 1


def test_the_waking_press_does_nothing_else_and_play_resumes():
    r = rig()
    g = r.app.turn.game
    dice, rolls = bytes(g.dice), g.rolls_used
    r.d.run_ms(10000)  # the roll's notes gone: the frame play rests on
    frame = r.d.frame()
    r.board.wake = lambda: r.board.__setattr__("raw", 1 << K.B_ROLL)  # held while asleep
    r.d.run_ms(MIN - 9000)
    assert r.board.sleeps == 1
    r.d.run_ms(40)
    r.board.raw = 0
    r.d.run_ms(200)
    assert r.board.i2c.on and r.app.power == A.AWAKE
    assert (bytes(g.dice), g.rolls_used) == (dice, rolls)  # the press did not roll
    assert r.d.frame() == frame and r.app.screen.NAME == "play"
    r.d.press(K.B_ROLL)  # the next press plays
    assert g.rolls_used == rolls + 1
    assert r.board.sleeps == 1


def test_power_off_saves_the_move_first_and_resumes_after_a_reboot():
    fs = FakeFs()
    r = rig(minutes=0, store=Store(fs, "/saves"))
    app = r.app
    g = app.turn.game
    box = best_box(g)
    app.show(app.turn.score(box))  # its save is due in a later pass; power off must not lose it
    app.power_off()
    assert r.runner.power.step(app, False, r.board.ticks_ms())
    assert r.board.sleeps == 1 and not r.board.i2c.on and not app.off
    assert app.turn.saving < DUE  # nothing left to save: the move was saved first
    r2 = Rig(store=Store(fs.reboot(), "/saves"))
    assert r2.app.turn.game is not None and r2.app.turn.game.is_filled(0, box)


def test_power_off_from_the_menu_returns_to_the_game_asleep():
    r = rig(minutes=0)  # never by time: only the menu item sleeps it
    r.d.run_ms(10 * MIN)
    assert r.board.sleeps == 0
    r.d.press(K.B_MENU)  # wakes the blank display only
    r.d.press(K.B_MENU)
    assert r.app.screen.NAME == "menu"
    assert r.d.pick(6)  # menus' "Power off"
    assert r.board.sleeps == 1 and r.app.screen.NAME == "play" and not r.board.i2c.on


def test_the_clock_slows_while_the_display_rests():
    r = rig()
    assert r.board.fast
    r.d.run_ms(A._DIM_MS + 500)
    assert not r.board.fast
    r.d.press(K.B_UP)
    assert r.board.fast and r.board.clock_changes == 2
