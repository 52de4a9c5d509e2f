"""The watchdog: the real board_pico.PicoBoard on a fake `machine` and `time`.

A virtual millisecond clock drives everything: time.sleep_ms() advances it, a
machine.Timer fires its callback every `period` ms (the hard IRQ that samples buttons),
and a fake machine.WDT raises WatchdogReset (a BaseException: nothing in the firmware can
catch it) when it has not been fed for its timeout. A reset throws the app away; the next
boot builds a new board and app on what the FakeFs kept, like the Pico after a reset.

Scenarios (each prints "KEY value" lines):
  boot      the WDT is not running during boot, starts on the first loop pass, and is fed
            every pass (the longest gap is reported);
  hang      after a few boxes the loop hangs for good (an endless loop in a step): the
            Pico resets, and the next boot resumes exactly the state after the last box;
  hang_save the loop hangs inside a save of the next box: resumed = that box or the one
            before;
  long      one step takes 12 s (say, a slow CPU decision): with Timer sampling the IRQ's
            grace keeps the Pico up; with loop sampling (no IRQ) the WDT resets it, and
            a 6 s step is fine;
  disarm    restore() (Ctrl-C) clears WATCHDOG CTRL.ENABLE at the chip's address;
  off       WDT_MS = 0: no watchdog.
Usage: stress_wdt.py [scenario ...]   (default: all)
"""

import sys

from board_sim import Driver, await_start
from stress_rig import helpful, out

from fakefs import FakeFs


class WatchdogReset(BaseException):
    pass


class Hang(BaseException):
    """Clock.limit passed: what would have run on for good stops, and says so."""


class Clock:
    """The fake `time` module (only what board_pico uses) plus IRQs and the WDT."""

    def __init__(self):
        self.ms = 1000
        self.timers = []
        self.wdts = []
        self.on_tick = None
        self.limit = None  # a rig's backstop: past this ms, advance() raises Hang

    def ticks_ms(self):
        return self.ms & 0x3FFFFFFF

    def ticks_diff(self, a, b):
        d = (a - b) & 0x3FFFFFFF
        return d - 0x40000000 if d >= 0x20000000 else d

    def ticks_us(self):
        return (self.ms * 1000) & 0x3FFFFFFF

    def sleep_ms(self, n):
        self.advance(n)

    def sleep(self, s):
        self.advance(int(s * 1000))

    def advance(self, n):
        for _ in range(n):
            self.ms += 1
            if self.limit is not None and self.ms > self.limit:
                raise Hang(self.ms)
            for t in self.timers:
                if t.period and self.ms % t.period == 0:
                    t.callback(t)
            for w in self.wdts:
                w.check(self.ms)


CLOCK = Clock()
PRESSED = {}  # gpio -> True while the button is down


class FakePin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    IRQ_FALLING = 4

    def __init__(self, gpio, mode=0, pull=None, value=None):
        self.gpio = gpio

    def value(self, v=None):
        return 0 if PRESSED.get(self.gpio) else 1  # active low

    def irq(self, handler=None, trigger=0, hard=False):
        pass  # no flash writes stall this clock: the sampler never misses an edge


class FakeTimer:
    PERIODIC = 1
    ONE_SHOT = 0

    def __init__(self, mode=1, period=0, callback=None, hard=False):
        self.period = period
        self.callback = callback
        CLOCK.timers.append(self)

    def deinit(self):
        self.period = 0


class FakeWDT:
    """Resets (raises) when not fed for `timeout` ms, unless CTRL.ENABLE was cleared."""

    def __init__(self, timeout=5000):
        self.timeout = timeout
        self.fed = CLOCK.ms
        self.started = CLOCK.ms
        self.feeds = 0
        self.max_gap = 0
        self.enabled = True
        CLOCK.wdts.append(self)

    def feed(self):
        gap = CLOCK.ms - self.fed
        if gap > self.max_gap:
            self.max_gap = gap
        self.fed = CLOCK.ms
        self.feeds += 1

    def check(self, now):
        if self.enabled and now - self.fed > self.timeout:
            self.enabled = False
            MACHINE.mem32.dead = True
            raise WatchdogReset(now - self.fed)


