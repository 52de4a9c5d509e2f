"""The terminal board for `make sim`: the panel drawn with Unicode half-blocks (128x32
characters), or Braille cells (64x16) where those do not fit; keys as timed button presses.
Runs under the MicroPython unix port (default) and CPython.

The child process cannot ask the terminal its size under MicroPython, so sim.py passes it
in PICOYACHT_TERM ("COLSxROWS") and refuses a terminal too small for either rendering.
Also from the environment: PICOYACHT_BUTTONS (4 or 11), PICOYACHT_SAVES (a directory),
PICOYACHT_LOG (the game log, appended whole, for tools/deploy/log_csv.py), PICOYACHT_TONES (the
piezo's tones, for sim.py --wav), PICOYACHT_DIAG=1 (Menu held at power-on: diagnostics).

PICOYACHT_PANEL names where the panel is drawn (sim.py passes the terminal there, and the
process's own output, tracebacks included, to a file: printed into the raw terminal it
scrolled the panel). PICOYACHT_TERM_FILE names a file sim.py rewrites with "COLSxROWS"
when the terminal is resized: the board reads it a few times a second and lays the panel
out anew. PICOYACHT_TABLE_WANTED names the file through which a game asks sim.py for an
Expert's table that is not built yet (bring_table).
"""

import sys

from board_sim import FULL, HeadlessBoard, ToneLog, present_from_config

from picoyacht.buttons import B_DOWN, B_MENU, B_UP, NBUTTONS
from picoyacht.ticks import ticks_add, ticks_diff

# One key map for both builds (the 4-button build takes the keys of the buttons it has):
# README's "Simulator keys", this legend and the Wokwi diagram's keys agree with it, and
# host_tests/test_keys.py checks they do. A capital letter is a long press; q quits.
KEYS_FULL = {
    "1": 0, "2": 1, "3": 2, "4": 3, "5": 4, "6": 5, " ": 6, "r": 6,
    "w": 7, "k": 7, "s": 8, "j": 8, "\r": 9, "\n": 9, "o": 9, "a": 9,
    "m": 10, "b": 10, "\x7f": 10,
}
KEYS_FOUR = {k: b for k, b in KEYS_FULL.items() if b >= B_UP}
# Escape sequences, read whole (what follows Esc): the arrows in a terminal's normal and
# application cursor modes, as the web page maps them. A lone Esc is Menu, as there; any
# other sequence (the other arrows, function keys, Alt and a key) does nothing.
SEQUENCES = {"[A": B_UP, "[B": B_DOWN, "OA": B_UP, "OB": B_DOWN}
ESC_BUTTON = B_MENU
ESC_MS = 50  # a lone Esc: no byte followed it within this (a sequence comes in one write)
SEQ_MAX = 16  # a sequence longer than this is garbage, dropped
LONG = 0x100  # KeyDecoder's flag on a long press
NO_KEY = -1
QUIT_KEYS = ("q", "\x03")  # q, Ctrl-C
# Each "keys:action" pair in the 79 columns an 80-column terminal leaves (↑↓: the arrows).
LEGEND_FULL = "1-6:hold spc/r:roll w/s,k/j,↑↓:move ent/o/a:OK m/b/bs/esc:menu CAPS:long q:quit"
# A 5-dice game's: key 6 holds no die there (the play screen ignores its button).
LEGEND_FIVE = "1-5:hold spc/r:roll w/s,k/j,↑↓:move ent/o/a:OK m/b/bs/esc:menu CAPS:long q:quit"
LEGEND_FOUR = "w/s,k/j,↑↓:move ent/o/a:A m/b/bs/esc:B CAPS:long q:quit"
TAP_MS = 90
LONG_TAP_MS = 900
RESIZE_CHECK_MS = 250  # how often the size file is read
LOG_LINES = 3  # console lines shown under the panel
WANT_POLL_MS = 100  # how often a game waiting for its table looks for news of it
WANT_WAITS = 50  # polls without an answer from sim.py before playing on without the table
# (name, panel columns, panel rows) of each rendering, the roomiest first
RENDERINGS = (("half-blocks", 128, 32), ("Braille", 64, 16))


def layout(cols, rows):
    """(rendering index, log lines shown) for a cols x rows terminal; None if too small.
    A rendering needs its panel plus the key legend; log lines go in what rows are left."""
    for i in range(len(RENDERINGS)):
        _, w, h = RENDERINGS[i]
        if cols >= w and rows >= h + 1:
            return i, min(LOG_LINES, rows - h - 1)
    return None


def legend_for(present, dice):
    """The key legend under the panel: the build's keys, with a hold key for each die of
    the game on."""
    if present != FULL:
        return LEGEND_FOUR
    return LEGEND_FIVE if dice == 5 else LEGEND_FULL


