"""The desktop simulator around the firmware: the terminal renderings and their sizes, the
game log file tools/deploy/log_csv.py reads, and booting into diagnostics."""

import random
import re

import board_term
import log_csv
import pytest
import sim
import ui_play
from board_sim import FULL, Driver, HeadlessBoard
from board_term import ESC_MS, LONG, NO_KEY, KeyDecoder
from hypothesis import given
from hypothesis import strategies as st
from test_readme_commands import keep_the_offer_state, panel_frames, run_in_terminal  # noqa: F401

from picoyacht import app as A
from picoyacht import buttons as K
from picoyacht import rules
from picoyacht.ticks import TICKS_PERIOD

BRAILLE_DOTS = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08), (1, 1, 0x10),
                (1, 2, 0x20), (0, 3, 0x40), (1, 3, 0x80))  # (dx, dy, bit): the Unicode order

TICKS_MASK = TICKS_PERIOD - 1  # the tick counter wraps at 2**30, as on the Pico


def pixel(ram, x, y):
    return ram[(y >> 3) * 128 + x] >> (y & 7) & 1


def rows_of(out, n):
    text = out.decode("utf-8")
    lines = text.split("\r\n")
    assert lines[n] == "" and len(lines) == n + 1
    return lines[:n]


def random_frame(seed):
    r = random.Random(seed)
    return bytearray(r.getrandbits(8) for _ in range(1024))


@pytest.mark.parametrize("seed", range(8))
def test_braille_cells_show_every_pixel(seed):
    ram = random_frame(seed)
    out = bytearray(16 * (64 * 3 + 2))
    rows = rows_of(out[:board_term.draw_braille(ram, True, out, 0)], 16)
    for cy, line in enumerate(rows):
        assert len(line) == 64
        for cx, ch in enumerate(line):
            v = 0 if ch == " " else ord(ch) - 0x2800
            assert 0 <= v < 256
            for dx, dy, bit in BRAILLE_DOTS:
                assert bool(v & bit) == bool(pixel(ram, cx * 2 + dx, cy * 4 + dy))


@pytest.mark.parametrize("seed", range(4))
def test_half_blocks_show_every_pixel(seed):
    ram = random_frame(seed)
    out = bytearray(32 * (128 * 3 + 2))
    rows = rows_of(out[:board_term.draw_half(ram, True, out, 0)], 32)
    glyph = {" ": (0, 0), "\u2580": (1, 0), "\u2584": (0, 1), "\u2588": (1, 1)}
    for row, line in enumerate(rows):
        assert len(line) == 128
        for x, ch in enumerate(line):
            assert glyph[ch] == (pixel(ram, x, 2 * row), pixel(ram, x, 2 * row + 1))


def test_a_dark_panel_draws_blank():
    out = bytearray(16 * (64 * 3 + 2))
    assert set(out[:board_term.draw_braille(random_frame(1), False, out, 0)]) == {32, 13, 10}


def test_terminal_sizes():
    assert board_term.layout(128, 36) == (0, 3)  # half-blocks with 3 log lines
    assert board_term.layout(200, 33) == (0, 0)
    assert board_term.layout(127, 60) == (1, 3)  # too narrow: Braille
    assert board_term.layout(80, 24) == (1, 3)
    assert board_term.layout(64, 17) == (1, 0)
    for cols, rows in ((63, 40), (200, 16), (40, 10)):
        assert board_term.layout(cols, rows) is None
        msg = board_term.too_small(cols, rows)
        assert "at least 64x17" in msg and "%dx%d" % (cols, rows) in msg and "128x36" in msg


