"""Desktop boards for the unchanged firmware: headless (tests, shots, bench) and terminal (sim).

Runs under the MicroPython unix port (the default: same heap and integer limits as the
device) and under CPython with tools/hostlib on the path for framebuf. The display is the
real picoyacht.ssd1306 driver talking to PanelI2C, an emulated SSD1306 that keeps its own
RAM, so what the terminal shows is what the driver really sent; if the driver is missing,
HostDisplay stands in with the same API.
"""

import sys

from picoyacht import app as appmod

try:
    import config
except ImportError:
    config = None

FULL = appmod.FULL_BUTTONS
FOUR = appmod.MIN_BUTTONS


class PanelI2C:
    """Just enough of an SSD1306 on I2C: page/column addressing into 1024 bytes of RAM."""

    def __init__(self):
        self.ram = bytearray(1024)
        self.bytes = 0  # every byte on the wire, address byte included
        self.writes = 0
        self.fail = False  # True: the panel stops answering (OSError ETIMEDOUT)
        self.on = True
        self.contrast = 0x7F
        self._col = 0
        self._page = 0
        self._c0, self._c1, self._p0, self._p1 = 0, 127, 0, 7
        self._args = []
        self._cmd = -1

    def _command(self, b):
        if self._cmd >= 0:
            self._args.append(b)
            need = {0x21: 2, 0x22: 2, 0x81: 1, 0x20: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1,
                    0xDA: 1, 0xDB: 1, 0x8D: 1}.get(self._cmd, 0)
            if len(self._args) < need:
                return
            c, a = self._cmd, self._args
            self._cmd = -1
            self._args = []
            if c == 0x21:
                self._c0, self._c1 = a[0] & 127, a[1] & 127
                self._col = self._c0
            elif c == 0x22:
                self._p0, self._p1 = a[0] & 7, a[1] & 7
                self._page = self._p0
            elif c == 0x81:
                self.contrast = a[0]
            return
        if b in (0x21, 0x22, 0x81, 0x20, 0xA8, 0xD3, 0xD5, 0xD9, 0xDA, 0xDB, 0x8D):
            self._cmd = b
            self._args = []
        elif b == 0xAE:
            self.on = False
        elif b == 0xAF:
            self.on = True
        elif 0xB0 <= b <= 0xB7:
            self._page = b & 7
        elif b < 0x10:
            self._col = (self._col & 0xF0) | b
        elif b < 0x20:
            self._col = (self._col & 0x0F) | (b & 15) << 4

    def _data(self, b):
        self.ram[self._page * 128 + self._col] = b
        if self._col >= self._c1:
            self._col = self._c0
            self._page = self._p0 if self._page >= self._p1 else self._page + 1
        else:
            self._col += 1

    def writeto(self, addr, buf, stop=True):
        return self.writevto(addr, (buf,), stop)

    def writevto(self, addr, bufs, stop=True):
        if self.fail:
            raise OSError(110)
        first = True
        ctrl = 0
        n = 1
        for buf in bufs:
            for b in buf:
                n += 1
                if first:
                    ctrl = b
                    first = False
                elif ctrl & 0x40:
                    self._data(b)
                else:
                    self._command(b)
        self.bytes += n
        self.writes += 1
        return n

    def scan(self):
        return [] if self.fail else [0x3C]


class HostDisplay:
    """Fallback with the driver's API when picoyacht.ssd1306 is not there yet."""

    def __init__(self, i2c):
        import framebuf

        self.i2c = i2c
        self.buffer = bytearray(1024)
        self.fb = framebuf.FrameBuffer(self.buffer, 128, 64, framebuf.MONO_VLSB)
        self.bytes_sent = 0
        for name in ("fill", "fill_rect", "rect", "hline", "vline", "pixel", "line", "blit"):
            setattr(self, name, getattr(self.fb, name))

    def flush(self):
        ram = self.i2c.ram
        for p in range(8):
            o = p * 128
            if self.buffer[o:o + 128] != ram[o:o + 128]:
                self.i2c.writeto(0x3C, bytes((0x00, 0x21, 0, 127, 0x22, p, p)))
                self.i2c.writeto(0x3C, b"\x40" + bytes(self.buffer[o:o + 128]))
        self.bytes_sent = self.i2c.bytes

    show = flush

    def contrast(self, v):
        self.i2c.writeto(0x3C, bytes((0x00, 0x81, v)))

    def sleep(self):
        self.i2c.writeto(0x3C, b"\x00\xae")

    def wake(self):
        self.i2c.writeto(0x3C, b"\x00\xaf")


def make_display():
    i2c = PanelI2C()
    try:
        from picoyacht import ssd1306
    except ImportError:
        return HostDisplay(i2c), i2c
    return ssd1306.SSD1306_I2C(128, 64, i2c), i2c


def present_from_config(cfg=None, buttons=0):
    """The logical buttons a pin map provides (or a forced 11/4-button build)."""
    if buttons == 4:
        return FOUR
    if buttons == 11:
        return FULL
    cfg = cfg or config
    if cfg is None:
        return FULL
    mask = 0
    pins = getattr(cfg, "BUTTONS", {})
    for i in range(appmod.NBUTTONS):
        if pins.get(appmod.BUTTON_NAMES[i]) is not None:
            mask |= 1 << i
    return mask | FOUR


class HeadlessBoard:
    """A virtual clock, a raw button mask the test sets, a captured console and panel."""

    SAMPLE_MS = 5

    def __init__(self, present=FULL, store=None, entropy=b"\x2a\x00\x00\x00", boot_buttons=0):
        self.display, self.i2c = make_display()
        self.present = present
        self.store = store
        self.entropy = entropy
        self.boot_buttons = boot_buttons
        self.t = 1000
        self.raw = 0
        self.lines = []
        self.stop = False

    def ticks_ms(self):
        return self.t & 0x3FFFFFFF

    def poll(self, deb, now):
        deb.update(self.raw, now)

    def idle(self):
        self.t += self.SAMPLE_MS

    def running(self):
        return not self.stop

    def urandom(self, n):
        return self.entropy[:n]

    def console(self, line):
        self.lines.append(line)

    def restore(self):
        pass


class Driver:
    """Presses buttons on a HeadlessBoard through the real loop, like a patient player."""

    def __init__(self, board, runner):
        self.board = board
        self.runner = runner
        self.app = runner.app
        self.presses = 0

    def run_ms(self, ms):
        end = self.board.t + ms
        while self.board.t < end:
            self.runner.step()

    def press(self, btn, hold=40, gap=40):
        self.presses += 1
        self.board.raw |= 1 << btn
        self.run_ms(hold)
        self.board.raw &= ~(1 << btn)
        self.run_ms(gap)

    def frame(self):
        return bytes(self.board.i2c.ram)


# ------------------------------------------------------------------ terminal board
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
        self.down_until = [0] * appmod.NBUTTONS
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
            self.down_until[btn] = appmod.ticks_add(self.t, LONG_TAP_MS if long_press else TAP_MS)

    def poll(self, deb, now):
        self._read_keys()
        raw = 0
        for i in range(appmod.NBUTTONS):
            if appmod.ticks_diff(self.down_until[i], now) > 0:
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