def too_small(cols, rows):
    """What to tell the user whose terminal fits no rendering."""
    full = RENDERINGS[0]
    small = RENDERINGS[-1]
    return ("the simulator needs a terminal of at least %dx%d (this one is %dx%d); "
            "%dx%d shows the panel at full size" % (small[1], small[2] + 1, cols, rows,
                                                    full[1], full[2] + 1 + LOG_LINES))


class KeyDecoder:
    """The terminal's characters to button presses, escape sequences whole. Pure: each
    character comes with the time it was read, and wait(now) tells a lone Esc from the
    start of a sequence by the time that passed with nothing after it."""

    def __init__(self, keys):
        self.keys = keys
        self.seq = None  # what followed an Esc so far; None outside a sequence
        self.at = 0  # when the Esc came

    def feed(self, ch, now):
        """One character: the press it completes (a button, | LONG for a capital letter),
        or NO_KEY."""
        seq = self.seq
        if seq is None:
            if ch == "\x1b":
                self.seq = ""
                self.at = now
                return NO_KEY
            btn = self.keys.get(ch.lower())
            if btn is None:
                return NO_KEY
            return btn | LONG if ch.isupper() else btn
        if seq == "":
            if ch == "\x1b":  # Esc, Esc: the first stood alone
                self.at = now
                return ESC_BUTTON
            # "[" opens a control sequence, "O" a one-character one; anything else
            # after Esc is Alt and a key, not a button
            self.seq = ch if ch in "[O" else None
            return NO_KEY
        code = ord(ch)
        if code < 0x20 or code > 0x7E or len(seq) >= SEQ_MAX:
            self.seq = None  # not a sequence after all: dropped with it
            return NO_KEY
        seq += ch
        if seq[0] == "O" or code >= 0x40:  # "O" and one; "[" up to a final byte @..~
            self.seq = None
            return SEQUENCES.get(seq, NO_KEY)
        self.seq = seq
        return NO_KEY

    def wait(self, now):
        """Nothing more was read by `now`: a lone Esc once ESC_MS has passed since it (a
        sequence cut short is dropped then); else NO_KEY."""
        if self.seq is None or ticks_diff(now, self.at) < ESC_MS:
            return NO_KEY
        lone = self.seq == ""
        self.seq = None
        return ESC_BUTTON if lone else NO_KEY
def cramped_notice(cols, rows):
    """What a terminal resized below every rendering shows, broken to its width: the game
    plays on, and the panel comes back when the terminal is large enough."""
    small = RENDERINGS[-1]
    text = ("Terminal too small for the panel (%dx%d; it needs %dx%d). Make it larger and "
            "the panel comes back; q quits." % (cols, rows, small[1], small[2] + 1))
    width = max(8, cols - 1)
    lines = []
    while text:
        cut = len(text) if len(text) <= width else text.rfind(" ", 0, width + 1)
        if cut <= 0:
            cut = width
        lines.append(text[:cut])
        text = text[cut:].lstrip()
    return "\r\n".join(lines[:max(1, rows)])


def _cell(out, pos, cp):
    """One character cell at out[pos]: the UTF-8 of code point cp (3 bytes), 0 a space."""
    if not cp:
        out[pos] = 32
        return pos + 1
    out[pos] = 0xE0 | cp >> 12
    out[pos + 1] = 0x80 | (cp >> 6 & 0x3F)
    out[pos + 2] = 0x80 | (cp & 0x3F)
    return pos + 3


def _newline(out, pos):
    out[pos] = 13
    out[pos + 1] = 10
    return pos + 2


def draw_half(ram, lit, out, pos):
    """The panel as 32 rows of 128 half-block cells into out from pos; returns the end."""
    for row in range(32):
        y = row * 2
        base = (y >> 3) * 128
        bt = 1 << (y & 7)
        bb = bt << 1
        for x in range(128):
            v = ram[base + x] if lit else 0
            pos = _cell(out, pos, _HALVES[(1 if v & bt else 0) | (2 if v & bb else 0)])
        pos = _newline(out, pos)
    return pos


def draw_braille(ram, lit, out, pos):
    """The panel as 16 rows of 64 Braille cells (2x4 pixels each) into out from pos."""
    for row in range(16):
        base = (row >> 1) * 128
        shift = (row & 1) * 4  # the cell's 4 pixel rows are half a display page
        for cx in range(64):
            x = base + cx * 2
            left = (ram[x] >> shift) & 15 if lit else 0
            right = (ram[x + 1] >> shift) & 15 if lit else 0
            v = _BRAILLE_COL[left] | _BRAILLE_COL[16 + right]
            pos = _cell(out, pos, 0x2800 + v if v else 0)
        pos = _newline(out, pos)
    return pos


