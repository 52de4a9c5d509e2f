"""The Pico's power: its CPU clock, its sleep until a button is down, its supply voltage.

The half of the board that deals in power, kept apart from board_pico's buttons, display
and watchdog. picoyacht.power decides when; this module does it on the chip.

clock(fast) runs the CPU at its clock from boot, or at SLOW_HZ while the display is
dimmed or off. wait() puts the chip in DORMANT (machine.lightsleep() with no argument
stops the crystal) with a wake on each button's pin going low, which MicroPython does not
set up itself, so it is written to IO_BANK0's DORMANT_WAKE_INTE registers here. On USB
power DORMANT would drop the USB connection, so it waits in short light sleeps instead.
Each board says where USB is: the Pico and Pico 2 sense VBUS on GP24; a Pico W's VBUS
sense is the wireless chip's GPIO2 ("WL_GPIO2" in MicroPython's W builds), since GP24 is
that chip's data line there. The board stops its sampling Timer and its
watchdog around wait() (the watchdog would count on after the wake). battery_mv() reads
VSYS for the diagnostics screen.

Soft power (config.POWER_HOLD, hardware/BOM.md): the hold pin goes high as the board is
built, which keeps the latch on once the power button is let go. wait() lets it go first:
on the cells the power then fades within the latch's RC time, while the chip is already
DORMANT (the save is written by then), so a latch that is not fitted or USB power only
leaves the wait as it is without one. A press before the power is gone wakes the chip,
which takes the latch back.

A board layer: it and board_pico are the modules that import machine.
"""

import machine
from machine import Pin
from micropython import const

# IO_BANK0 DORMANT_WAKE_INTE0, per chip (pico-sdk hardware/regs/io_bank0.h): 4 bits per
# GPIO, 8 GPIOs a word, bit 0 of each nibble = wake while the pin is low. +0x2000 sets
# bits, +0x3000 clears them (the atomic aliases).
_WAKE_INTE = (("RP2350", 0x400282D8), ("RP2040", 0x40014160))
_VBUS_GPIO = const(24)  # Pico and Pico 2: high while USB powers the board
_VBUS_W = "WL_GPIO2"  # Pico W and Pico 2 W: the same sense, on the wireless chip
_NAP_MS = const(20)  # a light sleep on USB power, between looks at the buttons
SLOW_HZ = 48000000  # the display dimmed or off: the lowest clock the USB PLL also runs at


class PicoPower:
    """The clock the CPU runs at, the wait for a press at the least draw on offer, and the
    supply. `chip` is sys.implementation._machine: it names the registers to write.
    `battery_sense`: config.BATTERY_SENSE, VSYS wired to GP29 as on a Pico."""

    hold = None  # the latch's pin; an instance's own only where one is fitted (no heap else)

    def __init__(self, chip, battery_sense, hold=None):
        self.chip = chip
        self.battery_sense = battery_sense
        if hold is not None:
            self.hold = Pin(hold, Pin.OUT, value=1)
        self.fast = True
        self.fast_hz = machine.freq()

    def clock(self, fast):
        """The CPU's clock: full speed for play, slower while nobody is watching."""
        if fast != self.fast:
            self.fast = fast
            try:
                machine.freq(self.fast_hz if fast else SLOW_HZ)
            except (ValueError, OSError):
                pass  # a firmware that cannot: it stays at its clock

    def usb_powered(self):
        """VBUS is present: the board's own sense line. On a W build that cannot reach its
        radio chip it assumes USB: a nap costs more than DORMANT, a dropped link more."""
        if " W" in self.chip:
            try:
                return Pin(_VBUS_W, Pin.IN).value() == 1
            except (ValueError, OSError):
                return True
        return Pin(_VBUS_GPIO, Pin.IN).value() == 1

    def wait(self, gpios, read):
        """Sleep until read() (the board's button mask) sees a button down, the soft-power
        latch let go meanwhile: on the cells the power goes, and the wait never ends. The
        boot clock must be back first (see PicoBoard.sleep)."""
        hold = self.hold
        if hold is not None:
            hold.value(0)
        self._wait(gpios, read)
        if hold is not None:
            hold.value(1)

    def _wait(self, gpios, read):
        """The wait itself. Returns at once on a chip without known wake registers or with
        no button pins."""
        if self.usb_powered():
            while not read():
                machine.lightsleep(_NAP_MS)
            return
        regs = [addr for name, addr in _WAKE_INTE if name in self.chip]
        if not regs or not gpios:
            return
        base = regs[0]
        for g in gpios:
            machine.mem32[base + 0x2000 + 4 * (g >> 3)] = 1 << 4 * (g & 7)
        if not read():  # a press on the way down: awake already
            machine.lightsleep()
        for g in gpios:
            machine.mem32[base + 0x3000 + 4 * (g >> 3)] = 1 << 4 * (g & 7)

    def battery_mv(self):
        """VSYS in mV through the on-board 3:1 divider on GP29 (ADC3); None if not fitted."""
        if not self.battery_sense:
            return None
        from machine import ADC

        if " W" in self.chip:  # Pico W / Pico 2 W
            Pin(25, Pin.OUT, value=1)  # deselect the radio so GP29 reads VSYS (Wi-Fi unused)
            Pin(29, Pin.IN, pull=None)
        raw = ADC(Pin(29)).read_u16()  # 0..65535 for 0..3.3 V
        return raw * 9900 // 65535  # x3 divider, 3300 mV: < 2**30, no long int
