"""What the player hears and reads, through the app's buttons on the headless board
(CPython): the sounds at each moment, the Sound setting and its save format, the coach's
tip in a solo game, the words on screen, and setup's two-way values and Start row."""

import pytest
from board_sim import FOUR, FULL, Driver, HeadlessBoard, finish
from records_files import records_v3

from picoyacht import app as A
from picoyacht import buttons as K
from picoyacht import cues, menus, newgame, saves, sound, strategy_table
from picoyacht.game import HUMAN
from picoyacht.policy import A_SCORE, best_box
from picoyacht.rules import CASINO5, YAHTZEE
from picoyacht.screens import CELL


@pytest.fixture(autouse=True)
def no_tables(monkeypatch):
    """Whether `make tables` was run must not change what the coach or setup say here
    (and other test modules in the same worker keep the real functions)."""
    monkeypatch.setattr(strategy_table, "load", lambda game, dirs=(): None)
    monkeypatch.setattr(strategy_table, "available", lambda rid, joker, sharp=False, dirs=(): False)


class Tones:
    """A fake tone(): every call, with the board's time."""

    def __init__(self, board):
        self.board = board
        self.calls = []

    def __call__(self, hz, duty):
        self.calls.append((self.board.t, hz, duty))

    def since(self, mark):
        return [hz for _, hz, _ in self.calls[mark:]]


def heard(*snds):
    """The pitches a run of sounds sends, each ending in silence unless another follows."""
    out = []
    for snd in snds:
        t = sound.SOUNDS[snd]
        out += [sound.FREQ[t[i] - sound.LOW_NOTE] if t[i] else 0 for i in range(0, len(t), 2)]
    return out + [0]


class Rig:
    def __init__(self, present=FULL, store=None, coach=0, volume=None):
        self.board = HeadlessBoard(present, store)
        self.tones = Tones(self.board)
        self.board.tone = self.tones
        self.runner = A.Runner(self.board)
        self.app = self.runner.app
        self.d = Driver(self.board, self.runner)
        self.app.settings.coach = coach
        if volume is not None:
            self.app.set_volume(volume)
        self.d.run_ms(30)

    def new_game(self, kinds=(HUMAN,), rid=YAHTZEE, begin=True):
        app = self.app
        s = app.settings
        s.rid = rid
        s.nplayers = len(kinds)
        s.kinds[:len(kinds)] = bytes(kinds)
        self.d.pick(menus.T_NEW)
        self.d.pick(newgame.R_START)
        g = app.turn.game
        if begin and app.screen.NAME == "handover" and not g.kinds[g.current]:
            self.d.press(K.B_OK)
        return g

    def mark(self):
        return len(self.tones.calls)

    def after(self, mark, ms=2500):
        """The pitches since mark, once every sound has ended."""
        self.d.run_ms(ms)
        assert not self.app.player.playing
        return self.tones.since(mark)

    def score(self, box, faces):
        """Score box with these dice on the card, through OK (twice for a 0)."""
        g = self.app.turn.game
        if not g.rolls_used:
            g.roll()
        g.dice[:] = bytes(faces)
        card = self.app.go("card")
        card.row = bytes(card.rows).index(box)
        self.d.press(K.B_OK)
        if self.app.screen is card and card.confirm:
            self.d.press(K.B_OK)


# ---------------------------------------------------------------- sound through the app
def test_each_moment_plays_its_sound():
    r = Rig()
    g = r.new_game()
    rs = g.rs
    m = r.mark()
    r.d.press(K.B_HOLD1)  # before the first roll: "Roll first", no click
    assert r.after(m) == []
    m = r.mark()
    r.d.press(K.B_ROLL)
    assert r.after(m) == heard(cues.SOUND_ROLL)
    m = r.mark()
    r.d.press(K.B_HOLD1 + 2)
    assert r.after(m) == heard(cues.SOUND_HOLD)
    m = r.mark()
    r.score(0, (1, 1, 2, 3, 4))  # Aces with 2 points
    assert r.after(m) == heard(cues.SOUND_SCORE)
    m = r.mark()
    r.score(5, (1, 1, 2, 3, 4))  # Sixes with none: a scratch, after a second OK
    assert r.after(m) == heard(cues.SOUND_SCRATCH)
    m = r.mark()
    r.score(rs.yahtzee_box, (4, 4, 4, 4, 4))  # the Yahtzee box with points: the fanfare
    assert r.after(m) == heard(cues.SOUND_YAHTZEE)
    m = r.mark()
    r.score(1, (2, 2, 2, 2, 2))  # another Yahtzee, in Twos: the bonus's fanfare
    assert g.ybonus[0] == 1 and r.after(m) == heard(cues.SOUND_YAHTZEE)
    while g.rs.nboxes - g.turn > 1:  # all but the last box
        if not g.rolls_used:
            g.roll()
        r.app.show(r.app.turn.score(best_box(g)))
    r.d.run_ms(2500)
    m = r.mark()
    g.roll()
    r.score(best_box(g), (6, 6, 6, 6, 5))
    assert r.app.screen.NAME == "over"
    assert r.after(m) == heard(cues.SOUND_GAME_OVER)  # it outranks the box's own sound


