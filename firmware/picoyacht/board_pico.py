"""The Raspberry Pi Pico board: with board_power, the only modules that import machine.

Pins come from config.py (load_config: every setting checked, a bad one replaced by its
built-in value and named on the boot screen through `notes`). Buttons are
sampled every SAMPLE_MS either by a hard Timer IRQ into a preallocated ring (default:
sampling goes on while a frame is being written to the display, so a 20 ms tap is never
missed) or once per main-loop pass. Both paths
allocate nothing per sample. Works on rp2 MicroPython v1.23+: newer keywords (Timer's
hard=) are tried first with a fallback.

A flash erase or program (every save) runs with the interrupts off: a sector erase holds
the sampler for longer than a tap lasts, then the Timer catches up in a burst of
samples all taken at that moment, while the loop is still inside the save. Two things keep
a press made during a save from being lost: the ring keeps only the first and the last
sample of a run of one level (a burst or a long save fills two slots, not the whole ring),
and the button pins latch their falling edges (a GPIO IRQ, which the chip holds pending
while the interrupts are off): a button that went down and up again while the sampler was
held off reads as held in two samples a tick apart, so the debouncer sees that tap.

`sampling` says which runs ("hard Timer", "soft Timer" or "loop"); it is printed on the
serial console at boot and shown by diagnostics. A Ctrl-C that lands inside the sampling
callback is caught there and re-raised by the main loop's next poll(), so mpremote and
Thonny break in on the first try whatever the IRQ kind.

Watchdog: machine.WDT (WDT_MS, default 8000; the RP2040's limit is 8388) starts on the
main loop's first idle(), i.e. once the app has booted (loaded its saves), and idle() feeds
it on every loop pass. A hung loop resets the Pico and the app boots into the resume offer
of the last save. With Timer sampling, the sampling IRQ also feeds it for up to
WDT_GRACE_MS (default 8000) after the loop's last feed, so one long step (building a CPU
engine, a slow flash write) is not mistaken for a hang: a loop stuck for good still resets
after WDT_GRACE_MS + WDT_MS. restore() (main.py's exit path, e.g. Ctrl-C from Thonny or
mpremote) disarms the watchdog, which MicroPython's rp2 WDT cannot stop, so the REPL and
file copies are not reset under the user. WDT_MS = 0 in config.py: no watchdog. Before
all this, the drive's config.py runs under the watchdog of its own (config_check.Guard).

Power (picoyacht.power decides when): the clock, the sleep until a press and the battery
reading are picoyacht.board_power's; sleep() stops the sampling Timer and the watchdog
around it (the watchdog would count on after the wake) and starts them again after.
config.SLEEP_MIN: minutes without a press before sleep() (0: never); config.POWER_HOLD: the
soft-power latch's hold pin, taken first thing here.

Sound: config.PIEZO names the GPIO of a passive piezo driven by machine.PWM; board.tone is
tone(freq_hz, duty_u16) for picoyacht.sound.Player (0 = silence), or None when PIEZO is None.
"""

import os
import time
from array import array

import machine
from machine import Pin
from micropython import const

from picoyacht.board_power import PicoPower
from picoyacht.buttons import BUTTON_NAMES, NBUTTONS

RING = const(64)  # samples; runs of one level keep two, so ~15 taps fit a blocked loop pass
# The loop's period while a Timer samples: a pass only drains what the Timer took, and the
# core waits in WFE between passes, so fewer idle passes are battery saved. 10 ms is well
# under a frame's own I2C time (a press still shows within a frame of being debounced).
LOOP_MS = const(10)
# the RP2040's longest watchdog timeout: config_check's, which is dropped after the boot's
# check, so a copy (a test holds them equal)
_WDT_MAX_MS = const(8388)
# the WATCHDOG registers per chip; CTRL's atomic-clear alias (+ 0x3000) and its ENABLE bit
_WATCHDOG = (("RP2350", 0x400D8000), ("RP2040", 0x40058000))
_WDT_CLR = const(0x3000)
_WDT_ENABLE = 1 << 30
_GPIO_IN = const(0xD0000004)  # the RP2040's SIO GPIO_IN: every pin's level, bits 0..29


