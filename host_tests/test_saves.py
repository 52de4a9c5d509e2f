"""Saves through the whole app: a save that is checked for being possible, a backup that is
never the casualty, and a failed write that is said where the player looks. Each test
names what it proves and the control that shows it can fail: every one of them failed on
the code before these checks (checked with git stash)."""

import pytest
from board_sim import Driver, HeadlessBoard
from records_files import records_v2, records_v3
from test_ux import words as screen_words

from picoyacht import app as A
from picoyacht import buttons as K
from picoyacht import font, menus, newgame, record_check, saves
from picoyacht.game import HUMAN, Game
from picoyacht.policy import best_box
from picoyacht.rules import YAHTZEE
from picoyacht.store import Store

from fakefs import EIO, ENOSPC, FakeFs
from scripted import LcgRoller


class Rig:
    """The real loop on a headless board over a FakeFs."""

    def __init__(self, fs):
        self.fs = fs
        self.board = HeadlessBoard(store=Store(fs, "/saves"))
        self.runner = A.Runner(self.board)
        self.app = self.runner.app
        self.d = Driver(self.board, self.runner)
        self.d.run_ms(30)

    def reboot(self):
        return Rig(self.fs.reboot())

    def new_game(self):
        app = self.app
        app.settings.rid = YAHTZEE
        app.settings.nplayers = 1
        app.settings.kinds[0] = HUMAN
        self.d.pick(menus.T_NEW)
        self.d.pick(newgame.R_START)
        self.d.run_ms(100)  # its first save
        return app.turn.game

    def play_to(self, boxes_left):
        """Score boxes (the loop saving after each) until `boxes_left` remain."""
        app = self.app
        g = app.turn.game
        while g.rs.nboxes * g.nseats - g.turn > boxes_left:
            if not g.rolls_used:
                g.roll()
            app.show(app.turn.score(best_box(g)))
            self.d.run_ms(100)


def finished_game(seed=3):
    g = Game(YAHTZEE, ["Fin"], roller=LcgRoller(seed), seed=seed)
    while not g.over:
        g.roll()
        g.score(best_box(g))
    return g


def unfinished_game(seed=4, boxes=5):
    g = Game(YAHTZEE, ["Mid"], roller=LcgRoller(seed), seed=seed)
    for _ in range(boxes):
        g.roll()
        g.score(best_box(g))
    return g


def words(app):
    """Every string the current screen draws, and a "!" for each one in its header."""
    cv = app.cv
    glyph = cv.glyph
    bangs = []

    def spy_glyph(code, x, y, c=1):
        if code == font.BANG and y == 0:
            bangs.append("!")
        return glyph(code, x, y, c)

    cv.glyph = spy_glyph
    try:
        return screen_words(app) + bangs
    finally:
        del cv.glyph


def files_with_backup(top, good):
    """A store whose .dat holds `top` and whose .bak holds the good game `good`."""
    fs = FakeFs()
    s = Store(fs, "/saves")
    assert s.save("game", good.snapshot()) and s.save("game", top)
    return fs


# ---------------------------------------------------------------- a refused game file
@pytest.mark.parametrize("top", ["finished", "impossible card"])
def test_a_refused_game_file_never_hides_or_replaces_the_good_backup(top):
    """A finished game, or a card no dice make (Full house 7), over a
    good backup. The boot must offer the backup's game, and the next save must not rotate
    the refused file into .bak. Control: the old validator and the old boot accepted both
    (the finished game was then offered as nothing, and rotated over the backup)."""
    from test_snapshot import card

    good = unfinished_game()
    bad = finished_game().snapshot() if top == "finished" else card(YAHTZEE, "FH", 7).snapshot()
    r = Rig(files_with_backup(bad, good))
    assert r.app.turn.game is not None and r.app.turn.game.snapshot() == good.snapshot()
    assert any("backup" in w for w in words(r.app))  # the boot note says what happened
    r.d.press(K.B_OK)  # the note, then resume
    r.d.press(K.B_OK)
    r.play_to(r.app.turn.game.rs.nboxes - 7)  # new saves: the good game's, never the refused one
    assert Store(r.fs.reboot(), "/saves").load("game") != bad
    assert bad not in (bytes(v[16:]) for v in r.fs.files.values())


