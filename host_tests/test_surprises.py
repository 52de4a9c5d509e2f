"""No surprises for the player, through the real App on the headless board (CPython):
a saved game is never replaced without asking, Maxi's status row fits at every count, a
resume never replays dice nor gives a free roll, "Score 0?" waits for the next key, game
over leads back to its summary and plays again, and one human against CPUs is not asked
for a key between their own turns."""

import pytest
from board_sim import FULL, Driver, HeadlessBoard

from picoyacht import app as A
from picoyacht import buttons as K
from picoyacht import menus, newgame, strategy_table
from picoyacht.game import HUMAN, ZERO
from picoyacht.heap import DUE
from picoyacht.rules import NAME, YAHTZEE
from picoyacht.store import Store

from fakefs import FakeFs


@pytest.fixture(autouse=True)
def no_tables(monkeypatch):
    """Whether `make tables` was run must not change what a CPU seat does here (and other
    test modules in the same worker keep the real function)."""
    monkeypatch.setattr(strategy_table, "load", lambda game, dirs=(): None)


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


# ---------------------------------------------------------------- a resume replays no dice
QUIT = menus.Menu.LABELS.index("Quit to title")


def _roll(r):
    r.d.press(K.B_ROLL)
    r.d.run_ms(500)
    return bytes(r.app.turn.game.dice)


def test_a_power_cut_after_a_roll_resumes_with_those_dice_and_rolls_on():
    """Roll, power cut, resume: the dice seen, the rolls left, and the next roll is the
    one the game would have rolled without the cut. Breaks when only a box saves (the
    resume was back before the roll: the same dice again, a peek and a free roll)."""
    ref = Rig()
    ref.new_game()
    first = _roll(ref)
    ref.d.press(K.B_HOLD1)
    second = _roll(ref)

    r = Rig()
    g = r.new_game()
    assert _roll(r) == first and g.rolls_used == 1
    r = r.reboot()
    assert r.screen == "message" and r.app.screen.title == "Saved game"
    r.d.press(K.B_OK)
    g = r.app.turn.game
    assert r.screen == "play"
    assert bytes(g.dice) == first and g.rolls_used == 1 and g.rolls_left == 2
    r.d.press(K.B_HOLD1)
    assert _roll(r) == second


def test_quit_to_title_keeps_the_holds_across_a_power_cut():
    """Quit to title saves the game as it stands: after a power cut the resumed turn has
    the same dice, rolls and holds. Breaks if quitting saves nothing (the holds are lost)."""
    r = Rig()
    g = r.new_game()
    seen = _roll(r)
    r.d.press(K.B_HOLD1 + 1)
    r.d.press(K.B_HOLD1 + 3)
    r.d.press(K.B_MENU)
    assert r.d.pick(QUIT) and r.screen == "title"
    r.d.run_ms(100)
    r = r.reboot()
    r.d.press(K.B_OK)
    g = r.app.turn.game
    assert bytes(g.dice) == seen and g.rolls_used == 1 and g.held == 0b1010


def test_a_cpus_rolls_are_saved_too():
    """A CPU seat's roll is saved like a human's: a cut mid-turn does not replay it.
    Breaks if only a human's roll saves."""
    r = Rig()
    g = r.new_game((2, HUMAN))  # a CPU Normal starts
    for _ in range(400):
        r.d.run_ms(50)
        if g.rolls_used and r.app.turn.saving < DUE:
            break
    assert g.kinds[g.current] and g.rolls_used
    saved = r.app.turn.restore(r.saved())
    assert bytes(saved.dice) == bytes(g.dice) and saved.rolls_used == g.rolls_used


# ---------------------------------------------------------------- a saved game is asked for
STOP = menus.Menu.LABELS.index("Stop demo")


