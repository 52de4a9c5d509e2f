"""A builder's config.py that never ends (a loop, a long sleep, machine.reset()) must not
hang every boot: it runs under the watchdog, and a boot that finds it never finished sets
that same file aside (board_pico.load_config shows why and plays on built-in settings).

The record of a run under way is two of the watchdog's scratch registers, not a file:
they outlive the watchdog's reset and a soft reset, not a power cut. So a power cut while
the file runs is not taken for a hang, a full or read-only drive changes nothing, and no
boot writes the flash. SCRATCH1 holds the file's CRC: while the record stands, every boot
sets that file aside at once; a changed file runs again (under the watchdog), and after a
power cycle an unchanged one hangs once more for RUN_S before it is set aside.
SCRATCH4-7 are the pico SDK's (its reboot and watchdog_caused_reboot).

The watchdog runs only while the file does, whatever WDT_MS says (that is the game's),
and is stopped after it, also when Ctrl-C ends the run: the REPL is not reset under a
developer. Imported for the boot and forgotten after it.
"""

import binascii

import machine
from micropython import const

from picoyacht.config_check import RUN_S, UNFINISHED

_SCRATCH = const(0x0C)  # SCRATCH0 (the mark) and SCRATCH1 (+4: the file's CRC)
_CLEAR = const(0x3000)  # CTRL's atomic-clear alias
_ENABLE = const(1 << 30)  # CTRL.ENABLE
RUNNING = const(0x1C0F1600)  # SCRATCH0 while a config.py runs (power-on: 0)
_CRC_BITS = const(0xFFFFFF)  # of the CRC: a small int on the Pico


class Guard:
    """start() and stop() around one run of the file (see run_file's `before`)."""

    def __init__(self, base):
        self.base = base  # the chip's WATCHDOG registers
        self.armed = False

    def start(self, src):
        """Just before the file runs: "" and the watchdog armed, or why it must not run."""
        mem = machine.mem32
        mark = self.base + _SCRATCH
        crc = binascii.crc32(src) & _CRC_BITS
        if mem[mark] == RUNNING and mem[mark + 4] & _CRC_BITS == crc:
            return UNFINISHED  # this file ran at the last boot and never came back
        self.armed = True  # first: stop() undoes whatever of this a Ctrl-C lets happen
        mem[mark + 4] = crc
        mem[mark] = RUNNING
        machine.WDT(timeout=RUN_S * 1000)
        return ""

    def stop(self):
        """The file is done (or failed, or was interrupted): no watchdog, no record."""
        if self.armed:
            machine.mem32[self.base + _CLEAR] = _ENABLE
            machine.mem32[self.base + _SCRATCH] = 0
            self.armed = False