def test_a_yahtzee_scratched_in_its_own_box_is_no_fanfare():
    r = Rig()
    g = r.new_game()
    m = r.mark()
    r.score(g.rs.yahtzee_box, (1, 2, 3, 4, 6))
    assert r.after(m) == heard(cues.SOUND_SCRATCH)


def test_a_cpu_rolls_aloud_and_a_waking_press_is_silent():
    r = Rig()
    r.new_game((HUMAN, 2))
    g = r.app.turn.game
    g.roll()
    r.app.show(r.app.turn.score(best_box(g)))  # now the CPU's turn
    r.d.run_ms(1000)
    m = r.mark()
    r.d.run_ms(6000)
    assert r.tones.since(m)[:len(heard(cues.SOUND_ROLL))] == heard(cues.SOUND_ROLL)
    r.d.run_ms(20000)
    assert g.kinds[g.current] == HUMAN
    r.d.run_ms(A._DIM_MS + 1000)
    assert r.app.power != A.AWAKE
    m = r.mark()
    r.d.press(K.B_ROLL)  # wakes the display only
    assert r.app.power == A.AWAKE and g.rolls_used == 0
    assert r.after(m) == []


def test_volume_off_is_silent_and_each_level_sets_the_duty():
    r = Rig(volume=0)
    r.new_game()
    m = r.mark()
    r.d.press(K.B_ROLL)
    r.d.press(K.B_HOLD1)
    assert r.after(m) == []
    for level in (1, 2, 3):
        r.app.set_volume(level)
        m = r.mark()
        r.d.press(K.B_HOLD1)
        r.d.run_ms(100)
        duties = {d for _, hz, d in r.tones.calls[m:] if hz}
        assert duties == {sound.VOLUME_DUTY[level]}


def test_no_piezo_no_player():
    board = HeadlessBoard(FULL)
    board.tone = None
    app = A.Runner(board).app
    assert app.player is None
    app.sound(cues.SOUND_ROLL)  # nothing to play on, nothing raised


# ---------------------------------------------------------------- the Sound setting
def test_settings_round_trip_with_the_volume():
    s = saves.Settings()
    assert s.volume == cues.VOLUME_DEFAULT
    for v in range(len(cues.VOLUME_NAMES)):
        s.volume = v
        s.nplayers = 3
        s.names[2] = "Zed"
        data = s.pack()
        assert data[:2] == b"S\x02"
        back = saves.Settings.unpack(data)
        assert back.pack() == data and back.volume == v
    bad = bytearray(data)
    bad[7] = len(cues.VOLUME_NAMES)
    with pytest.raises(ValueError):
        saves.Settings.unpack(bytes(bad))


def test_a_format_1_settings_file_loads_at_the_default_volume():
    s = saves.Settings()
    s.rid, s.nplayers, s.coach = 4, 3, 2
    s.names[1] = "Bea"
    v2 = s.pack()
    v1 = b"S\x01" + v2[2:7] + v2[8:]  # what the firmware wrote before sound
    old = saves.Settings.unpack(v1)
    assert old.volume == cues.VOLUME_DEFAULT
    assert (old.rid, old.nplayers, old.coach, old.names) == (4, 3, 2, s.names)
    assert old.pack() == v2
    for cut in range(len(v1)):
        with pytest.raises((ValueError, IndexError)):
            saves.Settings.unpack(v1[:cut])