def loop_period(sample_ms, timer):
    """The loop's pass period: every sample when the loop samples, LOOP_MS with a Timer."""
    return max(sample_ms, LOOP_MS) if timer else sample_ms


def _chip():
    import sys

    return getattr(sys.implementation, "_machine", "")


def _watchdog():
    """This chip's WATCHDOG base address, or None (not a chip of _WATCHDOG's)."""
    chip = _chip()
    for name, addr in _WATCHDOG:
        if name in chip:
            return addr
    return None


class PicoBoard:
    """The Pico's board: every member of picoyacht.board.Board's contract, written out here
    rather than inherited (the base class would cost heap on the device)."""

    def __init__(self, cfg):
        # first: a soft-power latch is held by its button's press only until this runs
        self.power = PicoPower(_chip(), getattr(cfg, "BATTERY_SENSE", False),
                               getattr(cfg, "POWER_HOLD", None))
        self.cfg = cfg
        self.notes = getattr(cfg, "notes", ())  # load_config's refusals, for the boot screen
        self.pins = []
        self.bits = []
        self.gpios = []
        pins = getattr(cfg, "BUTTONS", {})
        for i in range(NBUTTONS):
            gpio = pins.get(BUTTON_NAMES[i])
            if gpio is not None:
                self.pins.append(Pin(gpio, Pin.IN, Pin.PULL_UP))
                self.bits.append(1 << i)
                self.gpios.append(gpio)
        self.npins = len(self.pins)
        self.present = 0
        for b in self.bits:
            self.present |= b
        time.sleep_ms(5)  # let the pull-ups settle before reading the boot state
        self.boot_buttons = self.read()
        self.i2c = machine.I2C(cfg.I2C_ID, sda=Pin(cfg.SDA), scl=Pin(cfg.SCL),
                               freq=cfg.I2C_FREQ)
        self.display = self._display()
        self.store = self._store()
        self.piezo = self._piezo()
        self.tone = self._tone if self.piezo is not None else None
        self.sample_ms = getattr(cfg, "SAMPLE_MS", 2)
        # On an RP2040 the IRQ keeps the GPIO_IN word (one read, far cheaper than eleven
        # Pin.value() calls in an IRQ that runs every sample), inverted over the button pins so a
        # set bit is a held button as in read()'s mask, and poll() maps it to buttons once
        # per change; elsewhere it keeps read()'s mask. _marks: each pin's bit in the
        # sampler's mask (the edge IRQ marks it).
        self._words = "RP2040" in _chip()
        self._pinmask = 0
        for g in self.gpios:
            self._pinmask |= 1 << g
        self._marks = [1 << g for g in self.gpios] if self._words else self.bits
        self._word = -1  # the last ring entry poll() mapped, and its button mask
        self._mask = 0
        self._raw = array("i", bytes(4 * RING))
        self._when = array("i", bytes(4 * RING))
        self._head = 0  # written by the IRQ only
        self._tail = 0  # written by the loop only
        self._fell = 0  # buttons whose pin fell (GPIO IRQ) since the sampler last looked
        self._tap = 0  # taps made while the sampler was held off: read as held until a
        self._tap_t = 0  # sample after this tick has shown them (see _sample)
        self._prev_t = time.ticks_ms()  # the sampler's last run
        self._catchup_end = self._prev_t  # edges up to here may be taps it could not see
        self.lost = 0
        self.timer = None
        self.wdt = None  # started by the first idle(): after the app has booted
        self.wdt_ms = min(getattr(cfg, "WDT_MS", 8000), _WDT_MAX_MS)
        self.grace_ms = getattr(cfg, "WDT_GRACE_MS", 8000)
        self._fed = time.ticks_ms()  # the main loop's last feed
        self.interrupted = False
        self.irq_errors = 0
        self.sampling = "loop"
        self.loop_ms = loop_period(self.sample_ms, False)
        self._last = time.ticks_ms()
        from picoyacht.power import sleep_after_ms

        self.sleep_ms = sleep_after_ms(cfg)
        self.clock = self.power.clock  # looked up by picoyacht.power and diag, as methods
        self.battery_mv = self.power.battery_mv
        # Every attribute exists before the Timer starts: adding one later grows the
        # instance's dict, and an IRQ landing mid-resize fails its lookups.
        if getattr(cfg, "SAMPLING", "timer") == "timer":
            self._start_timer()
            self.loop_ms = loop_period(self.sample_ms, True)
        print("PicoYacht: buttons sampled every %d ms by %s" % (
            self.sample_ms, "the main loop" if self.timer is None else "a " + self.sampling))

    def _display(self):
        from picoyacht import ssd1306

        addr = self.cfg.OLED_ADDR
        d = ssd1306.SSD1306_I2C(128, 64, self.i2c, addr=addr)
        if not d.ok:
            try:
                found = self.i2c.scan()
            except OSError:
                found = None
            print(display_help(addr, self.cfg, found))
        if getattr(self.cfg, "OLED_FLIP", False):
            d.rotate(True)
        return d

    def _store(self):
        from picoyacht.store import OsFs, Store

        root = getattr(self.cfg, "SAVE_DIR", "/saves")
        try:
            os.mkdir(root)
        except OSError:
            pass  # exists, or no filesystem: Store reports failures itself
        return Store(OsFs(), root)

    def _piezo(self):
        gpio = getattr(self.cfg, "PIEZO", None)
        if gpio is None:
            return None
        pwm = machine.PWM(Pin(gpio))
        pwm.duty_u16(0)
        return pwm

    def _tone(self, freq_hz, duty):
        """One note until the next call; freq 0 or duty 0 is silence. Allocates nothing."""
        if freq_hz and duty:
            self.piezo.freq(freq_hz)
            self.piezo.duty_u16(duty)
        else:
            self.piezo.duty_u16(0)

    # ---------------------------------------------------------------- sampling
    def read(self):
        """Logical raw mask: bit set while the button is held (pins read low)."""
        raw = 0
        pins = self.pins
        bits = self.bits
        for i in range(self.npins):
            if not pins[i].value():
                raw |= bits[i]
        return raw

    def _sample(self, _t):
        try:
            now = time.ticks_ms()
            w = self.wdt
            if w is not None and time.ticks_diff(now, self._fed) < self.grace_ms:
                w.feed()  # the loop is alive, maybe in a long step: see the module docstring
            raw = (~machine.mem32[_GPIO_IN] & self._pinmask) if self._words else self.read()
            gap = time.ticks_diff(now, self._prev_t)
            self._prev_t = now
            if gap > 2 * self.sample_ms:  # held off (a flash write): the edges come late,
                # after the Timer's catch-up burst, which takes about a quarter of the gap
                self._catchup_end = time.ticks_add(now, (gap >> 2) + 2 * self.sample_ms)
            if self._fell:
                irq = machine.disable_irq()  # the GPIO IRQ may preempt this one
                fell = self._fell & ~raw
                self._fell = 0
                machine.enable_irq(irq)
                # pressed and let go again while the sampler was held off (outside a
                # catch-up that is a glitch shorter than a sample period: left to debounce)
                if fell and time.ticks_diff(now, self._catchup_end) <= 0:
                    self._tap |= fell
                    self._tap_t = now
            if self._tap:
                # held until a sample a tick after the first has shown it too: the two
                # samples the debouncer confirms a press with, however long a flash
                # program holds the sampler off in between
                raw |= self._tap
                if time.ticks_diff(now, self._tap_t) > 0:
                    self._tap = 0
            rw = self._raw
            h = self._head
            last = (h - 1) & (RING - 1)
            if ((h - self._tail) & (RING - 1) >= 2 and rw[last] == raw
                    and rw[(h - 2) & (RING - 1)] == raw):
                self._when[last] = now  # a run of one level: keep its first and last sample
                return
            nxt = (h + 1) & (RING - 1)
            if nxt == self._tail:
                self.lost += 1
                return
            rw[h] = raw
            self._when[h] = now
            self._head = nxt
        except KeyboardInterrupt:
            # Ctrl-C (mpremote, Thonny) landed in this callback: the IRQ dispatcher would
            # print it, swallow it and stop the Timer for good. The main loop raises it.
            self.interrupted = True
        except Exception:  # anything else would also stop the Timer: the buttons go dead
            self.irq_errors += 1

    def _edge(self, pin):
        """GPIO IRQ: a button's pin fell. The chip latches the edge while interrupts are
        off, so this runs when a flash write ends, before the sampler's catch-up."""
        pins = self.pins
        for i in range(self.npins):
            if pins[i] is pin:
                self._fell |= self._marks[i]
                return

    def _start_timer(self):
        cb = self._sample  # bound once: the IRQs must not allocate
        self._cb = cb
        edge = self._edge
        self._edge_cb = edge
        for p in self.pins:
            p.irq(edge, Pin.IRQ_FALLING, hard=True)
        try:
            self.timer = machine.Timer(mode=machine.Timer.PERIODIC, period=self.sample_ms,
                                       callback=cb, hard=True)
            self.sampling = "hard Timer"
        except TypeError:  # older firmware without hard=: soft IRQ still samples at 2 ms
            self.timer = machine.Timer(mode=machine.Timer.PERIODIC, period=self.sample_ms,
                                       callback=cb)
            self.sampling = "soft Timer"

    def poll(self, deb, now):
        if self.interrupted:  # a Ctrl-C the sampling IRQ caught: stop like any other
            self.interrupted = False
            raise KeyboardInterrupt
        if self.timer is None:
            deb.update(self.read(), now)
            return
        t = self._tail
        head = self._head
        while t != head:
            w = self._raw[t]
            if w != self._word:
                self._word = w
                self._mask = self._buttons(w) if self._words else w
            if not deb.quiet(self._mask):  # most samples: nothing held, nothing changed
                deb.update(self._mask, self._when[t])
            t = (t + 1) & (RING - 1)
        self._tail = t

    def _buttons(self, word):
        """The logical mask of a sampled GPIO_IN word (inverted: a held button's bit set)."""
        raw = 0
        gpios = self.gpios
        bits = self.bits
        for i in range(self.npins):
            if word >> gpios[i] & 1:
                raw |= bits[i]
        return raw

    # ---------------------------------------------------------------- the rest
    def ticks_ms(self):
        return time.ticks_ms()

    def attach(self, app):
        pass  # the panel is the Pico's only output

    def idle(self):
        """Feed the watchdog (start it on the first call: the app has booted), then sleep
        (the core in WFE) to the next sample period (loop mode) or the next LOOP_MS (timer
        mode: the Timer samples meanwhile)."""
        now = time.ticks_ms()
        w = self.wdt
        if w is not None:
            w.feed()
        elif self.wdt_ms > 0:
            self.wdt = machine.WDT(timeout=self.wdt_ms)
        self._fed = now
        wait = self.loop_ms - time.ticks_diff(now, self._last)
        if wait > 0:
            time.sleep_ms(wait)
        self._last = time.ticks_ms()

    def running(self):
        return True

    # ---------------------------------------------------------------- power
    def sleep(self):
        """Sleep until a button is down, at the least draw the chip offers on batteries."""
        # The boot clock first: the wake brings the clocks back to their defaults but
        # leaves the flash's divider as the slow clock set it, too fast for them on an RP2350
        self.power.clock(True)
        if self.timer is not None:
            self.timer.deinit()
        if self.wdt is not None:
            self._disarm()
        self.power.wait(self.gpios, self.read)
        self._prev_t = self._last = self._fed = time.ticks_ms()
        if self.timer is not None:
            self._start_timer()

    def urandom(self, n):
        return os.urandom(n)

    def console(self, line):
        print(line)

    def restore(self):
        if self.piezo is not None:
            self.piezo.deinit()  # no tone left sounding at the REPL
        if self.timer is not None:
            self.timer.deinit()
            for p in self.pins:
                p.irq(None)
        if self.wdt is not None:
            self._disarm()
        _unlist_package()

    def _disarm(self):
        """Stop the watchdog: rp2's machine.WDT has no deinit, so clear CTRL.ENABLE."""
        base = _watchdog()
        if base is not None:
            machine.mem32[base + _WDT_CLR] = _WDT_ENABLE
            self.wdt = None


