"""The display driver's calls made safe: a panel that stops answering must not stop the game.

A frame or a power command (wake, contrast, sleep) the panel refused (a bus error: the
driver then re-inits it and sends the whole frame on its next flush) is tried again after
RETRY_MS, so the display recovers by itself when the bus comes back. App decides when the
display dims, blanks and wakes; Panel only carries that out.
"""

from micropython import const

from picoyacht.ticks import ticks_diff

_RETRY_MS = const(250)


class Panel:
    """The display driver (ssd1306.SSD1306_I2C, or a simulator's) behind App."""

    def __init__(self, disp, now):
        self.disp = disp
        self.unsent = False  # the panel refused the last frame or command: retry
        self.unsent_at = now

    def command(self, what, arg, now):
        """A power call by name (arg -1: none); a driver without it has nothing to do."""
        f = getattr(self.disp, what, None)
        if f is None:
            return
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
