"""Desktop boards for the unchanged firmware: headless (tests, shots, bench); the terminal
board for `make sim` lives in board_term.py and builds on this one.

Runs under the MicroPython unix port (the default: same heap and integer limits as the
device) and under CPython with tools/hostlib on the path for framebuf. The display is the
real picoyacht.ssd1306 driver talking to PanelI2C, an emulated SSD1306 that keeps its own
RAM, so what the terminal shows is what the driver really sent; if the driver is missing,
HostDisplay stands in with the same API.
"""

from array import array

from picoyacht import buttons
from picoyacht.board import Board
from picoyacht.policy import best_box

try:
    import config
except ImportError:
    config = None

FULL = buttons.FULL_BUTTONS
FOUR = buttons.MIN_BUTTONS


# Argument bytes that follow each SSD1306 command we emulate (0 = none).
_NARGS = bytearray(256)
for _c, _n in ((0x21, 2), (0x22, 2), (0x81, 1), (0x20, 1), (0xA8, 1), (0xD3, 1), (0xD5, 1),
               (0xD9, 1), (0xDA, 1), (0xDB, 1), (0x8D, 1)):
    _NARGS[_c] = _n


class PanelI2C:
    """Just enough of an SSD1306 on I2C: page/column addressing into 1024 bytes of RAM."""

    def __init__(self):
        self.ram = bytearray(1024)
        self.bytes = 0  # every byte on the wire, address byte included
        self.writes = 0
        self._one = [None]
        self.fail = False  # True: the panel stops answering (OSError ETIMEDOUT)
        self.fault = None  # callable() -> True: this one write fails (OSError EIO), a glitch
        self.raised = 0  # writes refused by fail or fault
        self.on = True
        self.contrast = 0x7F
        self._col = 0
        self._page = 0
        self._c0, self._c1, self._p0, self._p1 = 0, 127, 0, 7
        self._args = bytearray(2)
        self._nargs = 0
        self._cmd = -1

    def _command(self, b):
        if self._cmd >= 0:
            self._args[self._nargs] = b
            self._nargs += 1
            if self._nargs < _NARGS[self._cmd]:
                return
            c, a = self._cmd, self._args
            self._cmd = -1
            self._nargs = 0
            if c == 0x21:
                self._c0, self._c1 = a[0] & 127, a[1] & 127
                self._col = self._c0
            elif c == 0x22:
                self._p0, self._p1 = a[0] & 7, a[1] & 7
                self._page = self._p0
            elif c == 0x81:
                self.contrast = a[0]
            return
        if _NARGS[b]:
            self._cmd = b
            self._nargs = 0
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
        self._one[0] = buf
        n = self.writevto(addr, self._one, stop)
        self._one[0] = None
        return n

    def writevto(self, addr, bufs, stop=True):
        if self.fail or (self.fault is not None and self.fault()):
            self.raised += 1
            raise OSError(110 if self.fail else 5)
        first = True
        ctrl = 0
        n = 1
        for k in range(len(bufs)):  # by index: iterators would allocate
            buf = bufs[k]
            for i in range(len(buf)):
                b = buf[i]
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

    def brownout(self):
        """The panel lost power: RAM garbage, display off, settings back to reset values."""
        for i in range(1024):
            self.ram[i] = (i * 37 + 11) & 0xFF
        self.on = False
        self.contrast = 0x7F
        self._col = self._page = 0
        self._c0, self._c1, self._p0, self._p1 = 0, 127, 0, 7
        self._cmd = -1
        self._nargs = 0


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
        """Send the pages that differ from the panel (byte loop: allocates nothing)."""
        ram = self.i2c.ram
        buf = self.buffer
        for p in range(8):
            o = p * 128
            for x in range(128):
                if buf[o + x] != ram[o + x]:
                    break
            else:
                continue
            if self.i2c.fail:
                raise OSError(110)
            for x in range(128):
                ram[o + x] = buf[o + x]
            self.i2c.bytes += 8 + 129 + 2  # set window (addr+7), data (addr+ctrl+128)
            self.i2c.writes += 2
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


def present_from_config(cfg=None, count=0):
    """The logical buttons a pin map provides (or a forced 11/4-button build: count)."""
    if count == 4:
        return FOUR
    if count == 11:
        return FULL
    cfg = cfg or config
    if cfg is None:
        return FULL
    mask = 0
    pins = getattr(cfg, "BUTTONS", {})
    for i in range(buttons.NBUTTONS):
        if pins.get(buttons.BUTTON_NAMES[i]) is not None:
            mask |= 1 << i
    return mask | FOUR