def test_setup_sound_row_previews_steps_both_ways_and_is_saved_on_leaving():
    from picoyacht.store import Store

    from fakefs import FakeFs

    fs = FakeFs()
    r = Rig(store=Store(fs, "/saves"))
    app = r.app
    r.d.pick(menus.T_NEW)
    assert r.d.select(newgame.R_SOUND)
    start = app.settings.volume
    m = r.mark()
    r.d.press(K.B_OK)
    assert app.settings.volume == (start + 1) % 4 == app.player.volume
    assert r.after(m) == heard(cues.SOUND_SCORE)  # the new level, heard at once
    r.d.press(K.B_ROLL)
    r.d.press(K.B_ROLL)
    assert app.settings.volume == (start - 1) % 4
    r.d.press(K.B_MENU)  # leave setup: the volume is kept for the next boot
    r2 = Rig(store=Store(fs.reboot(), "/saves"))
    assert r2.app.settings.volume == (start - 1) % 4 == r2.app.player.volume


# ---------------------------------------------------------------- setup both ways
@pytest.mark.parametrize("present", [FULL, FOUR])
def test_a_long_ok_steps_a_value_back(present):
    r = Rig(present)
    app = r.app
    r.d.pick(menus.T_NEW)
    s = app.settings
    assert s.nplayers == 2
    assert r.d.select(newgame.R_PLAYERS)
    r.d.press(K.B_OK, hold=800)  # 2 -> 1 in one (long) press, not five
    assert s.nplayers == 1 and app.screen.NAME == "setup"
    r.d.press(K.B_OK)
    assert s.nplayers == 2
    assert r.d.select(newgame.R_COACH)
    for want in (2, 1, 0, 2):
        r.d.press(K.B_OK, hold=800)
        assert s.coach == want


def test_setup_says_how_a_value_steps_both_ways():
    """The help row under the list names the keys of the chosen row: OK forward and a
    held OK back on a value (4-button: A), editing on a name, starting on Start; a held
    OK then steps back as it says. Breaks if the screen does not say it, as it did not."""
    for present, ok in ((FULL, "OK"), (FOUR, "A")):
        r = Rig(present)
        app = r.app
        s = app.settings
        s.nplayers = 2
        r.d.pick(menus.T_NEW)
        setup = app.screen
        setup.sel = bytes(setup.items).index(newgame.R_PLAYERS)
        assert ok + " next  hold " + ok + " back" in words(app)
        r.d.press(K.B_OK, hold=1000)  # a long press
        assert s.nplayers == 1
        setup.sel = bytes(setup.items).index(newgame.R_NAME)
        assert ok + ": edit the name" in words(app)
        setup.sel = len(setup.items) - 1
        assert ok + ": start  " + ("Menu" if ok == "OK" else "B") + ": exit" in words(app)


def test_start_game_is_on_every_setup_page():
    r = Rig()
    app = r.app
    s = app.settings
    s.rid, s.nplayers = CASINO5, 6  # the longest setup: several pages
    r.d.pick(menus.T_NEW)
    setup = app.screen
    items = setup.items
    assert items[-1] == newgame.R_START
    pages = set()
    bottom = set()
    for sel in range(len(items) - 1):
        setup.sel = sel
        app.dirty = True
        app.render()
        pages.add(setup.page)
        bottom.add(r.d.frame()[6 * 128:7 * 128])  # the row under the page: Start, unselected
    assert len(pages) >= 3 and len(bottom) == 1
    setup.sel = 0
    r.d.press(K.B_UP)  # one press from the top reaches Start
    assert items[setup.sel] == newgame.R_START
    r.d.press(K.B_OK)
    assert app.screen.NAME in ("play", "handover")


# ---------------------------------------------------------------- the coach in solo games
def costly_chance(r):
    """Score five sixes in Chance: the coach gives a tip."""
    g = r.app.turn.game
    chance = [b[1] for b in g.rs.boxes].index("CH")
    r.score(chance, (6, 6, 6, 6, 6))