def test_a_failed_game_save_is_not_said_once_game_over_deleted_the_game():
    """The game's save fails before its last box; game over then saves the records and
    deletes the game: nothing is left unsaved, so the over screen, the menu and the title
    stop saying "Game not saved". Control: the old App.delete left the failure on record,
    and every screen kept saying it for a game that no longer exists."""
    r = Rig(FakeFs())
    r.new_game()
    r.play_to(2)
    r.fs.fail("open_w", OSError(EIO, "io"), path="game", times=1)
    r.play_to(1)
    assert r.app.save_state.unsaved("game")
    r.d.press(K.B_MENU)
    assert "Game not saved" in words(r.app)  # said while the game is there
    r.d.press(K.B_MENU)
    r.play_to(0)
    assert r.app.screen.NAME == "over" and r.app.records.games(YAHTZEE) == 1
    assert not r.app.save_state.failed and r.app.save_msg == ""
    assert not any("not saved" in w for w in words(r.app))
    r.d.press(K.B_MENU)
    assert r.app.screen.NAME == "menu" and "Game not saved" not in words(r.app)
    r.app.home()
    assert "Game not saved" not in words(r.app)
    assert Store(r.fs.reboot(), "/saves").load("game") is None


# ---------------------------------------------------------------- records at game over
def test_records_that_fail_at_game_over_are_said_and_the_game_is_kept():
    """The flash is full when the records are written at game over. Game over
    must say so, never "New best score!", and keep the game's save so that a reboot offers
    it (it is in no records). Control: the old app showed "New best score!", deleted the
    game, and the reboot's records showed 0 games."""
    r = Rig(FakeFs())
    r.new_game()
    r.play_to(1)
    r.fs.fail("open_w", OSError(ENOSPC, "full"), path="records")
    r.play_to(0)
    w = words(r.app)
    assert r.app.screen.NAME == "over"
    assert "Records not saved!" in w and "New best score!" not in w and "!" in w
    r.d.press(K.B_MENU)  # to the title: it says what failed
    assert "Records not saved" in words(r.app)
    again = r.reboot()
    assert again.app.records.games(YAHTZEE) == 0
    g = again.app.turn.game
    assert g is not None and g.turn == g.rs.nboxes - 1
    again.d.press(K.B_OK)  # resume it and finish it: now it counts, once
    again.play_to(0)
    assert again.app.records.games(YAHTZEE) == 1
    assert again.reboot().app.records.games(YAHTZEE) == 1


# ---------------------------------------------------------------- absurd records
@pytest.mark.parametrize("games,best,name", [(1, 65535, "Ann"), (0, 9999, "Ann"),
                                             (0, 120, "Ann"), (3, 200, "")])
@pytest.mark.parametrize("fmt", [2, 3])
def test_absurd_records_are_refused_and_the_backup_used(games, best, name, fmt):
    """Best 65535, or a best with 0 games, was accepted, and the next save
    rotated it over the good records.bak; in the old format 2 as in format 3. Control:
    (3, 200, "Ann") loads; the old Records.unpack accepted all four."""
    make = records_v2 if fmt == 2 else records_v3
    good = make({YAHTZEE: (3, 200, "Ann")})
    bad = make({YAHTZEE: (games, best, name)})
    assert saves.Records.unpack(good).best(YAHTZEE) == 200
    with pytest.raises(ValueError):
        saves.Records.unpack(bad)
    fs = FakeFs()
    s = Store(fs, "/saves")
    assert s.save("records", good) and s.save("records", bad)
    r = Rig(fs)
    assert r.app.records.best(YAHTZEE) == 200


def test_the_records_bound_is_the_rule_sets_own():
    """A best at the rule set's maximum loads; one point more is refused. Format 3 counts
    Casino's credits won, so its bound is the credits a game can pay."""
    from picoyacht import rules

    for rs in rules.RULESETS:
        caps = ((records_v2, record_check.max_total(rs)), (records_v3, record_check.score_cap(rs)))
        for make, cap in caps:
            saves.Records.unpack(make({rs.id: (1, cap, "A")}))
            with pytest.raises(ValueError):
                saves.Records.unpack(make({rs.id: (1, cap + 1, "A")}))