class Mem32:
    """The registers board_pico and config_check.Guard write: the watchdog's CTRL clear alias
    (disarms every FakeWDT) and words that read back as written (the scratch registers,
    which outlive a reset but not a power-on). A run the watchdog reset writes nothing
    more: whatever catches WatchdogReset, on the chip that run was over."""

    def __init__(self):
        self.writes = []
        self.words = {}
        self.dead = False

    def __setitem__(self, addr, value):
        if self.dead:
            return
        self.writes.append((addr, value))
        self.words[addr] = value
        if addr in (0x4005B000, 0x400DB000) and value & (1 << 30):
            for w in CLOCK.wdts:
                w.enabled = False

    def __getitem__(self, addr):
        if addr == 0xD0000004:  # SIO GPIO_IN: the pins pulled up, low while pressed
            return sum(1 << g for g in range(30) if not PRESSED.get(g))
        return self.words.get(addr, 0)


class FakeMachine:
    Pin = FakePin
    Timer = FakeTimer
    WDT = FakeWDT

    def __init__(self):
        self.mem32 = Mem32()
        self.hz = 125000000

    def freq(self, hz=None):
        """The CPU clock, which board_pico lowers while the display rests."""
        if hz is None:
            return self.hz
        self.hz = hz

    def disable_irq(self):
        return 0

    def enable_irq(self, state):
        pass

    def I2C(self, *args, **kw):
        from board_sim import PanelI2C

        return PanelI2C()


MACHINE = FakeMachine()
sys.modules["machine"] = MACHINE
sys.modules["time"] = CLOCK

from picoyacht import app as A  # noqa: E402
from picoyacht import board_pico, newgame  # noqa: E402
from picoyacht import buttons as K  # noqa: E402
from picoyacht.store import Store  # noqa: E402


class Cfg:
    I2C_ID = 0
    SDA = 4
    SCL = 5
    I2C_FREQ = 400000
    OLED_ADDR = 0x3C
    BUTTONS = {"hold1": 6, "hold2": 7, "hold3": 8, "hold4": 9, "hold5": 10, "hold6": 11,
               "roll": 12, "up": 13, "down": 14, "ok": 15, "menu": 16}
    SAMPLING = "timer"
    SAMPLE_MS = 2
    WDT_MS = 8000
    WDT_GRACE_MS = 8000
    SLEEP_MIN = 0  # these scenarios are the watchdog's: the board never sleeps in them


class TestBoard(board_pico.PicoBoard):
    """The Pico board with the FakeFs as its flash and a fixed entropy."""

    def __init__(self, cfg, fs):
        self.fs = fs
        board_pico.PicoBoard.__init__(self, cfg)

    def _store(self):
        return Store(self.fs, "/saves")

    def urandom(self, n):
        return b"\x2a\x17\x00\x00"[:n]

    def console(self, line):
        if '"ev":"fault"' in line:
            print(line)


def reset_hw():
    """A reset: timers and watchdogs of the old run are gone."""
    CLOCK.timers = []
    CLOCK.wdts = []
    PRESSED.clear()
    MACHINE.mem32.dead = False


def power_on():
    """A power cycle: a reset that also clears the scratch registers."""
    reset_hw()
    MACHINE.mem32.words = {}