def _saved_game_at_title(r):
    """A solo game with a box scored, quit to the title: the game the store keeps."""
    r.new_game()
    _roll(r)
    r.d.press(K.B_OK)
    r.d.press(K.B_OK)
    if r.app.screen.NAME == "card":  # a zero box asks again
        r.d.press(K.B_OK)
    assert r.app.turn.game.turn == 1
    r.d.press(K.B_MENU)
    assert r.d.pick(QUIT) and r.screen == "title"
    r.d.run_ms(100)
    return r.saved()


def test_new_game_asks_before_replacing_a_saved_game():
    """New game with a game to resume asks; Keep is chosen, so OK or Menu keeps it (on the
    store and to resume); Down, then OK goes on to setup, whose Start replaces it. Breaks if
    New game opens setup at once, or if OK alone answers New game."""
    r = Rig()
    kept = _saved_game_at_title(r)
    for key in (K.B_MENU, K.B_OK):
        assert r.d.pick(menus.T_NEW)
        assert r.screen == "message" and r.app.screen.title == "Replace game?"
        r.d.press(key)
        assert r.screen == "title" and r.app.screen.items[0] == menus.T_RESUME
        r.d.run_ms(100)
        assert r.saved() == kept and r.app.turn.game.turn == 1
    assert r.d.pick(menus.T_NEW) and r.screen == "message"
    r.d.press(K.B_DOWN)
    r.d.press(K.B_OK)
    assert r.screen == "setup" and r.saved() == kept  # nothing replaced before Start
    assert r.d.pick(newgame.R_START)
    r.d.run_ms(100)
    assert r.app.turn.game.turn == 0 and r.saved() != kept


# Every single key a stray press can give: each button, tapped or held for a long press.
STRAY = [(b, hold) for b in range(K.NBUTTONS) for hold in (40, 800)]


def _question(r, title):
    assert r.screen == "message" and r.app.screen.title == title, r.screen


@pytest.mark.parametrize("btn,hold", STRAY)
def test_no_single_key_replaces_a_saved_game(btn, hold):
    """From the title's New game and from the boot's offer (its Menu is "new"), the
    question takes any one key, tapped or held, without opening setup or losing the game."""
    r = Rig()
    kept = _saved_game_at_title(r)
    assert r.d.pick(menus.T_NEW)
    _question(r, "Replace game?")
    r.d.press(btn, hold=hold)
    assert r.screen in ("title", "message"), r.screen
    r = r.reboot()  # the boot offers the game; its Menu asks the same question
    assert r.screen == "message" and r.app.screen.title == "Saved game"
    r.d.press(K.B_MENU)
    _question(r, "Replace game?")
    r.d.press(btn, hold=hold)
    assert r.screen in ("title", "message"), r.screen
    r.d.run_ms(100)
    assert r.saved() == kept


def _records_question(r):
    assert r.d.pick(menus.T_RECORDS) and r.screen == "records"
    r.d.press(K.B_OK, hold=800)
    _question(r, "Clear records?")


@pytest.mark.parametrize("btn,hold", STRAY)
def test_no_single_key_clears_the_records(btn, hold):
    """"Clear records?" (a long OK on the records screen) takes any one key, tapped or held,
    and every record is still there, on the store too. Breaks with the old question, whose
    OK (or Roll) cleared them."""
    r = Rig()
    r.app.records.add(r.new_game())
    assert r.app.save("records", r.app.records.pack())
    r.app.home()
    _records_question(r)
    r.d.press(btn, hold=hold)
    r.d.run_ms(100)
    assert r.app.records.games(YAHTZEE) == 1
    assert r.reboot().app.records.games(YAHTZEE) == 1


def test_down_then_ok_clears_the_records():
    r = Rig()
    r.app.records.add(r.new_game())
    assert r.app.save("records", r.app.records.pack())
    r.app.home()
    _records_question(r)
    r.d.press(K.B_DOWN)
    r.d.press(K.B_OK)
    assert r.screen == "records" and r.app.records.games(YAHTZEE) == 0
    assert r.reboot().app.records.games(YAHTZEE) == 0


def test_no_question_without_a_game_to_resume():
    r = Rig()
    assert r.d.pick(menus.T_NEW) and r.screen == "setup"


