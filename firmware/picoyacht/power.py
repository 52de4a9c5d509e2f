"""When the handheld sleeps and how fast it runs: the policy, kept apart from the App.

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

from picoyacht.ticks import ticks_diff

MINUTE_MS = 60000


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