def test_a_tip_leaves_the_rolls_left_and_the_round_in_view():
    """While a tip takes the status row, the title bar carries the rolls left and the
    round. Breaks if the tip covers them, as it did."""
    r = Rig(coach=2)
    r.new_game()
    costly_chance(r)
    app = r.app
    g = app.turn.game
    assert app.screen.NAME == "play" and app.status.text
    in_bar = [n for n, x, y in numbers(app, "num") if y == 0]
    assert in_bar == [g.rolls_left, g.turn // g.nseats + 1, g.rs.nboxes]


def test_solo_tip_stays_on_the_play_screen_until_a_key():
    r = Rig(coach=2)
    r.new_game()
    costly_chance(r)
    app = r.app
    assert app.screen.NAME == "play"
    tip = app.status.text
    # it names the dice it judged (the next turn's "?" dice have replaced them); no table
    # here: the figure is Normal's estimate, and says so
    assert tip.startswith("66666 ~gave ") and tip.endswith("\nTake Yahtzee 50"), tip
    assert "Rolls" not in app.status.text
    r.d.run_ms(20000)  # as long as the player needs
    assert app.status.text == tip
    r.d.press(K.B_ROLL)  # the next key clears it, and rolls as usual
    assert not app.status.text.startswith("66666") and app.turn.game.rolls_used == 1


def test_tip_waits_when_a_cpu_plays_next():
    r = Rig(coach=2)
    r.new_game((HUMAN, 1))
    costly_chance(r)
    app = r.app
    assert app.screen.NAME == "handover" and app.turn.coach_line
    r.d.run_ms(5000)  # a CPU's hand-over usually goes on after 1.2 s
    assert app.screen.NAME == "handover"
    r.d.press(K.B_OK)
    assert app.screen.NAME == "play" and app.turn.game.kinds[app.turn.game.current]


def test_a_cpus_own_tip_does_not_wait():
    r = Rig(coach=2)
    g = r.new_game((1, 1))  # two (Easy: judged without a table) CPUs: nobody to read it
    g.roll()
    g.dice[:] = bytes((6, 6, 6, 6, 6))
    r.app.show(r.app.turn.score([b[1] for b in g.rs.boxes].index("CH")))  # the CPU wastes a Yahtzee
    assert r.app.screen.NAME == "handover" and r.app.turn.coach_line
    r.d.run_ms(2000)  # the hand-over goes on by itself after 1.2 s
    assert r.app.screen.NAME == "play"


# ---------------------------------------------------------------- words on screen
def words(app):
    """Every string the current screen draws."""
    got = []
    cv = app.cv
    text, big = cv.text, cv.big

    def spy(s, x, y, c=1, maxlen=99):
        got.append(s[:maxlen])
        return text(s, x, y, c, maxlen)

    def spy_big(s, x, y, scale=2, c=1):
        got.append(s)
        return big(s, x, y, scale, c)

    cv.text, cv.big = spy, spy_big
    try:
        app.screen.draw(cv)
    finally:
        del cv.text, cv.big
    return got


def numbers(app, method):
    """Every (number, x, y) the current screen draws with Canvas.<method> (num or rnum)."""
    got = []
    cv = app.cv
    draw = getattr(cv, method)

    def spy(n, x, y, c=1):
        got.append((n, x, y))
        return draw(n, x, y, c)

    setattr(cv, method, spy)
    try:
        words(app)
    finally:
        delattr(cv, method)
    return got


def test_game_over_solo_says_no_winner_and_labels_its_columns():
    r = Rig()
    r.new_game()
    finish(r.app)
    w = words(r.app)
    assert r.app.screen.NAME == "over"
    assert not any(s.startswith("Winner") for s in w)
    assert "New best score!" in w and "total" in w  # the first game sets the record
    r2 = Rig(coach=2)
    r2.new_game((HUMAN, 1))
    finish(r2.app)
    w = words(r2.app)
    assert "~gave" in w and "total" in w and "Worst move: " in w  # "~": no table here
    assert any(s.startswith("Winner") for s in w)
    r3 = Rig()
    r3.app.records = saves.Records.unpack(records_v3({YAHTZEE: (1, 999, "Ann")}))
    r3.new_game()
    finish(r3.app)
    assert "Best so far " in words(r3.app)


def test_hint_names_the_move_then_the_final_total_to_expect():
    """Two rows: the move in words, then the final total to expect (the same at every
    level), marked as an estimate with no table here."""
    r = Rig(coach=1)
    g = r.new_game()
    r.d.press(K.B_ROLL)
    g.dice[:] = bytes((6, 6, 6, 6, 6))  # a new position: the hint is thought anew
    r.app.screen.hint()
    move, total = r.app.status.text.split("\n")
    assert move == "Take Yahtzee 50" and total.startswith("Est. final avg ")
    assert float(total.split()[-1]) >= 50 + 150  # the Yahtzee banked and a whole game to come


def test_without_a_table_the_coach_does_not_judge_cpus_by_their_own_estimate():
    """No table: a Normal (or Expert) CPU plays by the very estimate the coach would judge
    it with, so every move of its would show "gave 0.0". Game over shows "-" for it and
    judges the human and Easy seats. Control: a Coach.judges that answers True for every
    seat puts "0.0" back for the CPU."""
    r = Rig(coach=2)
    r.new_game((HUMAN, 1, 2, 3))
    coach = r.app.turn.coach
    finish(r.app)
    g = r.app.turn.game
    assert [coach.judges(g, s) for s in range(4)] == [True, True, False, False]
    seen = []
    rtext = r.app.cv.rtext
    r.app.cv.rtext = lambda s, xr, y, c=1: seen.append((s, xr)) or rtext(s, xr, y, c)
    try:
        r.app.screen.draw(r.app.cv)
    finally:
        del r.app.cv.rtext
    assert seen.count(("-", 92)) == 2
    assert coach.given(2) == coach.given(3) == 0


def ratings_rows(app, seat):
    """(label, number) of every row the ratings pages draw for a seat, under the header."""
    cv, screen = app.cv, app.screen
    text, rnum = cv.text, cv.rnum
    drawn = {}

    def spy_text(s, x, y, c=1, maxlen=99):
        drawn.setdefault(y, [s[:maxlen], 0])
        return text(s, x, y, c, maxlen)

    def spy_rnum(n, xr, y, c=1):
        if y in drawn:
            drawn[y][1] = n
        return rnum(n, xr, y, c)

    rows = []
    per_seat = screen.pages() // app.turn.game.nseats
    for page in range(seat * per_seat, (seat + 1) * per_seat):
        screen.page = page
        drawn.clear()
        cv.text, cv.rnum = spy_text, spy_rnum
        try:
            screen.draw(cv)
        finally:
            del cv.text, cv.rnum
        rows += [tuple(drawn[y]) for y in sorted(drawn) if y]
    return rows


@pytest.mark.parametrize("rid", range(6))
def test_ratings_name_every_box_and_add_up_to_the_total(rid):
    """The ratings list each box by its full name, the upper bonus, and (jokers) the
    Yahtzee bonus: the numbers add up to the seat's total (the seats reach the bonus here).
    Control: leaving out the bonus rows fails every rule set."""
    from picoyacht.rules import NAME

    r = Rig()
    r.new_game((HUMAN, HUMAN), rid=rid)
    g = r.app.turn.game
    while not g.over:  # the upper boxes first, with five of the face: the bonus is reached
        if not g.rolls_used:
            g.roll()
        b = g.turn // g.nseats
        if b < 6:
            g.dice[:] = bytes([b + 1] * len(g.dice))
        r.app.show(r.app.turn.score(b if b < 6 else best_box(g)))
    r.d.run_ms(100)  # the end's passes: the records on flash, then the results
    r.d.press(K.B_OK)
    assert r.app.screen.NAME == "ratings"
    for seat in range(2):
        rows = ratings_rows(r.app, seat)
        assert [label for label, _ in rows[:g.rs.nboxes]] == [b[NAME] for b in g.rs.boxes]
        assert rows[g.rs.nboxes][0] == "Upper bonus" and g.upper_bonus(seat) > 0
        assert sum(n for _, n in rows) == g.total(seat)


def test_game_over_names_the_worst_move_in_words():
    """"Worst move: Ann", then the round, the box's name and what it gave away, positive
    as the tips say it (no "r6", no "-17.1")."""
    r = Rig(coach=2)
    r.new_game((HUMAN, HUMAN))
    costly_chance(r)
    r.d.press(K.B_OK)
    finish(r.app)
    w = words(r.app)
    assert "Worst move: " in w and "Ann" in w and "round " in w and "Chance" in w
    assert "~gave" in w and not any(s.startswith("r") and s[1:].isdigit() for s in w)


def _no_heap(*args):
    raise MemoryError("no heap for the search")


def test_a_hint_without_the_search_says_so_and_names_what_it_marks(monkeypatch):
    """The fallback answers "roll" when the holds already keep its face: the dots then mark
    those holds, so the text must name them, not say "Roll all"; and it says the search
    did not run, which the log records."""
    from picoyacht import strategy

    r = Rig(coach=1)
    g = r.new_game()
    r.d.press(K.B_ROLL)
    g.dice[:] = bytes((4, 4, 4, 2, 5))  # a new position: the hint is thought anew
    g.set_held(0b00111)  # the fallback's own hold
    monkeypatch.setattr(strategy, "advise_steps", _no_heap)
    r.app.screen.hint()
    assert r.app.screen.hint_mask == 0b00111
    assert r.app.status.text == "Hold 4 4 4, roll\nLow mem: simple hint"
    assert any('"ev":"cpu_error"' in line and "MemoryError" in line for line in r.board.lines)


def test_a_cpu_without_the_search_says_so(monkeypatch):
    from picoyacht import strategy

    monkeypatch.setattr(strategy, "cpu_steps", _no_heap)
    r = Rig()
    notes = []
    show = r.app.note

    def spy(text, num=-1, *stay):
        notes.append(text)
        show(text, num, *stay)

    r.app.note = spy
    g = r.new_game((3,))
    r.d.run_ms(4000)
    assert g.rolls_used or g.turn  # the fallback plays on
    assert "Low mem: simple CPU" in notes
    assert any('"ev":"cpu_error"' in line for line in r.board.lines)


def test_a_table_out_of_heap_is_read_again_later(monkeypatch):
    """Expert's table that found no heap is not given up for the game (Expert would then
    estimate to its end): the log says so, the fallback plays a few steps, and the table
    is read again."""
    from picoyacht import strategy_table

    reads = []
    load = strategy_table.load

    def short_once(game, *dirs):
        reads.append(game.turn)
        if len(reads) == 1:
            raise MemoryError("no heap for the table")
        return load(game, *dirs)

    monkeypatch.setattr(strategy_table, "load", short_once)
    r = Rig()
    g = r.new_game((3,))
    r.d.run_ms(20000)
    assert any('"ev":"cpu_error"' in line and "MemoryError" in line for line in r.board.lines)
    assert len(reads) == 2 and g.turn, reads


def test_scores_table_names_are_whole_when_there_is_room():
    r = Rig()
    r.app.settings.names[1] = "Beatrice"
    r.new_game((HUMAN, HUMAN))
    r.app.go("scores")
    assert "Beatrice" in words(r.app)


def test_the_handover_line_shortens_a_long_box_name_not_its_points():
    r = Rig()
    app = r.app
    app.settings.names[0] = "Annabell"  # 8 characters, the most a name has
    g = r.new_game((HUMAN, HUMAN))
    small = [b[1] for b in g.rs.boxes].index("SS")  # "Small straight": 27 characters in all
    r.score(small, (1, 2, 3, 4, 6))
    assert app.screen.NAME == "handover" and g.scores[small] == 30
    nums = numbers(app, "num")
    w = words(app)
    line = [(x, n) for n, x, y in nums if y == 40]
    assert [n for _, n in line] == [30], nums
    assert line[0][0] + 2 * CELL <= 1 + 21 * CELL  # within the line's 21 characters
    assert "Annabell" in w and ": " in w and "Sm str" in w, w  # its short form, whole


def test_a_failed_load_ahead_is_tried_once_and_the_press_still_opens_its_screen():
    r = Rig()
    r.new_game()
    app = r.app
    tries = []
    find = app.find

    def short_of_heap(name):  # the scores' module cannot load while the menu is up
        if name == "scores" and app.screen.NAME == "menu":
            tries.append(name)
            raise MemoryError
        return find(name)

    app.find = short_of_heap
    app._screens.pop("scores", None)
    r.d.press(K.B_MENU)
    r.d.run_ms(500)
    assert app.screen.NAME == "menu" and tries == ["scores"]  # once, and no fault shown
    del app.find
    r.d.press(K.B_DOWN)
    r.d.press(K.B_OK)
    assert app.screen.NAME == "scores"


def test_four_button_prompts_name_a_and_b():
    r = Rig(FOUR)
    r.new_game((HUMAN, HUMAN))
    r.app.show("handover")
    w = words(r.app)
    assert "A: start turn" in w and not any("OK" in s for s in w)
    r.app.offer_resume()
    assert r.app.screen.hint == "A resume  B: new"
    full = Rig()
    full.new_game((HUMAN, HUMAN))
    full.app.offer_resume()
    assert full.app.screen.hint == "OK resume  Menu: new"


def test_saved_game_menu_goes_to_a_new_game_setup():
    r = Rig()
    r.new_game()
    r.app.offer_resume()
    r.d.press(K.B_MENU)
    assert r.app.screen.title == "Replace game?"  # Start would replace the game
    r.d.press(K.B_DOWN)
    r.d.press(K.B_OK)
    assert r.app.screen.NAME == "setup"
    r.d.press(K.B_MENU)
    assert r.app.screen.NAME == "title"


def test_a_casino_tie_shows_each_winners_share_of_the_pot_at_game_over():
    """"Pot 20: 7,7,6" where the old screen said "Tie: 3 players" and paid 6 each; an even
    split says "each"."""
    from test_game import three_way_tie

    r = Rig()
    g = three_way_tie()
    r.app.turn.adopt(g, 0)
    r.app.show("over")
    w = words(r.app)
    assert "Pot " in w and "Tie: " not in w
    row = [n for n, _, y in numbers(r.app, "num") if y == 8]
    assert row == [20, 7, 7, 6]
    g.options.bet = 6  # (not a bet on offer) a pot of 24 between three
    assert [n for n, _, y in numbers(r.app, "num") if y == 8] == [24, 8]
    assert " each" in words(r.app)


def test_casino_first_turn_says_who_starts_and_the_order():
    r = Rig()
    s = r.app.settings
    s.names[:3] = ["Ann", "Bob", "Cleo"]
    g = r.new_game((HUMAN, HUMAN, HUMAN), CASINO5, begin=False)
    w = words(r.app)
    assert r.app.screen.NAME == "handover"
    first = g.names[g.current]
    assert "First turn" in w and first in w and "drawn to go first" in w
    rest = [g.names[g.order[i]] for i in (1, 2)]
    assert w[w.index("then") + 1:w.index("then") + 3] == rest



def test_moves_are_named_in_words_in_one_row():
    """Every box of every rule set: "Take <name> <points>" in one row of 21 characters,
    with the full name wherever it fits (else the short one); a hold lists its dice.
    Control: a move_words that always takes the short name fails the full-name check."""
    from picoyacht.coach import move_words
    from picoyacht.game import Game
    from picoyacht.labels import short_name
    from picoyacht.roller import Roller
    from picoyacht.rules import NAME

    full_names = 0
    for rid in range(6):
        g = Game(rid, ["a"], roller=Roller(rid))
        g.roll()
        for b in range(g.rs.nboxes):
            words = move_words(g, True, b)
            full = "Take " + g.rs.boxes[b][NAME] + " " + str(g.preview(b))
            assert len(words) <= 21
            if len(full) <= 21:
                assert words == full
                full_names += 1
            else:
                name, pts = g.rs.boxes[b][NAME], " " + str(g.preview(b))
                assert words in (name + pts, "Take " + short_name(name) + pts)
    assert full_names > 80  # nearly every box
    g.dice[:] = bytes((4, 4, 4, 2, 5, 4))
    assert move_words(g, False, 0b000111) == "Hold 4 4 4, roll"
    assert move_words(g, False, 0b011111) == "Hold 4 4 4 2 5, roll"
    assert move_words(g, False, 0) == "Roll all"


class Serving:
    """A table that serves every game, valued by nothing: for what the screens say."""

    def serves(self, game):
        return True

    def value(self, mask, up, y):
        return 0


@pytest.mark.parametrize("exact", [False, True])
def test_without_a_table_expert_and_the_coach_say_they_estimate(monkeypatch, exact):
    """No table serves the game: the hand-over names the Expert seat "Expert: estimate",
    the hint's average says "Est." and a tip's figure "~gave"; with one that serves (the
    control), "CPU Expert", "Final total avg" and "gave" as before."""
    if exact:
        monkeypatch.setattr(strategy_table, "load", lambda game, dirs=(): Serving())
        monkeypatch.setattr(strategy_table, "available",
                            lambda rid, joker, sharp=False, dirs=(): True)
    r = Rig(coach=2)
    g = r.new_game((HUMAN, 3))
    r.d.press(K.B_ROLL)
    g.dice[:] = bytes((6, 6, 6, 6, 6))
    r.app.screen.hint()
    total = r.app.status.text.split("\n")[1]
    assert total.startswith("Final total avg " if exact else "Est. final avg "), total
    tip = r.app.turn.coach.tip(g, A_SCORE, [b[1] for b in g.rs.boxes].index("CH"))
    assert tip.startswith("66666" + (" gave " if exact else " ~gave ")), tip
    r.score([b[1] for b in g.rs.boxes].index("CH"), (6, 6, 6, 6, 6))
    assert r.app.screen.NAME == "handover"
    shown = words(r.app)
    assert ("CPU Expert" in shown) == exact and ("Expert: estimate" in shown) != exact, shown

