"""Runs ON the emulated Pico (host_tests/test_pico_sleep.py): the real board and app go to
sleep, up to the one call the emulator cannot come back from.

rp2040js does not model DORMANT: a machine.lightsleep() there never wakes. So the board
layer's `machine` is stood in for by one that passes every call to the real module except
lightsleep(), which records what the chip would see at that moment and returns, as a wake
would. Everything around it is the real firmware on the emulated chip: the saves on the
littlefs flash, the SSD1306 over I2C, the sampling Timer, the watchdog, the soft-power
latch's pin and the wake registers written through machine.mem32. Presses travel the
driver's handshake (tools/rigs/pico_probe.py: GPIO + 1 on GP17..21, GP22 toggled), so after the
wake a press goes pin, Timer, ring, debouncer, app.

Lines out: "K name value" for the host to read.
"""

import os
import time

import config
import machine
from machine import Pin

from picoyacht import app as A
from picoyacht import board_pico, board_power
from picoyacht.game import HUMAN
from picoyacht.heap import DUE
from picoyacht.policy import best_box

DATA = (17, 18, 19, 20, 21)
REQ = 22
HOLD = 3  # the soft-power latch's pin here: GP17..22 carry the press handshake
WAKE_INTE = 0x40014160  # the RP2040's IO_BANK0 DORMANT_WAKE_INTE0
GPIO_OUT = 0xD0000010  # SIO GPIO_OUT
WDT_CTRL = 0x40058000  # the RP2040's WATCHDOG CTRL: bit 30 ENABLE
SAVES = "/saves"


def say(name, value):
    print("K", name, value)


def saved_bytes():
    out = []
    for n in sorted(os.listdir(SAVES)):
        with open(SAVES + "/" + n, "rb") as f:
            out.append(f.read())
    return b"".join(out)


class Chip:
    """board_power's `machine`: the real one, but lightsleep() records and returns."""

    def __init__(self, board, app):
        self.board = board
        self.app = app
        self.wake = {}  # DORMANT_WAKE_INTE word address -> bits set through the alias
        self.mem32 = self
        self.sleeps = 0
        self.before = b""

    def __getitem__(self, addr):
        return machine.mem32[addr]

    def __setitem__(self, addr, bits):
        word = addr & ~0x3000
        if WAKE_INTE <= word < WAKE_INTE + 16:
            if addr & 0x3000 == 0x2000:
                self.wake[word] = self.wake.get(word, 0) | bits
            elif addr & 0x3000 == 0x3000:
                self.wake[word] = self.wake.get(word, 0) & ~bits
        machine.mem32[addr] = bits

    def freq(self, *hz):
        return machine.freq(*hz)

    def lightsleep(self, *ms):
        b = self.board
        self.sleeps += 1
        say("sleep_args", repr(ms))
        gpios = [8 * ((a - WAKE_INTE) >> 2) + k for a, w in self.wake.items()
                 for k in range(8) if w >> 4 * k & 1]
        say("wake_gpios", " ".join(str(g) for g in sorted(gpios)))
        say("freq", machine.freq())
        say("hold_level", machine.mem32[GPIO_OUT] >> HOLD & 1)
        say("wdt", b.wdt)
        say("wdt_enable_asleep", machine.mem32[WDT_CTRL] >> 30 & 1)
        say("app_power", self.app.power)
        say("saved_changed", int(saved_bytes() != self.before))


class Board(board_pico.PicoBoard):
    """The real board, its display's sleep() counted (the real call, over I2C, inside)."""

    def __init__(self, cfg):
        super().__init__(cfg)
        inner = self.display.sleep
        self.panel_sleeps = []

        def sleep():
            ok = inner()
            self.panel_sleeps.append(ok)
            return ok

        self.display.sleep = sleep


def press(cfg, runner, name, level):
    """One press through the driver's handshake, then loop passes until it is seen."""
    v = cfg.BUTTONS[name] + 1
    for k in range(5):
        Pin(DATA[k], Pin.OUT).value(v >> k & 1)
    Pin(REQ, Pin.OUT).value(level)
    end = time.ticks_add(time.ticks_ms(), 300)
    while time.ticks_diff(end, time.ticks_ms()) > 0:
        runner.step()


def main():
    cfg = config
    cfg.POWER_HOLD = HOLD
    cfg.SLEEP_MIN = 0  # only "Power off" sleeps it here
    board = Board(cfg)
    runner = A.Runner(board)
    app = runner.app
    chip = Chip(board, app)
    board_power.machine = chip
    say("hold_at_boot", machine.mem32[GPIO_OUT] >> HOLD & 1)
    s = app.settings
    s.nplayers = 1
    s.kinds[0] = HUMAN
    app.new_game()
    req = 0
    for _ in range(3):
        if app.screen.NAME == "play":
            break
        req ^= 1
        press(cfg, runner, "ok", req)  # past a handover
    g = app.turn.game
    req ^= 1
    press(cfg, runner, "roll", req)
    say("rolls_before", g.rolls_used)
    chip.before = saved_bytes()
    app.show(app.turn.score(best_box(g)))  # a move whose save is due in a later pass
    say("save_due", int(app.turn.saving >= DUE))
    rolls = g.rolls_used
    runner.power.step(app, True, board.ticks_ms())  # the display resting: the slow clock
    say("freq_resting", machine.freq())
    say("wdt_running", int(board.wdt is not None))
    say("wdt_enable", machine.mem32[WDT_CTRL] >> 30 & 1)
    app.power_off()
    # the loop's power step, as the pass after that frame makes it: save, display off,
    # the latch let go, DORMANT
    runner.power.step(app, False, board.ticks_ms())
    say("sleeps", chip.sleeps)
    say("panel_sleeps", " ".join(str(int(bool(ok))) for ok in board.panel_sleeps))
    say("hold_after_wake", machine.mem32[GPIO_OUT] >> HOLD & 1)
    say("wake_left", sum(chip.wake.values()))
    req ^= 1
    press(cfg, runner, "roll", req)  # the waking press: the display only
    say("power_after_press", app.power)
    say("rolled_by_wake", g.rolls_used - rolls)
    req ^= 1
    press(cfg, runner, "roll", req)  # the next press plays
    say("rolled_after", g.rolls_used - rolls)
    say("awake", A.AWAKE)
    board.restore()
    say("done", 1)


main()
