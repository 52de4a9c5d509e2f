"""The handheld's power: when it sleeps and how fast it runs (the policy, kept apart from
the App), and the display's power and frames made safe (Panel).

After config.SLEEP_MIN minutes without a press (0: never), or on the menu's "Power off",
the move's pending save is written, the display goes off and the board sleeps until a
button goes down (board_pico: the chip's DORMANT state, the least MicroPython's rp2 port
offers). The RAM is kept, so play resumes where it was; the press that woke it reaches
the App as a press on a blank display, which only wakes the display (App.event).

While the display is dimmed or off nobody is watching the game, so the board may run its
slower clock (board.clock(False)); a press brings the full clock back. The loop calls
Power.step() once per pass, after its frame. A board without these parts takes
picoyacht.board's defaults: one speed, and a sleep that leaves only the display off.
"""

from micropython import const

from picoyacht.ticks import ticks_diff

MINUTE_MS = 60000
_RETRY_MS = const(250)


def sleep_after_ms(cfg):
    """config.SLEEP_MIN in ms: 0 (never) for a missing, negative or silly value."""
    try:
        minutes = int(getattr(cfg, "SLEEP_MIN", 5))
    except (TypeError, ValueError):
        return 0
    if minutes <= 0:
        return 0
    return min(minutes, 24 * 60) * MINUTE_MS  # a day at most: a small int on every port


def sleep_due(off, idle_ms, after_ms):
    """Sleep now: "Power off" was picked, or nobody pressed for after_ms (0: never)."""
    return off or 0 < after_ms <= idle_ms


class Power:
    """The loop's power decisions, once per pass after its frame. The board's methods are
    looked up once here: a pass must not allocate (each lookup makes a bound method)."""

    def __init__(self, board):
        self.board = board
        self.clock = board.clock
        self.sleep = board.sleep
        self.after_ms = board.sleep_ms
        self.fast = True

    def step(self, app, resting, now):
        """`resting`: the display is dimmed or off. True if the board slept."""
        if self.fast == resting:
            self.fast = not resting
            self.clock(self.fast)
        if not sleep_due(app.off, ticks_diff(now, app.last_input), self.after_ms):
            return False
        app.sleep(self.sleep, self.board.ticks_ms)
        return True


class Panel:
    """The display driver's calls made safe: a panel that stops answering must not stop the
    game. A frame or a power command (wake, contrast, sleep) the panel refused (a bus error:
    the driver then re-inits it and sends the whole frame on its next flush) is tried again
    after _RETRY_MS, so the display recovers by itself when the bus comes back. App decides
    when the display dims, blanks and wakes; Panel carries that out."""

    def __init__(self, disp, now):
        self.disp = disp
        self.unsent = False  # the panel refused the last frame or command: retry
        self.unsent_at = now

    def command(self, what, arg, now):
        """A power call by name: wake, contrast or sleep, every driver's (arg -1: none)."""
        f = getattr(self.disp, what)
        try:
            ok = f(arg) if arg >= 0 else f()
        except OSError:
            ok = False
        if ok is False:  # the driver re-applies it with its re-init: see retry_due()
            self.unsent = True
            self.unsent_at = now

    def retry_due(self, now):
        return self.unsent and ticks_diff(now, self.unsent_at) >= _RETRY_MS

    def flush(self, now):
        """Send what changed in the frame buffer."""
        try:
            ok = self.disp.flush()
        except OSError:
            ok = False
        self.unsent = ok is False
        self.unsent_at = now