class Pico:
    def __init__(self, fs, cfg=Cfg):
        reset_hw()
        self.board = TestBoard(cfg, fs)
        self.wdt_during_boot = self.board.wdt
        self.runner = A.Runner(self.board)
        self.wdt_after_boot = self.board.wdt
        self.app = self.runner.app
        self.gpio = {}
        for i in range(K.NBUTTONS):
            g = cfg.BUTTONS.get(K.BUTTON_NAMES[i])
            if g is not None:
                self.gpio[i] = g

    def run_ms(self, ms):
        end = CLOCK.ms + ms
        while CLOCK.ms < end:
            self.runner.step()

    def press(self, btn, hold=40, gap=40):
        """A tap; then, if it started a game, the wait for its first frame, as a player
        waits (the start takes passes of its own, keys spent: App.tick)."""
        PRESSED[self.gpio[btn]] = True
        self.run_ms(hold)
        PRESSED[self.gpio[btn]] = False
        self.run_ms(gap)
        await_start(self.app, self.runner)

    def play_until(self, cond, limit=3000):
        for _ in range(limit):
            if cond():
                return
            btn = helpful(self.app, True)
            self.press(btn, 40, 300 if btn == K.B_ROLL else 40)
        raise AssertionError("stuck on " + self.app.screen.NAME)

    def new_game(self):
        app = self.app
        self.play_until(lambda: app.screen.NAME == "setup")
        s = app.settings
        while s.nplayers != 1:
            self.pick(newgame.R_PLAYERS)
        while s.kinds[0]:
            self.pick(newgame.R_KIND)
        self.pick(newgame.R_START)
        self.play_until(lambda: not app.turn.starting)  # the game comes in over passes

    select = Driver.select  # the same list walk as the headless driver's
    pick = Driver.pick


def resume(fs):
    """Boot after a reset; take the resume offer. Returns the Pico and the resumed game."""
    p = Pico(fs.reboot())
    p.run_ms(20)
    for _ in range(3):
        if p.app.screen.NAME != "message":
            break
        p.press(K.B_OK)
    return p, p.app.turn.game if p.app.screen.NAME in ("play", "handover") else None


def check(cond, what):
    if not cond:
        out("FAIL", what)
        raise SystemExit(1)


def scenario_boot():
    class LoopCfg(Cfg):
        SAMPLING = "loop"

    for cfg in (Cfg, LoopCfg):
        p = Pico(FakeFs(), cfg)
        check(p.wdt_during_boot is None and p.wdt_after_boot is None,
              "WDT running during boot")
        p.runner.step()
        w = p.board.wdt
        check(w is not None and w.timeout == 8000, "WDT not started by the first loop pass")
        gaps = [0, CLOCK.ms]
        idle0 = p.board.idle

        def idle(gaps=gaps, idle0=idle0):
            if CLOCK.ms - gaps[1] > gaps[0]:
                gaps[0] = CLOCK.ms - gaps[1]
            gaps[1] = CLOCK.ms
            idle0()

        p.board.idle = idle
        t0 = CLOCK.ms
        p.new_game()
        p.play_until(lambda p=p: p.app.turn.game.turn == 13)  # a whole game: no reset
        p.run_ms(3 * w.timeout)  # and idle passes (dim, blank)
        mode = cfg.SAMPLING.upper()
        check(CLOCK.ms - t0 > 3 * w.timeout, "too short to tell")
        out("WDT_PLAYED_MS_" + mode, CLOCK.ms - t0)
        out("WDT_TIMEOUT_MS", w.timeout)
        out("WDT_FEEDS_" + mode, w.feeds)
        out("WDT_LOOP_MAX_GAP_MS_" + mode, gaps[0])
        check(gaps[0] <= 50, "loop feeds too far apart")


def hang_after_boxes(p):
    """Run until the WDT resets the Pico; the loop never runs again (a hard hang).
    Returns the ms from the loop's last pass to the reset."""
    t0 = CLOCK.ms
    try:
        CLOCK.advance(60000)
    except WatchdogReset:
        return CLOCK.ms - t0
    return -1


def game_at(turn):
    """A new game on a fresh drive, played to `turn`: the drive, the Pico and the state."""
    fs = FakeFs()
    p = Pico(fs)
    p.new_game()
    p.play_until(lambda: p.app.turn.game.turn == turn)
    return fs, p, p.app.turn.game.snapshot()