def _braille_col():
    """Braille dot bits for a column of 4 pixels (bit 0 = top): [0:16] the left column
    (dots 1, 2, 3, 7), [16:32] the right one (dots 4, 5, 6, 8)."""
    out = bytearray(32)
    for m in range(16):
        out[m] = (m & 7) | (0x40 if m & 8 else 0)
        out[16 + m] = (m & 7) << 3 | (0x80 if m & 8 else 0)
    return bytes(out)


_BRAILLE_COL = _braille_col()
_DRAW = (draw_half, draw_braille)
_HALVES = (0, 0x2580, 0x2584, 0x2588)  # none, upper half, lower half, full block


class TermBoard(HeadlessBoard):
    """The panel drawn in the terminal (see layout()); keys become timed button presses.

    A terminal reports key presses, not releases, so a key holds its button down for
    TAP_MS (a capital letter: LONG_TAP_MS, for long presses); the debouncer sees real
    edges and the app gets the same events as on the device."""

    SAMPLE_MS = 4

    def __init__(self, present=FULL, store=None, size=(128, 36), boot_buttons=0, panel=None):
        import os
        import time

        super().__init__(present, store, os.urandom(4), boot_buttons)
        fit = layout(size[0], size[1]) or (len(RENDERINGS) - 1, 0)
        self.draw_panel = _DRAW[fit[0]]
        self.log_lines = fit[1]
        self.width = size[0]
        self._time = time
        self.t = self._now()  # the same tick count ticks_ms() gives: wrapped at 2**30
        self.keys = KeyDecoder(KEYS_FULL if present == FULL else KEYS_FOUR)
        self.progress = ""  # a table's build, in words, shown in place of the legend
        self.down_until = [self.t] * NBUTTONS  # released as of now (0 is ahead half the time)
        self.shown = -1
        self.out = bytearray(16 + 32 * (128 * 3 + 2))  # the larger rendering's most
        self.panel = panel  # a file to draw to (PICOYACHT_PANEL), else stdout
        self.size = size
        self.size_file = None  # PICOYACHT_TERM_FILE
        self.wanted = None  # PICOYACHT_TABLE_WANTED
        self.cramped = False  # resized too small: a notice instead of the panel
        self.size_at = self.t
        self._tty_setup()

    def resize(self, cols, rows):
        """Lay the panel out for a cols x rows terminal and redraw it whole; one too small
        for any rendering gets a notice instead, until it grows again."""
        fit = layout(cols, rows)
        self.cramped = fit is None
        fit = fit or (len(RENDERINGS) - 1, 0)
        self.draw_panel = _DRAW[fit[0]]
        self.log_lines = fit[1]
        self.width = cols
        self.shown = -1
        self._write(b"\x1b[2J")
        if self.cramped:
            self._write(b"\x1b[H\x1b[0m" + cramped_notice(cols, rows).encode())

    def _check_size(self):
        if self.size_file is None or ticks_diff(self.t, self.size_at) < RESIZE_CHECK_MS:
            return
        self.size_at = self.t
        try:
            with open(self.size_file) as f:
                cols, _, rows = f.read().strip().partition("x")
            size = (int(cols), int(rows))
        except (OSError, ValueError):
            return
        if size != self.size:
            self.size = size
            self.resize(size[0], size[1])

    def _write(self, data, flush=True):
        out = self.panel
        if out is None:
            out = sys.stdout.buffer if hasattr(sys.stdout, "buffer") else sys.stdout
        out.write(data)
        if flush:
            try:
                out.flush()
            except OSError:  # MicroPython's files are unbuffered: its flush is an fsync,
                pass  # which a terminal refuses

    def _now(self):
        tm = self._time
        if hasattr(tm, "ticks_ms"):
            return tm.ticks_ms()
        return int(tm.monotonic() * 1000) & 0x3FFFFFFF

    def _tty_setup(self):
        self.fd = 0
        self.saved = None
        try:
            import termios

            self.saved = termios.tcgetattr(self.fd)
            if hasattr(termios, "setraw"):
                termios.setraw(self.fd)
            else:
                import tty

                tty.setraw(self.fd)
        except Exception:
            self.saved = None
        import select

        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)
        self._write(b"\x1b[2J\x1b[?25l")

    def restore(self):
        t = self.tones
        if t is not None and t.n:
            t.spill(t)
        self._write(b"\x1b[?25h\x1b[0m\r\n")
        if self.saved is not None:
            import termios

            termios.tcsetattr(self.fd, termios.TCSANOW, self.saved)

    def ticks_ms(self):
        self.t = self._now()
        return self.t

    def _read_keys(self, now):
        keys = self.keys
        while self.poller.poll(0):
            data = sys.stdin.buffer.read(1) if hasattr(sys.stdin, "buffer") else sys.stdin.read(1)
            if not data:
                self.stop = True
                return
            ch = chr(data[0]) if not isinstance(data, str) else data
            if keys.seq is None and ch in QUIT_KEYS:
                self.stop = True
                return
            self._press(keys.feed(ch, now), now)
        self._press(keys.wait(now), now)

    def _press(self, key, now):
        """Hold a decoded key's button down for a tap (LONG: a long press)."""
        if key != NO_KEY:
            ms = LONG_TAP_MS if key & LONG else TAP_MS
            self.down_until[key & ~LONG] = ticks_add(now, ms)

    def poll(self, deb, now):
        self._read_keys(now)
        raw = 0
        for i in range(NBUTTONS):
            if ticks_diff(self.down_until[i], now) > 0:
                raw |= 1 << i
        self.raw = raw
        deb.update(raw, now)

    def idle(self):
        self._check_size()
        self._draw()
        self.pause(self.SAMPLE_MS)

    def bring_table(self, names):
        """strategy_table.bring: asks sim.py for a table ("want" and its file names in the
        wanted file), then shows what sim.py writes there (its progress in words) in place
        of the key legend until it empties the file; gives up if nothing answers."""
        with open(self.wanted, "w") as f:
            f.write("want " + " ".join(names))
        unanswered = 0
        while unanswered < WANT_WAITS:
            self.pause(WANT_POLL_MS)
            try:
                with open(self.wanted) as f:
                    text = f.read().strip()
            except OSError:
                text = ""
            if not text:
                break
            if text.startswith("want "):
                unanswered += 1
            elif text != self.progress:
                self.progress = text
                self.shown = -1
                self._draw()
        self.progress = ""
        self.shown = -1

    def pause(self, ms):
        tm = self._time
        tm.sleep_ms(ms) if hasattr(tm, "sleep_ms") else tm.sleep(ms / 1000)

    def _draw(self):
        """Repaint when the panel got new bytes, into one reused bytearray."""
        i2c = self.i2c
        if i2c.writes == self.shown or self.cramped:
            return
        self.shown = i2c.writes
        out = self.out
        ram = i2c.ram
        lit = i2c.on
        pos = 0
        head = b"\x1b[H\x1b[38;5;67m" if i2c.contrast < 0x20 else b"\x1b[H\x1b[38;5;159m"
        for b in head:
            out[pos] = b
            pos += 1
        pos = self.draw_panel(ram, lit, out, pos)
        w = self._write
        w(memoryview(out)[:pos], False)
        cut = self.width - 1
        legend = self.progress or legend_for(self.present, self.dice())
        w(b"\x1b[0m" + legend[:cut].encode() + b"\x1b[K", False)
        n = self.log_lines
        for line in self.lines[len(self.lines) - n:] if n else ():
            w(b"\r\n" + line[:cut].encode() + b"\x1b[K", False)
        w(b"")
        self.lines = self.lines[-LOG_LINES:]