class ToneLog:
    """The piezo's tone(freq_hz, duty_u16) calls with their time, in preallocated arrays
    (recording allocates nothing). When full, spill(log) runs if set (the terminal board
    appends to a file), else later tones are counted in `dropped`."""

    def __init__(self, capacity=2048):
        self.ms = array("i", bytes(4 * capacity))
        self.hz = array("H", bytes(2 * capacity))
        self.duty = array("H", bytes(2 * capacity))
        self.n = 0
        self.dropped = 0
        self.spill = None

    def add(self, ms, hz, duty):
        if self.n == len(self.ms):
            if self.spill is None:
                self.dropped += 1
                return
            self.spill(self)
            self.n = 0
        i = self.n
        self.ms[i] = ms
        self.hz[i] = hz
        self.duty[i] = duty
        self.n = i + 1

    def text(self):
        """One "ms hz duty" line per tone, the format sim.py turns into a WAV."""
        return "".join("%d %d %d\n" % (self.ms[i], self.hz[i], self.duty[i])
                       for i in range(self.n))


class HeadlessBoard(Board):
    """A virtual clock, a raw button mask the test sets, a captured console and panel,
    and a piezo whose tones go to self.tones if a ToneLog is put there (none by default:
    its arrays would count against the heap the UI tests measure)."""

    SAMPLE_MS = 5
    sampling = "loop"  # poll() reads the buttons once per loop pass (diagnostics shows it)

    def __init__(self, present=FULL, store=None, entropy=b"\x2a\x00\x00\x00", boot_buttons=0):
        self.display, self.i2c = make_display()
        self.present = present
        self.store = store
        self.entropy = entropy
        self.boot_buttons = boot_buttons
        self.t = 1000
        self.raw = 0
        self.lines = []
        self.boxes = 0
        self.faults = 0
        self.stop = False
        self.tones = None
        self.log_file = None  # an open text file: every console line is appended to it
        self.sleep_ms = 0  # picoyacht.power: minutes idle before sleep() (set before Runner)
        self.sleeps = 0
        self.wake = None  # callable: what happens while asleep (a test presses a button)
        self.fast = True
        self.clock_changes = 0
        self.app = None  # the Runner's, once it attaches it

    def ticks_ms(self):
        return self.t & 0x3FFFFFFF

    def tone(self, freq_hz, duty):
        if self.tones is not None:
            self.tones.add(self.t & 0x3FFFFFFF, freq_hz, duty)

    def poll(self, deb, now):
        deb.update(self.raw, now)

    def idle(self):
        self.t += self.SAMPLE_MS

    def running(self):
        return not self.stop

    def clock(self, fast):
        self.fast = fast
        self.clock_changes += 1

    def sleep(self):
        """The Pico sleeps until a button is down; here `wake` stands in for the player
        (returning at once: the next press wakes the blank display)."""
        self.sleeps += 1
        if self.wake is not None:
            self.wake()

    def urandom(self, n):
        return self.entropy[:n]

    def console(self, line):
        """Keep the last lines only (a long game must not grow the heap); count box lines;
        append every line whole to log_file if one is open."""
        if self.log_file is not None:
            self.log_file.write(line + "\n")
            self.log_file.flush()
        if '"ev":"score"' in line:
            self.boxes += 1
        elif '"ev":"fault"' in line or '"ev":"cpu_error"' in line:
            self.faults += 1  # a CPU engine failure is a fault too: its seat plays worse
            print(line)
        self.lines.append(line)
        if len(self.lines) > 8:
            self.lines.pop(0)

    def attach(self, app):
        """The Runner's app, for a board that shows the game beside the panel."""
        self.app = app

    def dice(self):
        """The dice of the game on (6 with none): the page shows a hold button for each,
        the simulator's legend a hold key."""
        game = self.app.turn.game if self.app is not None else None
        return len(game.dice) if game is not None else 6


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
        """A tap; then, if it started a game, the wait for its first frame, as a player
        waits (the start takes passes of its own, keys spent: App.tick)."""
        self.presses += 1
        self.board.raw |= 1 << btn
        self.run_ms(hold)
        self.board.raw &= ~(1 << btn)
        self.run_ms(gap)
        await_start(self.app, self.runner)

    def frame(self):
        return bytes(self.board.i2c.ram)

    def select(self, code, limit=40):
        """Move the list screen's cursor down to the item `code`; False if not found."""
        for _ in range(limit):
            sc = self.app.screen
            if sc.items[sc.sel] == code:
                return True
            self.press(buttons.B_DOWN)
        return False

    def pick(self, code):
        """Select the item `code`, then press OK; False if it was not found."""
        found = self.select(code)
        self.press(buttons.B_OK)
        return found


def await_start(app, runner):
    """Loop passes until a game's start under way (Turn.starting) has brought its game in,
    as a player waits for its first frame after the key; at most 500 (a start that never
    ends fails the caller's checks, not here)."""
    for _ in range(500):
        if not app.turn.starting:
            break
        runner.step()


def finish(app):
    """Play the game to its end through the app's own scoring path, quickly (the best box
    by points each turn), then the end's passes as the loop makes them, to the results."""
    g = app.turn.game
    while not g.over:
        if not g.rolls_used:
            g.roll()
        app.show(app.turn.score(best_box(g)))
    now = app.now
    while app.turn.ending or app.turn.saving:
        now += 1
        if not app.turn.after_move():
            app.tick(now)
            app.render()
