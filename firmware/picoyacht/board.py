"""The board contract: everything the firmware asks of the hardware it runs on, in one place.

The loop (app.Runner), the power policy (power.Power) and the diagnostics screen (diag) use
these members and nothing else, and never ask whether a board has one: every board has all
of them. The terminal's, the page's and the headless board (tools/sim, tools/web) and the
test fakes build on Board and take its defaults for the parts they lack. The Pico's board
(board_pico.PicoBoard) writes every member out itself instead: on the device this class
would cost heap for defaults the Pico overrides, so the device never imports this module.
host_tests/test_board.py holds every board to the list.

Attributes every board sets itself:
    display        the panel: picoyacht.ssd1306's driver, or one with its API
    store          a picoyacht.store.Store for the saves, or None: nothing is kept
    boot_buttons   the buttons held at power-on (Menu: diagnostics)
"""

import os

from picoyacht.buttons import FULL_BUTTONS


class Board:
    present = FULL_BUTTONS  # the buttons the build has: a mask of picoyacht.buttons' bits
    i2c = None  # the display's I2C bus, which diagnostics scans; None: no bus
    tone = None  # tone(freq_hz, duty_u16) on a piezo (0: silence); None: none fitted
    notes = ()  # what the board refused at boot (config.py's settings), for the boot screen
    sampling = None  # how poll() gets its samples, for diagnostics; None: not told
    sleep_ms = 0  # ms without a press before sleep() is called; 0: never

    def ticks_ms(self):
        """The ms clock, wrapping at 2**30 as the rp2's does."""
        raise NotImplementedError

    def poll(self, deb, now):
        """Hand the button samples taken since the last call to the debouncer `deb`."""
        raise NotImplementedError

    def idle(self):
        """Wait out the rest of the loop's pass (and feed a watchdog, if there is one)."""
        raise NotImplementedError

    def running(self):
        """False ends the loop (a host board's quit key)."""
        return True

    def urandom(self, n):
        """n bytes of entropy for the dice's seeds."""
        return os.urandom(n)

    def console(self, line):
        """One line of the game's log (picoyacht.gamelog) for whoever is watching."""
        print(line)

    def attach(self, app):
        """The loop's App, for a board that shows the game beside the panel."""

    def read(self):
        """The buttons held now, read from the pins; None: no pins (diagnostics shows the
        debouncer's view instead)."""

    def battery_mv(self):
        """The battery's voltage in mV; None: no battery sense fitted."""

    def clock(self, fast):
        """The full clock (True) or the slow one (False) while nobody watches the display."""

    def sleep(self):
        """Sleep until a button goes down. A board that cannot: the display is off until the
        next press, which is all "Power off" does there."""

    def restore(self):
        """Leave the hardware as the REPL wants it (main.run's last step)."""