class TermRig:
    """A TermBoard driven through its own key map on a fake clock, drawing into a buffer."""

    def __init__(self, monkeypatch, start=None):
        import io

        monkeypatch.setattr(board_term.TermBoard, "_tty_setup", lambda board: None)
        monkeypatch.setattr(board_term.TermBoard, "_read_keys", lambda board, now: None)
        monkeypatch.setattr(board_term.TermBoard, "pause", lambda board, ms: None)
        if start is not None:  # the tick counter where the test wants it
            monkeypatch.setattr(board_term.TermBoard, "_now", lambda board: start)
        self.panel = io.BytesIO()
        self.board = board_term.TermBoard(FULL, None, (128, 36), 0, self.panel)
        self.clock = self.board.t
        monkeypatch.setattr(self.board, "_now", lambda: self.clock)
        self.runner = A.Runner(self.board)
        self.app = self.runner.app
        self.run_ms(100)

    def run_ms(self, ms):
        for _ in range(ms // self.board.SAMPLE_MS):
            self.clock = (self.clock + self.board.SAMPLE_MS) & TICKS_MASK
            self.runner.step()

    def key(self, ch, ms=300):
        b = self.board
        b._press(b.keys.feed(ch, self.clock), self.clock)
        self.run_ms(ms)

    def pick(self, code):
        for _ in range(20):
            sc = self.app.screen
            if sc.items[sc.sel] == code:
                break
            self.key("s")
        self.key("\r")

    def drawn(self):
        """What was drawn since the last call."""
        text = self.panel.getvalue().decode()
        self.panel.seek(0)
        self.panel.truncate()
        return text


@pytest.mark.parametrize("rid, dice", [(rules.YAHTZEE, 5), (rules.MAXI, 6)])
def test_the_legend_under_the_panel_has_a_hold_key_for_each_die_of_the_game(monkeypatch,
                                                                             rid, dice):
    """The legend names the hold keys the game has ("1-5:hold" in a 5-dice game) and key 6
    changes nothing on the panel there; in a 6-dice game it holds the sixth die. Off a game
    the legend names every key. Negative control: legend_for always giving LEGEND_FULL (the
    old fixed legend) fails the 5-dice case."""
    from picoyacht import menus, newgame

    r = TermRig(monkeypatch)
    assert board_term.LEGEND_FULL in r.drawn()  # the title: no game, every hold key
    r.app.settings.rid = rid
    r.app.settings.nplayers = 1
    r.app.settings.kinds[0] = 0
    r.pick(menus.T_NEW)
    r.pick(newgame.R_START)
    if r.app.screen.NAME == "handover":
        r.key("\r")
    assert r.app.screen.NAME == "play" and len(r.app.turn.game.dice) == dice
    r.drawn()  # (setup's frames came with no game on)
    r.key("r", 2500)  # a roll, its animation over
    shown = board_term.LEGEND_FIVE if dice == 5 else board_term.LEGEND_FULL
    other = board_term.LEGEND_FULL if dice == 5 else board_term.LEGEND_FIVE
    text = r.drawn()
    assert shown in text and other not in text
    before = bytes(r.board.i2c.ram)
    r.key("6")
    assert (bytes(r.board.i2c.ram) == before) == (dice == 5)
    r.key("5")
    assert bytes(r.board.i2c.ram) != before  # a hold key the game has does show
    assert shown in r.drawn()


@pytest.mark.parametrize("start", [0, (TICKS_MASK >> 1) - 150, TICKS_MASK - 150])
def test_keys_work_wherever_the_tick_counter_is(monkeypatch, start):
    """The terminal board's clock starts where the tick counter is (wrapped at 2**30 like
    the Pico's), and its keys work across the counter's half period and its wrap. Its
    buttons once started "held until tick 0", which is ahead of the counter for half of
    every period (about six days in twelve): `make sim` then began with phantom presses, and
    on CPython the clock also started from unwrapped wall-clock milliseconds. Controls:
    either old start fails this."""
    from picoyacht import menus

    r = TermRig(monkeypatch, start)
    assert r.clock == (start + 100) & TICKS_MASK and r.app.screen.NAME == "title"
    r.pick(menus.T_NEW)
    assert r.app.screen.NAME == "setup"
    r.key("m")
    r.run_ms(300)
    assert r.app.screen.NAME == "title"


def test_sim_refuses_a_terminal_too_small(monkeypatch):
    monkeypatch.setenv("COLUMNS", "50")
    monkeypatch.setenv("LINES", "20")
    with pytest.raises(SystemExit, match="at least 64x17"):
        sim.terminal_fit()
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    assert sim.terminal_fit() == "80x24"


@pytest.fixture
def term(monkeypatch, tmp_path):
    """make_board() as main.py calls it, without a tty."""
    no_tty = lambda self: setattr(self, "saved", None)  # noqa: E731
    monkeypatch.setattr(board_term.TermBoard, "_tty_setup", no_tty)
    monkeypatch.setattr(board_term.TermBoard, "_read_keys", lambda self, now: None)
    monkeypatch.setenv("PICOYACHT_BUTTONS", "11")
    monkeypatch.delenv("PICOYACHT_SAVES", raising=False)
    monkeypatch.delenv("PICOYACHT_TONES", raising=False)


def test_diag_boots_into_diagnostics_with_this_boards_facts(term, monkeypatch, capsysbinary):
    monkeypatch.setenv("PICOYACHT_DIAG", "1")
    monkeypatch.setenv("PICOYACHT_TERM", "80x24")
    board = board_term.make_board()
    runner = A.Runner(board)
    assert runner.app.screen.NAME == "diag"
    for _ in range(3):
        board.t += 5
        runner.step()
    facts = runner.app.screen.facts
    assert facts.i2c == [0x3C]  # the emulated panel answers the scan
    assert board.draw_panel is board_term.draw_braille
    text = capsysbinary.readouterr().out.decode("utf-8")
    assert any(0x2800 < ord(c) < 0x2900 for c in text)
    monkeypatch.delenv("PICOYACHT_DIAG")
    assert A.Runner(board_term.make_board()).app.screen.NAME != "diag"


def test_game_log_file_is_whole_lines_log_csv_reads(tmp_path):
    """Every console line, uncut, into a file; log_csv.py finds every scored box in it."""
    path = tmp_path / "game.log"
    log = bytearray()
    p = ui_play.Player(FULL, log)
    with open(path, "a") as f:
        p.board.log_file = f
        p.setup(2, 0, 0)
        p.play()
    text = path.read_text()
    assert max(len(line) for line in text.splitlines()) > 128  # the terminal cut these
    (game,) = log_csv.games(text.splitlines())
    assert len(game.rows) == 2 * 13 and game.ended
    g = p.app.turn.game
    assert list(game.totals) == [g.total(s) for s in (0, 1)]
    assert [r["box"] for r in game.rows if r["seat"] == 0] != []
    assert log_csv.main([str(path), "--csv", str(tmp_path / "g.csv")]) in (0, None)
    assert (tmp_path / "g.csv").read_text().count("\n") == 1 + 2 * 13


def test_make_board_records_tones_and_the_log_where_sim_asks(term, monkeypatch, tmp_path):
    """PICOYACHT_TONES and PICOYACHT_LOG (set by sim.py --wav / --log) reach the files."""
    from picoyacht import cues, sound

    tones, log = tmp_path / "tones.txt", tmp_path / "game.log"
    monkeypatch.setenv("PICOYACHT_TONES", str(tones))
    monkeypatch.setenv("PICOYACHT_LOG", str(log))
    board = board_term.make_board()
    board.tones.ms = board.tones.ms[:2]  # a tiny log: the first spill comes mid-sound
    p = sound.Player(board.tone)
    p.play(cues.SOUND_SCORE)
    for _ in range(300):
        board.t += 1
        p.tick(board.t)
    board.console('{"ev":"score","x":"%s"}' % ("y" * 200))
    board.restore()
    got = sim.parse_tones(tones.read_text())
    assert [hz for _, hz, _ in got] == [1047, 1319, 0]
    assert [t - got[0][0] for t, _, _ in got] == [0, 80, 200]
    assert log.read_text() == '{"ev":"score","x":"%s"}\n' % ("y" * 200)


def test_sim_wav_gets_the_apps_sounds(term, monkeypatch, tmp_path):
    """`make sim SIMARGS="--wav f.wav"`: what the app plays on a roll reaches the tone log
    sim.py turns into the WAV."""
    from picoyacht import buttons, cues, sound

    tones = tmp_path / "tones.txt"
    monkeypatch.setenv("PICOYACHT_TONES", str(tones))
    board = board_term.make_board()
    clock = [5000]
    board._now = lambda: clock[0]
    board.idle = lambda: clock.__setitem__(0, clock[0] + board.SAMPLE_MS)
    runner = A.Runner(board)
    app = runner.app
    app.settings.nplayers = 1
    app.settings.kinds[0] = 0
    app.new_game()  # setup's Start, whole
    assert app.screen.NAME == "play"
    board.down_until[buttons.B_ROLL] = clock[0] + 60
    while clock[0] < 6000:
        runner.step()
    assert app.turn.game.rolls_used == 1
    board.restore()
    got = sim.parse_tones(tones.read_text())
    rattle = sound.SOUNDS[cues.SOUND_ROLL][::2]
    assert [hz for _, hz, _ in got] == [sound.FREQ[n - sound.LOW_NOTE] if n else 0
                                        for n in rattle] + [0]
    sim.write_wav(got, tmp_path / "roll.wav")
    assert (tmp_path / "roll.wav").stat().st_size > 44


def test_the_panel_goes_where_sim_says_and_is_laid_out_again_on_resize(term, monkeypatch,
                                                                        tmp_path, capsysbinary):
    """Printed output must not land in the panel's terminal (raw mode: no carriage returns,
    it scrolled the panel), and a resized terminal gets the layout of its new size, drawn
    whole, instead of wrapped lines."""
    panel = tmp_path / "panel"
    size = tmp_path / "size"
    size.write_text("140x40")
    monkeypatch.setenv("PICOYACHT_TERM", "140x40")
    monkeypatch.setenv("PICOYACHT_PANEL", str(panel))
    monkeypatch.setenv("PICOYACHT_TERM_FILE", str(size))
    board = board_term.make_board()
    clock = [board.t]
    monkeypatch.setattr(board, "_now", lambda: clock[0])
    runner = A.Runner(board)
    for _ in range(3):
        clock[0] += 5
        runner.step()
    print("a traceback, say")
    board.panel.flush()
    first = panel.read_bytes()
    assert "\u2580".encode() in first or "\u2588".encode() in first  # half-blocks
    assert b"traceback" not in first
    assert capsysbinary.readouterr().out == b"a traceback, say\n"
    assert board.draw_panel is board_term.draw_half
    size.write_text("70x20")
    for _ in range(3):
        clock[0] += board_term.RESIZE_CHECK_MS
        runner.step()
    after = panel.read_bytes()[len(first):]
    assert board.draw_panel is board_term.draw_braille and board.width == 70
    assert after.startswith(b"\x1b[2J")  # cleared, then the whole panel again
    assert any(0x2800 < ord(c) < 0x2900 for c in after.decode("utf-8"))
    escape = re.compile("\x1b\\[[0-9;?]*[A-Za-z]")
    assert max(len(escape.sub("", line)) for line in after.decode("utf-8").split("\r\n")) < 70
    # too small for any rendering: a notice, no panel, until the terminal grows again
    seen = len(panel.read_bytes())
    size.write_text("40x10")
    for _ in range(3):
        clock[0] += board_term.RESIZE_CHECK_MS
        runner.step()
    runner.app.redraw()  # a frame while it is small: still only the notice
    clock[0] += 5
    runner.step()
    small = panel.read_bytes()[seen:].decode("utf-8")
    assert "too small" in small and "40x10" in small
    assert not any(0x2580 <= ord(c) < 0x2900 for c in small)  # nothing of the panel
    assert max(len(escape.sub("", line)) for line in small.split("\r\n")) < 40
    seen = len(panel.read_bytes())
    size.write_text("128x36")
    for _ in range(3):
        clock[0] += board_term.RESIZE_CHECK_MS
        runner.step()
    back = panel.read_bytes()[seen:].decode("utf-8")
    assert board.draw_panel is board_term.draw_half
    assert "\u2580" in back or "\u2588" in back  # the panel again


def test_sim_gives_the_firmware_the_terminal_as_panel_and_a_file_for_its_output(
        monkeypatch, tmp_path, capsys):
    import os
    import subprocess

    seen = {}

    def fake_run(cmd, env, stdout, stderr, pass_fds, cwd):
        seen["env"] = env
        assert cwd == sim.ROOT  # where the firmware finds tables/
        fd = int(env["PICOYACHT_PANEL"].rsplit("/", 1)[1])
        assert pass_fds == (fd,) and os.fstat(fd)  # open for the child
        stdout.write("Traceback (most recent call last):\n")
        monkeypatch.setattr(sim.shutil, "get_terminal_size", lambda d: (90, 30))
        sim.signal.getsignal(sim.signal.SIGWINCH)(sim.signal.SIGWINCH, None)
        return subprocess.CompletedProcess(cmd, 0)

    monkeypatch.setattr(sim.subprocess, "run", fake_run)
    console = tmp_path / "console.txt"
    assert sim.run_beside_panel(["fw"], {}, "128x36", console) == 0
    assert "Traceback" in console.read_text()
    assert console.name in capsys.readouterr().out
    assert open(seen["env"]["PICOYACHT_TERM_FILE"]).read() == "90x30"


@pytest.mark.parametrize("rid", range(6))
def test_every_rule_sets_expert_game_fits_the_sims_heap_with_a_picos_spare(rid):
    """The simulator's heap stands for a Pico's (sim.HEAP_KB). The all-Expert 4-seat game
    with the coach judging every move must complete in it with the spare the Pico keeps
    (tools/emu/heap_budget.py's MPY_SPARE_KB, scaled to this port): the CPU and the coach at full
    strength, with no engine error, in every rule set."""
    import heap_budget

    from conftest import ROOT, run_micropython

    spare = heap_budget.MPY_SPARE_KB * sim.HOST_LIVE // sim.PICO_LIVE
    r = run_micropython("import expert_game; expert_game.main(%d)" % rid,
                        heap="%dk" % (sim.HEAP_KB - spare), extra_path=[ROOT / "tools" / "sim"])
    assert r.returncode == 0 and "OK" in r.stdout, r.stdout[-1500:] + r.stderr[-1500:]


def test_a_game_that_needs_a_table_waits_for_its_build_with_progress_in_words(tmp_path,
                                                                              monkeypatch):
    """`make sim`: a game asks for its table (strategy_table.bring is the board's
    bring_table); sim.serve_tables builds it into the cache while the board shows the
    progress in words in place of the key legend; then the game opens it. Negative
    control: with no serve_tables running, bring_table gives up and nothing is built."""
    import io
    import threading

    from picoyacht import strategy_table

    wanted, tables = tmp_path / "wanted", tmp_path / "tables"
    sim.say_in(wanted, "")
    panel = io.BytesIO()
    monkeypatch.setattr(board_term.TermBoard, "_tty_setup", lambda board: None)
    board = board_term.TermBoard(FULL, None, (128, 36), 0, panel)
    board.wanted = str(wanted)
    stop = threading.Event()
    worker = threading.Thread(target=sim.serve_tables, args=(wanted, stop, tables))
    worker.start()
    try:
        board.bring_table(["yahtzee_2.bin", "yahtzee.bin"])
    finally:
        stop.set()
        worker.join()
    assert wanted.read_text() == ""
    assert strategy_table.Table.open(str(tables / "yahtzee_2.bin")).joker == 2
    drawn = panel.getvalue().decode()
    assert "Expert's table for Yahtzee, Original joker: " in drawn and " s left" in drawn
    assert board.progress == ""  # the key legend is back


def test_the_firmware_under_the_unix_port_finds_tables_where_sim_runs_it(tmp_path):
    """The sim runs the firmware in the repository's root (run_beside_panel's cwd), where
    strategy_table.load opens tables/<name>.bin: a table there is found by the unix port.
    Control: a run from elsewhere (tmp_path's parent) finds nothing."""
    import mpy_run

    from picoyacht import strategy_table

    from conftest import FIRMWARE, ROOT, compiled_firmware

    (tmp_path / "tables").mkdir()
    header = strategy_table.TABLE_MAGIC + bytes((1, 255, 15, 63, 50, 7)) + bytes(4240 - 10)
    (tmp_path / "tables" / "yatzy.bin").write_bytes(header)
    code = ("from picoyacht import strategy_table, game, roller, rules\n"
            "g = game.Game(1, ['A'], bytearray((3,)), rules.Options(), roller.Roller(1), 1)\n"
            "print('TABLE', strategy_table.load(g) is not None)")
    paths = [compiled_firmware(), FIRMWARE]
    assert "TABLE True" in mpy_run.run(code, paths, "256k", cwd=tmp_path).stdout
    assert "TABLE False" in mpy_run.run(code, paths, "256k", cwd=tmp_path.parent).stdout
    assert sim.run_beside_panel.__defaults__[-1] == ROOT


# ---------------------------------------------------------------- keys, escape sequences whole
def decode(text, gap=0, then=ESC_MS):
    """The presses `text` gives, its characters read `gap` ms apart, then `then` ms of
    nothing more."""
    dec = KeyDecoder(board_term.KEYS_FULL)
    now = 1000
    out = []
    for ch in text:
        out.append(dec.feed(ch, now))
        out.append(dec.wait(now))
        now += gap
    out.append(dec.wait(now + then))
    return [k for k in out if k != NO_KEY]


ARROWS = {"\x1b[A": K.B_UP, "\x1b[B": K.B_DOWN, "\x1bOA": K.B_UP, "\x1bOB": K.B_DOWN}
# the other arrows, Home, PgUp, F1, F5, Ctrl-Up, Shift-Down, Alt-a, Alt-B: none is a button
UNKNOWN = ("\x1b[C", "\x1b[D", "\x1b[H", "\x1b[5~", "\x1bOP", "\x1b[15~", "\x1b[1;5A",
           "\x1b[1;2B", "\x1ba", "\x1bB")


@pytest.mark.parametrize("seq", sorted(ARROWS))
def test_an_arrow_is_its_button_whole_and_never_a_long_press(seq):
    """Today's reader took "\x1b[A" a character at a time: its "A" was a long OK."""
    assert decode(seq) == [ARROWS[seq]]
    assert decode(seq, gap=ESC_MS - 1) == [ARROWS[seq]]  # split across reads, in time


@pytest.mark.parametrize("seq", UNKNOWN)
def test_an_unknown_sequence_does_nothing_and_the_next_key_still_counts(seq):
    assert decode(seq) == []
    assert decode(seq + "w") == [K.B_UP]


def test_a_lone_esc_is_menu_once_nothing_follows_it_in_time():
    dec = KeyDecoder(board_term.KEYS_FULL)
    assert dec.feed("\x1b", 1000) == NO_KEY
    assert dec.wait(1000 + ESC_MS - 1) == NO_KEY  # a sequence may still be coming
    assert dec.wait(1000 + ESC_MS) == K.B_MENU
    assert dec.wait(1000 + 10 * ESC_MS) == NO_KEY  # once
    assert decode("\x1b\x1b") == [K.B_MENU, K.B_MENU]
    assert decode("\x1b\x1b[A") == [K.B_MENU, K.B_UP]


def test_letters_keep_their_meaning_and_capitals_their_long_press():
    assert decode("wA m") == [K.B_UP, K.B_OK | LONG, K.B_ROLL, K.B_MENU]


@given(st.text(alphabet="\x1b[O;0123456789ABCDwqam~\r\x7f", max_size=24))
def test_no_typing_reaches_a_long_press_but_a_capital_letter_typed_outside_a_sequence(text):
    """Whatever is typed (sequences whole, cut or garbled), a long press comes only from a
    capital of a key's letter; with no Esc typed, from each of them."""
    capitals = sum(1 for ch in text if ch.isupper() and ch.lower() in board_term.KEYS_FULL)
    longs = [k for k in decode(text) if k & LONG]
    assert len(longs) <= capitals
    if "\x1b" not in text:
        assert len(longs) == capitals


@pytest.fixture(scope="module")
def sim_frames():
    """The frames the sim must show, made by the same buttons on a headless board: the
    title with the cursor on Records, the records' first and second page."""
    board = HeadlessBoard()
    d = Driver(board, A.Runner(board))
    d.run_ms(50)
    frames = {"title": d.frame()}
    d.press(K.B_DOWN)
    frames["title_records"] = d.frame()
    d.press(K.B_OK)
    frames["records"] = d.frame()
    d.press(K.B_DOWN)
    frames["records_2"] = d.frame()
    return frames


@pytest.mark.usefixtures("keep_the_offer_state")
def test_arrows_and_esc_in_make_sim_are_up_down_and_menu(sim_frames, tmp_path):
    """`make sim` in a pty on fresh saves: Down, Up, Down and Enter open the records;
    unknown sequences then do nothing; Down turns the page; a lone Esc goes back to the
    title. Every frame drawn is one of these: today's Up on the title opened New game, and
    the same Up on the records asked "Clear records?"."""
    f = sim_frames
    steps = [(b"\x1b[B", f["title_records"]), (b"\x1b[A", f["title"]),
             (b"\x1b[B", f["title_records"]), (b"\r", f["records"]),
             ("".join(UNKNOWN).encode() + b"\x1b[B", f["records_2"]), (b"\x1b", f["title"])]
    done = []
    text, code = run_in_terminal(["make", "sim", "SIMARGS=--saves %s --log ''" % tmp_path],
                                 steps=steps, done=done)
    assert "Traceback" not in text, text[-2000:]
    assert done == list(range(len(steps))), text[-2000:]
    drawn = {fb for fb in panel_frames(text) if any(fb)}
    assert drawn <= set(f.values())
    assert code == 0
