"""The terminal board for `make sim`: the panel drawn with Unicode half-blocks, keys as
timed button presses. Runs under the MicroPython unix port (default) and CPython."""

import sys

from board_sim import FULL, HeadlessBoard, present_from_config

from picoyacht.buttons import NBUTTONS
from picoyacht.debounce import ticks_add, ticks_diff

KEYS_FULL = {
    "1": 0, "2": 1, "3": 2, "4": 3, "5": 4, "6": 5, " ": 6, "r": 6,
    "w": 7, "k": 7, "s": 8, "j": 8, "\r": 9, "\n": 9, "o": 9, "m": 10, "\x7f": 10, "b": 10,
}
KEYS_FOUR = {"w": 7, "k": 7, "s": 8, "j": 8, "a": 9, "\r": 9, "\n": 9, "b": 10, "\x7f": 10}
LEGEND_FULL = "1-6 hold  spc roll  w/s up/dn  enter OK  m menu  (caps: long)  q quit"
LEGEND_FOUR = "w/s up/dn  a or enter = A  b = B  (caps: long press)  q quit"
TAP_MS = 90
LONG_TAP_MS = 900


class TermBoard(HeadlessBoard):
    """The panel drawn with Unicode half-blocks; keys become timed button presses.

    A terminal reports key presses, not releases, so a key holds its button down for
    TAP_MS (a capital letter: LONG_TAP_MS, for long presses); the debouncer sees real
    edges and the app gets the same events as on the device."""

    SAMPLE_MS = 4

    def __init__(self, present=FULL, store=None):
        import os
        import time

        super().__init__(present, store, os.urandom(4))
        self._time = time
        self.t = time.ticks_ms() if hasattr(time, "ticks_ms") else int(time.time() * 1000)
        self.keys = KEYS_FULL if present == FULL else KEYS_FOUR
        self.legend = LEGEND_FULL if present == FULL else LEGEND_FOUR
        self.down_until = [0] * NBUTTONS
        self.shown = -1
        self.out = bytearray(16 + 32 * (128 * 3 + 2))
        self._tty_setup()

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
        sys.stdout.write("\x1b[2J\x1b[?25l")

    def restore(self):
        sys.stdout.write("\x1b[?25h\x1b[0m\r\n")
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
            if ch in ("q", "\x03"):
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
        self._draw()
        self._time.sleep_ms(self.SAMPLE_MS) if hasattr(self._time, "sleep_ms") else \
            self._time.sleep(self.SAMPLE_MS / 1000)

    def _draw(self):
        """Repaint when the panel got new bytes: half-blocks into one reused bytearray."""
        i2c = self.i2c
        if i2c.writes == self.shown:
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
        blocks = _BLOCKS
        for row in range(32):
            y = row * 2
            base = (y >> 3) * 128
            bt = 1 << (y & 7)
            bb = bt << 1
            for x in range(128):
                v = ram[base + x] if lit else 0
                k = (1 if v & bt else 0) | (2 if v & bb else 0)
                if k:
                    out[pos] = 0xE2
                    out[pos + 1] = 0x96
                    out[pos + 2] = blocks[k]
                    pos += 3
                else:
                    out[pos] = 32
                    pos += 1
            out[pos] = 13
            out[pos + 1] = 10
            pos += 2
        w = sys.stdout.buffer.write if hasattr(sys.stdout, "buffer") else sys.stdout.write
        w(memoryview(out)[:pos])
        w(b"\x1b[0m" + self.legend.encode() + b"\x1b[K\r\n")
        for line in self.lines[-3:]:
            w(line[:128].encode() + b"\x1b[K\r\n")
        self.lines = self.lines[-3:]


# last byte of the UTF-8 for upper half, lower half and full block (E2 96 xx)
_BLOCKS = b"\x00\x80\x84\x88"


def make_board():
    """What main.py calls off the device: the terminal board, configured from the env."""
    import os

    buttons = 0
    env = os.getenv("PICOYACHT_BUTTONS") if hasattr(os, "getenv") else None
    if env:
        buttons = int(env)
    present = present_from_config(None, buttons)
    store = None
    root = os.getenv("PICOYACHT_SAVES") if hasattr(os, "getenv") else None
    if root:
        from picoyacht.store import OsFs, Store

        try:
            os.mkdir(root)
        except OSError:
            pass
        store = Store(OsFs(), root)
    return TermBoard(present, store)