def make_board():
    """The terminal board, configured from the env: what sim.py hands to main.run()."""
    import os

    env = os.getenv if hasattr(os, "getenv") else (lambda k: None)
    present = present_from_config(None, int(env("PICOYACHT_BUTTONS") or 0))
    store = None
    root = env("PICOYACHT_SAVES")
    if root:
        from picoyacht.store import OsFs, Store

        try:
            os.mkdir(root)
        except OSError:
            pass
        store = Store(OsFs(), root)
    size = (128, 36)
    term = env("PICOYACHT_TERM")
    if term:
        cols, _, rows = term.partition("x")
        size = (int(cols), int(rows))
    boot = (1 << B_MENU) if env("PICOYACHT_DIAG") else 0
    panel = env("PICOYACHT_PANEL")
    board = TermBoard(present, store, size, boot, open(panel, "wb") if panel else None)
    board.size_file = env("PICOYACHT_TERM_FILE")
    wanted = env("PICOYACHT_TABLE_WANTED")
    if wanted:
        from picoyacht import strategy_table

        board.wanted = wanted
        strategy_table.on_demand = True
        strategy_table.bring = board.bring_table
    if env("PICOYACHT_LOG"):
        board.log_file = open(env("PICOYACHT_LOG"), "a")
    tones = env("PICOYACHT_TONES")
    if tones:
        out = open(tones, "w")

        def spill(log):
            out.write(log.text())
            out.flush()

        board.tones = ToneLog()
        board.tones.spill = spill
    return board