def scenario_hang():
    fs, p, want = game_at(4)
    t = hang_after_boxes(p)
    check(t > 0, "no reset after a hang")
    out("HANG_RESET_AFTER_MS", t)
    out("HANG_RING_SAMPLES_LOST", p.board.lost)
    p2, g = resume(fs)
    check(g is not None, "no resume offer after the reset")
    check(g.snapshot() == want, "resumed game is not the state after the last box")
    out("HANG_RESUMED_TURN", g.turn)
    p2.play_until(lambda: g.turn == 5)  # and it plays on
    out("HANG_PLAYED_ON_TO_TURN", g.turn)


def scenario_hang_save():
    fs, p, before = game_at(2)
    after = []

    def stuck(path, data):
        if "game" in path:
            after.append(1)
            while True:  # the flash write never returns
                CLOCK.advance(100)
        return data

    fs.mangle = stuck
    try:
        p.play_until(lambda: p.app.turn.game.turn == 3)
        check(False, "the save did not hang")
    except WatchdogReset:
        pass
    check(after, "no save was attempted")
    hung = p.app.turn.game.snapshot()  # the box whose save hung
    fs.mangle = None
    p2, g = resume(fs)
    check(g is not None, "no resume offer after a reset in a save")
    check(g.snapshot() in (before, hung), "resumed game is neither box")
    out("HANG_IN_SAVE_RESUMED_TURN", g.turn)


def slow_step(p, ms):
    """The next CPU-less loop step takes `ms` (a long computation): tick() spins."""
    app = p.app
    t0 = app.tick

    def tick(now):
        app.tick = t0
        CLOCK.advance(ms)
        t0(now)

    app.tick = tick
    p.run_ms(50)


def scenario_long():
    fs = FakeFs()
    p = Pico(fs)
    p.new_game()
    try:
        slow_step(p, 12000)
        p.run_ms(1000)
        ok_timer = True
    except WatchdogReset:
        ok_timer = False
    check(ok_timer, "a 12 s step reset the Pico in Timer mode")
    out("LONG_STEP_TIMER_MODE_12S", "ok")

    class LoopCfg(Cfg):
        SAMPLING = "loop"

    p = Pico(FakeFs(), LoopCfg)
    p.run_ms(20)
    slow_step(p, 6000)
    p.run_ms(1000)
    out("LONG_STEP_LOOP_MODE_6S", "ok")
    try:
        slow_step(p, 12000)
        reset = False
    except WatchdogReset:
        reset = True
    check(reset, "a 12 s step did not reset the Pico in loop mode")
    out("LONG_STEP_LOOP_MODE_12S", "reset")


def scenario_disarm():
    for chip, addr in (("Raspberry Pi Pico with RP2040", 0x4005B000),
                       ("Raspberry Pi Pico 2 with RP2350", 0x400DB000)):
        board_pico._chip = lambda chip=chip: chip
        MACHINE.mem32.writes = []
        p = Pico(FakeFs())
        p.run_ms(20)
        w = p.board.wdt
        p.board.restore()  # what main.py's finally does on Ctrl-C
        check(MACHINE.mem32.writes == [(addr, 1 << 30)], "disarm write %r" % (
            MACHINE.mem32.writes,))
        CLOCK.advance(20000)  # no loop, no timer: a disarmed WDT stays quiet
        check(not w.enabled and p.board.wdt is None, "still armed")
        out("DISARM", chip.split()[-1], hex(addr))


def scenario_off():
    class NoWdt(Cfg):
        WDT_MS = 0

    p = Pico(FakeFs(), NoWdt)
    p.run_ms(100)
    check(p.board.wdt is None and not CLOCK.wdts, "WDT started with WDT_MS = 0")
    out("WDT_OFF", "ok")


SCENARIOS = ("boot", "hang", "hang_save", "long", "disarm", "off")


def main(argv):
    for name in argv or SCENARIOS:
        globals()["scenario_" + name]()
        out("PASS", name)


if __name__ == "__main__":
    main(sys.argv[1:])