def _unlist_package():
    """Unmount the package folder's listing (picoyacht/__init__), so the REPL and a file
    manager after Ctrl-C see littlefs itself: real sizes, and files they may change."""
    try:
        import vfs

        import picoyacht

        vfs.umount(picoyacht.__path__)
    except (ImportError, OSError):  # frozen, or never listed
        pass


def display_help(addr, cfg, found):
    """One console line for a display that does not answer: what the I2C scan saw and what
    to change. The game runs anyway and the driver keeps retrying."""
    where = "I2C%d SDA=GP%d SCL=GP%d" % (cfg.I2C_ID, cfg.SDA, cfg.SCL)
    if found is None:
        return "PicoYacht: I2C bus error on %s: check wiring and power" % where
    seen = " ".join("0x%02X" % a for a in found) or "nothing"
    hint = "check VCC/GND and that SDA and SCL are not swapped"
    if found and addr not in found:
        hint = "set OLED_ADDR = 0x%02X in config.py" % found[0]
    return "PicoYacht: no display at 0x%02X on %s; scan found %s: %s" % (addr, where, seen, hint)


def load_config(drive="/config.py"):
    """The settings, every one usable (picoyacht.config_check): built-in values, a frozen
    config.py over them (a `make uf2` firmware), then the drive's /config.py over those,
    which may hold just the lines a builder changed or be a whole copy (`make flash`'s
    layout, where it is the only config). A bad value falls back to its built-in one; a
    file that cannot be read or run is set aside whole. Nothing the file does can stop the
    boot: sys.exit(), a bad byte, running out of heap, and Ctrl-C too (a developer's second
    Ctrl-C breaks in once the game runs; a file that raises it must not brick the Pico),
    nor a file that never ends: it runs under the watchdog, and the boot after the reset
    sets it aside (config_check.Guard). Each refusal is printed and kept in cfg.notes,
    which the boot screen shows."""
    from picoyacht import config_check as check
    from picoyacht.heap import forget

    base = check.DEFAULTS
    notes = []
    frozen = _frozen_config()
    if frozen is not None:
        base, bad = check.settle(check.names(frozen.__dict__), base)
        notes += ["built-in config: " + n for n in bad]
    values = dict(base)
    values["BUTTONS"] = dict(base["BUTTONS"])  # the file may change it in place
    watchdog = _watchdog()
    guard = None
    if watchdog is not None:  # a chip we know the registers of
        guard = check.Guard(machine.mem32, watchdog, machine.WDT)
    try:
        why = check.run_file(drive, values, guard and guard.start)
    finally:
        if guard is not None:
            guard.stop()
    if why:
        notes.append(check.set_aside(why))
        values = base
    cfg, bad = check.settle(check.names(values), base)
    notes += ["config.py: " + n for n in bad]
    for n in notes:
        print("PicoYacht: " + n)
    settings = frozen if frozen is not None else Settings()  # no second copy of the map
    for name in cfg:
        setattr(settings, name, cfg[name])
    settings.notes = notes
    forget("config_check")  # its work is done: as .mpy its code is heap
    return settings


class Settings:
    """The settled settings as attributes (cfg.SDA), and the boot's notes about them. A
    class of this module: an instance of one of config_check's would hold that module's
    globals (its defaults and tables) on the heap for as long as the game runs."""


def _frozen_config():
    """The config.py frozen into the firmware, or None (`make flash`: none is)."""
    import sys

    path = sys.path
    keep = list(path)
    path.clear()
    path.append(".frozen")
    try:
        import config

        return config
    except ImportError:
        return None
    finally:
        path.clear()
        path.extend(keep)


def make_board():
    return PicoBoard(load_config())