def test_a_demo_leaves_the_saved_game_to_resume():
    """Demo, then Stop demo: the game to resume is back, as it was, and the store never
    held the demo. Breaks if the demo replaces the game (Resume was gone)."""
    r = Rig()
    kept = _saved_game_at_title(r)
    game = r.app.turn.game
    assert r.d.pick(menus.T_DEMO)
    r.d.run_ms(4000)
    assert r.app.turn.demo and r.app.turn.game is not game
    r.d.press(K.B_MENU)
    assert r.d.pick(STOP) and r.screen == "title"
    assert r.app.screen.items[0] == menus.T_RESUME and r.app.turn.game is game
    r.d.run_ms(100)
    assert r.saved() == kept
    assert r.d.pick(menus.T_RESUME) and r.screen == "play"
    assert r.app.turn.game.snapshot() == kept


def test_any_way_to_the_title_ends_a_demo_and_gives_the_game_back():
    """The title ends a demo however it is reached (here a fault's "Oops" note)."""
    r = Rig()
    _saved_game_at_title(r)
    game = r.app.turn.game
    assert r.d.pick(menus.T_DEMO)
    r.d.run_ms(2000)
    r.app.fault(RuntimeError("test"))
    r.d.press(K.B_OK)
    assert r.screen == "title" and not r.app.turn.demo and r.app.turn.game is game


# ---------------------------------------------------------------- game over, and again
AGAIN = menus.Menu.LABELS.index("Play again")
RESULTS = menus.Menu.LABELS.index("Back to results")


def _to_game_over(r):
    from picoyacht.policy import best_box

    app = r.app
    g = app.turn.game
    while not g.over:
        if not g.rolls_used:
            g.roll()
        app.show(app.turn.score(best_box(g)))
    r.d.run_ms(300)
    assert r.screen == "over"
    return g


def test_game_over_ratings_and_menu_lead_back_to_the_summary():
    """From the ratings, Menu (or OK on the last page) is back at the summary; Menu there
    offers the results again. Breaks if either goes to the title, as it did."""
    r = Rig()
    r.new_game((HUMAN, HUMAN))
    r.d.press(K.B_OK)
    _to_game_over(r)
    r.d.press(K.B_OK)
    assert r.screen == "ratings"
    r.d.press(K.B_DOWN)
    r.d.press(K.B_MENU)
    assert r.screen == "over"
    r.d.press(K.B_OK)
    for _ in range(r.app.screen.pages()):
        r.d.press(K.B_OK)
    assert r.screen == "over"
    r.d.press(K.B_MENU)
    assert r.screen == "menu" and r.app.screen.items[0] == RESULTS
    r.d.press(K.B_OK)
    assert r.screen == "over"


def test_play_again_starts_the_same_seats_afresh():
    """Game over, Menu, Play again: a new game of the same rule set, options, names and
    player types, from its first turn, saved; its dice are new. Breaks without the item."""
    from picoyacht.rules import YATZY

    r = Rig()
    s = r.app.settings
    s.names[:2] = ["Ann", "Bo"]
    s.options.bonus100 = True
    old = r.new_game((HUMAN, 1), rid=YATZY)
    r.d.press(K.B_OK)
    _to_game_over(r)
    assert r.app.store.load("game") is None  # a finished game is not kept
    s.nplayers = 4  # setup changed since: the game's own seats count
    r.d.press(K.B_MENU)
    assert r.d.pick(AGAIN)
    g = r.app.turn.game
    assert g is not old and not g.over and g.turn == 0 and g.rolls_used == 0
    assert (g.rs, g.names, bytes(g.kinds)) == (old.rs, old.names, bytes(old.kinds))
    assert g.options.pack() == old.options.pack() and g.seed != old.seed
    assert r.screen in ("handover", "play")
    r.d.run_ms(100)
    assert r.saved() == g.snapshot()


