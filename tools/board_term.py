"""The terminal board for `make sim`: the panel drawn with Unicode half-blocks (128x32
characters), or Braille cells (64x16) where those do not fit; keys as timed button presses.
Runs under the MicroPython unix port (default) and CPython.

The child process cannot ask the terminal its size under MicroPython, so sim.py passes it
in PICOYACHT_TERM ("COLSxROWS") and refuses a terminal too small for either rendering.
Also from the environment: PICOYACHT_BUTTONS (4 or 11), PICOYACHT_SAVES (a directory),
PICOYACHT_LOG (the game log, appended whole, for tools/gamelog.py), PICOYACHT_TONES (the
piezo's tones, for sim.py --wav), PICOYACHT_DIAG=1 (Menu held at power-on: diagnostics).

PICOYACHT_PANEL names where the panel is drawn (sim.py passes the terminal there, and the
process's own output, tracebacks included, to a file: printed into the raw terminal it
scrolled the panel). PICOYACHT_TERM_FILE names a file sim.py rewrites with "COLSxROWS"
when the terminal is resized: the board reads it a few times a second and lays the panel
out anew.
"""

import sys

from board_sim import FULL, HeadlessBoard, ToneLog, present_from_config

from picoyacht.buttons import B_MENU, B_UP, NBUTTONS
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
QUIT_KEYS = ("q", "\x03")  # q, Ctrl-C
# Each "keys:action" pair in the 79 columns an 80-column terminal leaves.
LEGEND_FULL = "1-6:hold spc/r:roll w/s,k/j:up/down enter/o/a:OK m/b/bksp:menu CAPS:long q:quit"
LEGEND_FOUR = "w/s,k/j:up/down enter/o/a:A m/b/bksp:B CAPS:long q:quit"
TAP_MS = 90
LONG_TAP_MS = 900
RESIZE_CHECK_MS = 250  # how often the size file is read
LOG_LINES = 3  # console lines shown under the panel
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


def too_small(cols, rows):
    """What to tell the user whose terminal fits no rendering."""
    full = RENDERINGS[0]
    small = RENDERINGS[-1]
    return ("the simulator needs a terminal of at least %dx%d (this one is %dx%d); "
            "%dx%d shows the panel at full size" % (small[1], small[2] + 1, cols, rows,
                                                    full[1], full[2] + 1 + LOG_LINES))


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
        self.t = time.ticks_ms() if hasattr(time, "ticks_ms") else int(time.time() * 1000)
        self.keys = KEYS_FULL if present == FULL else KEYS_FOUR
        self.legend = LEGEND_FULL if present == FULL else LEGEND_FOUR
        self.down_until = [0] * NBUTTONS
        self.shown = -1
        self.out = bytearray(16 + 32 * (128 * 3 + 2))  # the larger rendering's most
        self.panel = panel  # a file to draw to (PICOYACHT_PANEL), else stdout
        self.size = size
        self.size_file = None  # PICOYACHT_TERM_FILE
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

    def _read_keys(self):
        while self.poller.poll(0):
            data = sys.stdin.buffer.read(1) if hasattr(sys.stdin, "buffer") else sys.stdin.read(1)
            if not data:
                self.stop = True
                return
            ch = chr(data[0]) if not isinstance(data, str) else data
            if ch in QUIT_KEYS:
                self.stop = True
                return
            long_press = ch.isupper()
            btn = self.keys.get(ch.lower())
            if btn is None:
                continue
            self.down_until[btn] = ticks_add(self.t, LONG_TAP_MS if long_press else TAP_MS)

    def poll(self, deb, now):
        self._read_keys()
        raw = 0
        for i in range(NBUTTONS):
            if ticks_diff(self.down_until[i], now) > 0:
                raw |= 1 << i
        self.raw = raw
        deb.update(raw, now)

    def idle(self):
        self._check_size()
        self._draw()
        self._time.sleep_ms(self.SAMPLE_MS) if hasattr(self._time, "sleep_ms") else \
            self._time.sleep(self.SAMPLE_MS / 1000)

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
        w(b"\x1b[0m" + self.legend[:cut].encode() + b"\x1b[K", False)
        n = self.log_lines
        for line in self.lines[len(self.lines) - n:] if n else ():
            w(b"\r\n" + line[:cut].encode() + b"\x1b[K", False)
        w(b"")
        self.lines = self.lines[-LOG_LINES:]





def make_board():
    """What main.py calls off the device: the terminal board, configured from the env."""
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