# ---------------------------------------------------------------- names cut in two
def test_names_are_cut_between_characters_and_the_app_reads_its_own_file():
    """Three 3-byte characters (9 bytes) were accepted, then cut at 8 bytes
    mid-character, and the next boot refused the app's own file. Control: the old
    _put_name cut at byte 8, and Settings.unpack raised on what pack wrote."""
    s = saves.Settings()
    s.names[0] = "\u20ac\u20ac\u20ac"  # three euro signs, 3 bytes each
    back = saves.Settings.unpack(s.pack())
    assert back.names[0] == "\u20ac\u20ac"
    assert saves.cut_name("ABCDEFG\u00e9") == b"ABCDEFG"  # a 2-byte character at the edge
    data = bytearray(s.pack())
    at = 14  # the first name's length byte: 8 + 6 seat kinds
    data[at:at + 1 + data[at]] = bytes([9]) + "\u20ac\u20ac\u20ac".encode()
    with pytest.raises(ValueError):
        saves.Settings.unpack(bytes(data))  # more than pack() ever writes


# ---------------------------------------------------------------- a failed delete
def test_a_failed_delete_at_game_over_never_counts_the_game_twice():
    """The game's delete fails at game over. The next boot must not offer the
    game one box before its end, and its records must count it once. Control: the old
    app offered it, and finishing it again made the count 2."""
    r = Rig(FakeFs())
    r.new_game()
    r.play_to(1)
    r.fs.fail("remove", OSError(EIO, "io"), path="game")
    r.play_to(0)
    assert r.app.records.games(YAHTZEE) == 1
    again = r.reboot()
    assert again.app.turn.game is None
    assert again.app.records.games(YAHTZEE) == 1
    assert not any(p.startswith("/saves/game") for p in again.fs.files)  # cleaned at boot


# ---------------------------------------------------------------- a failed settings save
@pytest.mark.parametrize("err,todo", [(ENOSPC, "Full: clear records"),
                                      (EIO, "Check the filesystem")])
def test_a_failed_settings_save_stays_in_view_until_it_succeeds(err, todo):
    """The settings save at a game's start failed, and the game's begin cleared
    the message before any screen showed it. Every header keeps the "!" until a save of
    settings works, and the menu says what failed and what to do. Control: the old app
    showed nothing (save_msg cleared in _begin, no "!" outside the play screen)."""
    r = Rig(FakeFs())
    r.fs.fail("open_w", OSError(err, "x"), path="settings", times=1)
    r.new_game()  # its game saves work: the settings' failure must still show
    assert r.app.screen.NAME == "play" and "!" in words(r.app)
    r.app.go("card")
    assert "!" in words(r.app)
    r.app.go("menu")
    w = words(r.app)
    assert "!" in w and "Setup not saved" in w and todo in w
    r.app.back()
    r.app.save("settings", r.app.settings.pack())  # a save of that kind works: all clear
    r.app.go("menu")
    w = words(r.app)
    assert "!" not in w and "Setup not saved" not in w


def test_clearing_the_records_frees_flash_and_ends_the_failure():
    """The menu's advice for a full flash works: a long OK on the records screen clears
    them (the question's Down, then OK), and the "!" goes. Control: Menu, or OK on the
    question's Keep, keeps them."""
    r = Rig(FakeFs())
    app = r.app
    app.records = saves.Records.unpack(records_v3({YAHTZEE: (2, 150, "Ann")}))
    r.fs.fail("open_w", OSError(ENOSPC, "full"), path="records", times=1)
    assert not app.save("records", app.records.pack())
    app.go("records")
    app.screen.long(K.B_OK)
    r.d.press(K.B_MENU)  # keep them
    assert app.records.games(YAHTZEE) == 2 and app.save_state.unsaved("records")
    app.screen.long(K.B_OK)
    r.d.press(K.B_OK)  # Keep is chosen
    assert app.records.games(YAHTZEE) == 2 and app.save_state.unsaved("records")
    app.screen.long(K.B_OK)
    r.d.press(K.B_DOWN)
    r.d.press(K.B_OK)
    assert app.records.games(YAHTZEE) == 0 and not app.save_state.unsaved("records")
    assert app.screen.NAME == "records" and "!" not in words(app)