def test_game_over_says_how_to_play_again_when_the_row_is_free():
    r = Rig()
    r.new_game()
    _to_game_over(r)
    from picoyacht.screens import W

    page = bytes(r.board.i2c.ram[7 * 128:7 * 128 + W])
    assert any(page) and r.app.screen.prompt == "Menu: play again"


# ---------------------------------------------------------------- one human, no hand-overs
def _score_by_keys(r):
    _roll(r)
    r.d.press(K.B_OK)
    r.d.press(K.B_OK)
    if r.screen == "card":  # a zero box asks again
        r.d.press(K.B_OK)


def _run_until(r, cond, ms=60000):
    for _ in range(ms // 50):
        if cond():
            return True
        r.d.run_ms(50)
    return cond()


def test_one_human_against_cpus_is_not_asked_for_a_key_between_turns():
    """The human scores; the CPUs play, each box shown on its hand-over; the human's turn
    comes back with no key pressed, and the last CPU box waits on the play screen until
    the human's first key. Breaks if the hand-over waits for "OK: start turn"."""
    r = Rig()
    g = r.new_game((HUMAN, 1, 1))
    assert r.screen == "handover"
    assert _run_until(r, lambda: r.screen == "play", 3000)  # no key: the first turn too
    _score_by_keys(r)
    presses = r.d.presses
    shown = []
    assert _run_until(r, lambda: shown.append(r.screen) or (g.turn == 3 and r.screen == "play"))
    assert r.d.presses == presses and "handover" in shown
    note = r.app.status.text
    who = g.names[2] + ": "
    assert note.startswith(who) and len(note) > len(who)
    assert g.rs.boxes[r.app.turn.last_box][NAME].startswith(note[len(who):])
    assert r.app.status.num == r.app.turn.last_pts
    r.d.run_ms(5000)
    assert r.app.status.text == note  # still there: read at the player's pace
    r.d.press(K.B_ROLL)
    assert g.rolls_used == 1 and not r.app.status.text  # the key acts as well


def test_two_humans_still_hand_over_with_a_key():
    """Between two humans (a CPU between them or not) the hand-over waits for a key."""
    r = Rig()
    g = r.new_game((HUMAN, 1, HUMAN))
    r.d.press(K.B_OK)
    _score_by_keys(r)
    assert _run_until(r, lambda: g.current == 2 and r.screen == "handover")
    r.d.run_ms(10000)
    assert r.screen == "handover" and g.current == 2 and not g.rolls_used


def test_a_saves_garbage_is_collected_in_a_pass_of_its_own(monkeypatch):
    """After a roll: a pass collects, the next writes the save, the next commits it (its
    renames: with the write, littlefs compacting its folder made one pass over 50 ms on
    the emulated Pico), the next collects what the save left (the passes after a save ran
    slower on the Pico with its garbage about), and none of them draws. Breaks without
    the last collection, or with the save's halves in one pass."""
    from picoyacht import heap

    r = Rig()
    r.new_game()
    r.d.run_ms(200)
    seen = []
    monkeypatch.setattr(heap.gc, "collect", lambda: seen.append("collect"))
    store = r.app.store
    write, commit = store.write, store.commit
    monkeypatch.setattr(store, "write", lambda k, p: seen.append("write") or write(k, p))
    monkeypatch.setattr(store, "commit", lambda k: seen.append("commit") or commit(k))
    r.board.raw |= 1 << K.B_ROLL
    g = r.app.turn.game
    for _ in range(20):
        r.runner.step()
        if g.rolls_used:
            break
    frames = r.app.frames
    for _ in range(4):
        seen.append("pass")
        r.runner.step()
    r.board.raw = 0
    assert seen == ["pass", "collect", "pass", "write", "pass", "commit", "pass", "collect"]
    assert r.app.frames == frames


def test_game_over_lets_go_of_the_engine_before_the_records_save(monkeypatch):
    """The search's work arrays are most of a game's heap, and the records' save at game
    over needs room: on the emulated Pico a 4-seat Maxi game's end failed that save for
    want of it. So by the time the records are written the engine is garbage; Play again
    builds a new one. Breaks without Turn's coach.release() at game over."""
    import gc
    import weakref

    from picoyacht import strategy

    r = Rig()
    g = r.new_game((2, HUMAN))  # a Normal CPU seat: the engine is built as it plays
    _run_until(r, lambda: g.current == 1)
    engine = weakref.ref(strategy.run(strategy.engine_steps(g)))  # the one it played with
    held = []
    write = r.app.write

    def watch(kind, payload):
        if kind == "records":
            gc.collect()
            held.append(engine() is not None)
        return write(kind, payload)

    monkeypatch.setattr(r.app, "write", watch)
    _to_game_over(r)
    assert held == [False]
    assert strategy.run(strategy.engine_steps(g)) is not None  # built anew when asked


def test_a_game_end_that_raises_still_shows_the_results(monkeypatch):
    """A bug in the records' step at the game's end (here pack() raising) is a fault the
    loop reports; the end goes on to the results, and keys work there. Breaks when the end
    stays pending after the fault: every key is then spent, the fault's OK too."""
    r = Rig()
    r.new_game((HUMAN,))

    def broken():
        raise RuntimeError("a bug")

    monkeypatch.setattr(r.app.records, "pack", broken)
    _to_game_over(r)
    r.d.press(K.B_OK)
    assert r.screen == "ratings"


def test_a_game_start_that_raises_is_reported_once_and_setup_works_again(monkeypatch):
    """A bug in the game's making at the end of setup's Start (here Game() raising) is a
    fault the loop reports once; its OK goes to the title and a new setup starts a game.
    Breaks when the start stays pending after the fault: it raises again every pass."""
    from picoyacht import turn

    r = Rig()
    faults = []
    fault = r.app.fault
    r.app.fault = lambda e: (faults.append(e), fault(e))

    def broken(*a):
        raise RuntimeError("a bug")

    monkeypatch.setattr(turn, "Game", broken)
    assert r.d.pick(menus.T_NEW)
    assert r.d.pick(newgame.R_START)
    r.d.run_ms(500)
    assert r.screen == "message" and len(faults) == 1, (r.screen, faults)
    monkeypatch.undo()
    r.d.press(K.B_OK)
    assert r.screen == "title"
    assert r.d.pick(menus.T_NEW) and r.d.pick(newgame.R_START)
    r.d.run_ms(300)
    assert r.screen in ("play", "handover") and r.app.turn.game is not None


@pytest.mark.parametrize("fails", [1, 2])
def test_a_save_out_of_heap_borrows_the_search_s_heap_and_is_tried_again(monkeypatch, fails):
    """On the emulated Pico a 4-seat game's save found no run of heap for the file's buffer
    while the search's arrays split it. The save beats the search. First the engine lends
    its largest work array and the save is tried again; the engine and its tables stay, and
    the next decision takes an array back. If the save fails again the whole engine goes
    and the save has a last try. Breaks without the retries in app._store_save, or with
    Coach.release(lend=True) letting go of the whole engine."""
    import gc
    import weakref

    from picoyacht import strategy

    r = Rig()
    g = r.new_game((2, HUMAN))
    _run_until(r, lambda: g.current == 1)
    engine = weakref.ref(strategy.run(strategy.engine_steps(g)))
    store = r.app.store
    real = store.write
    calls = []

    def tight(kind, payload):
        calls.append(kind)
        if len(calls) <= fails:
            raise MemoryError("memory allocation failed, allocating 1148 bytes")
        return real(kind, payload)

    monkeypatch.setattr(store, "write", tight)
    assert r.app.save("game", b"payload")
    gc.collect()
    assert calls == ["game"] * (fails + 1)
    assert not r.app.save_state.failed
    if fails == 2:
        assert engine() is None
    else:
        assert engine() is not None and engine().hold_values is None
        again = strategy.run(strategy.engine_steps(g))
        assert again is engine() and len(again.hold_values) == again.dice.nkeeps
    assert strategy.run(strategy.engine_steps(g)) is not None  # built anew when asked
