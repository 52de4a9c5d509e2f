"""A builder's config.py, checked before anything uses it: the board reads only settings
that pass here, so no value in that file can stop the Pico booting.

DEFAULTS are the settings firmware/config.py ships with (a test keeps the two equal): the
built-in values when no config is frozen in (`make flash` puts config.py on the drive as
the whole map, so a broken one must not leave the board with nothing). settle() takes the
merged settings and the built-in ones and returns settings that can all be used, with one
line per refusal in words a builder can act on ("SDA must be a pin number, using 4").

- A bad value falls back to its built-in value; a bad button map to the built-in map's
  up, down, ok and menu (the minimal build: playable on a full one too).
- Display pins the chosen I2C block cannot use fall back with the block, as one.
- Pins used twice: the groups (display, buttons, latch, piezo) are claimed in that order,
  those the file left alone first, and a group that clashes falls back.
- Names that look like settings but are none are reported (a typo is a silent no-op).

Pins: the Pico, Pico W and Pico 2 share one header. Their chips (RP2040, RP2350A) both
have GPIO 0-29, of which 23, 24, 25 and 29 are the board's own (power-save, VBUS sense,
the LED or the W's radio, VSYS sense), so a part may use GP0-22 and GP26-28; the I2C
pin pairs (function F3) and the watchdog's longest timeout are the same on both.

A file that never ends (a loop, a long sleep, machine.reset()) must not hang every boot:
the board runs it under the watchdog (Guard), and a boot that finds it never finished sets
that same file aside. The record of a run under way is two of the watchdog's scratch
registers, not a file: they outlive the watchdog's reset and a soft reset, not a power cut.
So a power cut while the file runs is not taken for a hang, a full or read-only drive
changes nothing, and no boot writes the flash. SCRATCH1 holds the file's CRC: while the
record stands, every boot sets that file aside at once; a changed file runs again (under
the watchdog), and after a power cycle an unchanged one hangs once more for RUN_S before
it is set aside. SCRATCH4-7 are the pico SDK's (its reboot and watchdog_caused_reboot).
The guard's watchdog runs only while the file does, whatever WDT_MS says (that is the
game's), and is stopped after it, also when Ctrl-C ends the run: the REPL is not reset
under a developer.

Pure Python without machine (the board hands Guard its registers and watchdog): the board
runs it at boot and forgets it, `make hardware` runs it on the host.
"""

import binascii

from picoyacht.buttons import BUTTON_NAMES

DEFAULTS = {
    "I2C_ID": 0, "SDA": 4, "SCL": 5, "I2C_FREQ": 400000, "OLED_ADDR": 0x3C,
    "OLED_FLIP": False,
    "BUTTONS": {"hold1": 6, "hold2": 7, "hold3": 8, "hold4": 9, "hold5": 10, "hold6": 11,
                "roll": 12, "up": 13, "down": 14, "ok": 15, "menu": 16},
    "PIEZO": None, "BATTERY_SENSE": False, "SAMPLING": "timer", "SAMPLE_MS": 2,
    "WDT_MS": 8000, "WDT_GRACE_MS": 8000, "SLEEP_MIN": 5, "POWER_HOLD": None,
    "SAVE_DIR": "/saves",
}
BOARD_GPIOS = (23, 24, 25, 29)  # not on the header: the board's own (the W's radio)
I2C_SDA = ((0, 4, 8, 12, 16, 20), (2, 6, 10, 14, 18, 26))  # by I2C block
I2C_SCL = ((1, 5, 9, 13, 17, 21), (3, 7, 11, 15, 19, 27))
WDT_MAX_MS = 8388  # rp2's machine.WDT refuses a longer timeout on either chip
RUN_S = 8  # longer than this at boot, config.py is taken for hung (the board's watchdog)
UNFINISHED = "did not finish in %d s" % RUN_S  # why such a file is set aside
RUNNING = 0x1C0F1600  # SCRATCH0 while a config.py runs (power-on: 0)
_SCRATCH = 0x0C  # of the WATCHDOG registers: SCRATCH0 (the mark), SCRATCH1 (+4: the CRC)
_CLEAR = 0x3000  # CTRL's atomic-clear alias
_ENABLE = 1 << 30  # CTRL.ENABLE
_CRC_BITS = 0xFFFFFF  # of the CRC: a small int on the Pico
MINIMAL = ("up", "down", "ok", "menu")  # the buttons every build needs
_PINS = "GP0-22, 26-28"


def _int(v, lo, hi):
    return type(v) is int and lo <= v <= hi


def pin_problem(v, alone=""):
    """Why v cannot be a part's GPIO ("" if it can): words that follow a setting's name.
    alone: how to say the part is not fitted, where it may be left out ("None")."""
    alone = " or " + alone if alone else ""
    if type(v) is not int:
        return "must be a pin number" + alone
    if v in BOARD_GPIOS or not 0 <= v <= 28:
        return "must be %s%s" % (_PINS, alone)
    return ""


def _value_problem(name, v):
    """Why a setting other than the pins and the button map is unusable, or ""."""
    if name == "I2C_ID":
        return "" if _int(v, 0, 1) else "must be 0 or 1"
    if name == "I2C_FREQ":
        return "" if _int(v, 10000, 1000000) else "must be a whole number of Hz, 10000-1000000"
    if name == "OLED_ADDR":
        return "" if _int(v, 0x3C, 0x3D) else "must be 0x3C or 0x3D"
    if name in ("OLED_FLIP", "BATTERY_SENSE"):
        return "" if type(v) is bool else "must be True or False"
    if name == "SAMPLING":
        return "" if v in ("timer", "loop") else 'must be "timer" or "loop"'
    if name == "SAMPLE_MS":
        return "" if _int(v, 1, 20) else "must be a whole number of ms, 1-20"
    if name == "WDT_MS":
        return "" if v == 0 and type(v) is int or _int(v, 1000, WDT_MAX_MS) else (
            "must be 0 (off) or 1000-%d ms" % WDT_MAX_MS)
    if name == "WDT_GRACE_MS":
        return "" if _int(v, 0, 60000) else "must be a whole number of ms, 0-60000"
    if name == "SLEEP_MIN":
        return "" if _int(v, 0, 1440) else "must be 0 (never) or 1-1440 minutes"
    if name == "SAVE_DIR":
        return "" if _folder(v) else 'must be a folder such as "/saves"'
    if name in ("PIEZO", "POWER_HOLD"):
        return "" if v is None else pin_problem(v, "None")
    return pin_problem(v)  # SDA, SCL


def _folder(v):
    if type(v) is not str or not 1 < len(v) <= 32 or v[0] != "/":
        return False
    for part in v[1:].rstrip("/").split("/"):
        if part in ("", ".", ".."):
            return False
        for ch in part:
            if not (ch.isalpha() or ch.isdigit() or ch in "_-.") or ord(ch) > 126:
                return False
    return True


def shown(name, v):
    """A setting's value as config.py would spell it."""
    if name == "OLED_ADDR":
        return "0x%02X" % v
    if name == "BUTTONS":
        return ", ".join("%s %d" % (n, v[n]) for n in BUTTON_NAMES if v.get(n) is not None)
    return '"%s"' % v if type(v) is str else str(v)


def buttons_problem(m):
    """Why m cannot be the button map (words after "BUTTONS "), or ""."""
    if type(m) is not dict:
        return 'must be a dict such as {"ok": 15}'
    for n in m:
        if n not in BUTTON_NAMES:
            if type(n) is str and n.lower() in BUTTON_NAMES:
                return 'has "%s": write "%s"' % (n, n.lower())
            return "has an unknown button %r" % (n,)
        if m[n] is not None and pin_problem(m[n]):
            return "%s %s" % (n, pin_problem(m[n]))
    missing = [n for n in MINIMAL if m.get(n) is None]
    if missing:
        return "is empty" if not m else "lacks " + ", ".join(missing)
    return ""


def _problem(name, x):
    """Why a setting's value is unusable, or "". A value whose comparisons raise (an
    object of the file's own class) is as unusable as a wrong one."""
    try:
        return buttons_problem(x) if name == "BUTTONS" else _value_problem(name, x)
    except Exception:
        return "must be a plain value"


def _minimal(m):
    return {n: m[n] for n in MINIMAL}


def _groups(v):
    """(setting, [(use, gpio)]) for every part with pins, in the order they are claimed."""
    return (("I2C_ID", [("display SDA", v["SDA"]), ("display SCL", v["SCL"])]),
            ("BUTTONS", [(n, v["BUTTONS"][n]) for n in BUTTON_NAMES
                         if v["BUTTONS"].get(n) is not None]),
            ("POWER_HOLD", [("power hold", v["POWER_HOLD"])] if v["POWER_HOLD"] is not None
             else []),
            ("PIEZO", [("piezo", v["PIEZO"])] if v["PIEZO"] is not None else []))


def pins_in_use(v):
    """[(use, gpio)] of settled settings: the display's pins, the buttons, latch, piezo."""
    return [u for _, uses in _groups(v) for u in uses]


def _clash(uses, claimed):
    """(gpio, first use, second use) of the first pin used twice, or None."""
    mine = {}
    for use, g in uses:
        other = claimed.get(g) or mine.get(g)
        if other:
            return g, other, use
        mine[g] = use
    return None


def _fall_back(key, v, base):
    """Put a group's built-in pins back; the words that say what it uses now."""
    if key == "I2C_ID":
        for k in ("I2C_ID", "SDA", "SCL"):
            v[k] = base[k]
        return "I2C%d, SDA %d, SCL %d" % (base["I2C_ID"], base["SDA"], base["SCL"])
    if key == "BUTTONS":
        v[key] = _minimal(base[key])
        return shown(key, v[key])
    v[key] = base[key]
    return shown(key, v[key])


def settle(values, base):
    """(settings, notes): every setting of DEFAULTS from values, usable as it stands, and
    one line per refusal. base: the built-in settings a bad one falls back to, themselves
    settled (DEFAULTS settle with no notes)."""
    v = {}
    notes = []
    for name in DEFAULTS:
        if name not in values:
            v[name] = base[name]
            continue
        x = values[name]
        why = _problem(name, x)
        if name == "BUTTONS":
            if why:
                v[name] = _minimal(base[name])
                notes.append("BUTTONS %s, using %s" % (why, shown(name, v[name])))
            else:
                v[name] = dict(x)  # a copy: nothing the file keeps a hold of
            continue
        if why:
            x = base[name]
            notes.append("%s %s, using %s" % (name, why, shown(name, x)))
        v[name] = x
    for name in values:
        if name not in DEFAULTS and name.isupper() and name[0] != "_":
            notes.append("%s is not a setting (a typo?): ignored" % name)
    bus = v["I2C_ID"]
    if v["SDA"] not in I2C_SDA[bus] or v["SCL"] not in I2C_SCL[bus]:
        other = v["SDA"] in I2C_SDA[1 - bus] and v["SCL"] in I2C_SCL[1 - bus]
        what = "I2C%d cannot use SDA %d, SCL %d%s" % (
            bus, v["SDA"], v["SCL"], " (I2C%d can)" % (1 - bus) if other else "")
        notes.append("%s, using %s" % (what, _fall_back("I2C_ID", v, base)))
    _claim(v, base, notes)
    return v, notes


def _claim(v, base, notes):
    """Each pin to one part: see the module docstring. Falls back group by group, and to
    every built-in pin if a group's own built-in pins clash too."""
    keys = ("I2C_ID", "SDA", "SCL")
    changed = [g[0] for g in _groups(v)
               if any(v[k] != base[k] for k in (keys if g[0] == "I2C_ID" else (g[0],)))]
    order = [k for k, _ in _groups(v) if k not in changed] + changed
    claimed = {}
    for key in order:
        uses = dict(_groups(v))[key]
        c = _clash(uses, claimed)
        if c is not None:
            using = _fall_back(key, v, base)
            notes.append("%s: GP%d used twice (%s, %s), using %s" % (
                "I2C" if key == "I2C_ID" else key, c[0], c[1], c[2], using))
            uses = dict(_groups(v))[key]
            if _clash(uses, claimed) is not None:
                for k in keys + ("POWER_HOLD", "PIEZO"):
                    v[k] = base[k]
                v["BUTTONS"] = dict(base["BUTTONS"])
                notes.append("pins still clash: using every built-in pin")
                return
        for use, g in uses:
            claimed[g] = use


def set_aside(why):
    """The line for a config file run_file() set aside whole."""
    return "config.py %s, using the built-in settings" % why


def run_file(path, values, before=None):
    """Run a config file over values (a dict: its globals); "" if it ran or there is no
    such file, else why it was set aside, in a few words. Catches everything the file can
    raise, BaseException's kinds included (see board_pico.load_config). before: given the
    file's bytes just ahead of running them; a reason it returns sets the file aside unrun
    (the board's guard against a file that never ends)."""
    try:
        with open(path, "rb") as f:
            src = f.read()
    except OSError as e:
        return "" if e.args and e.args[0] == 2 else "cannot be read (%s)" % e  # 2: ENOENT
    except BaseException as e:  # out of heap for a huge file
        return "cannot be read (%s)" % type(e).__name__
    why = before(src) if before is not None else ""
    if why:
        return why
    try:
        exec(str(src, "utf-8"), values)
    except UnicodeError:
        return "is not UTF-8 text"
    except SyntaxError as e:
        return "has a syntax error (%s)" % e
    except BaseException as e:  # SystemExit, KeyboardInterrupt, MemoryError, any error
        return "stopped with %s" % type(e).__name__
    return ""


def names(namespace):
    """The settings (and would-be settings) a config's namespace holds."""
    return {k: namespace[k] for k in namespace if type(k) is str and k.isupper()}


class Guard:
    """start() and stop() around one run of the file (run_file's `before`). mem: the chip's
    32-bit words (machine.mem32); base: its WATCHDOG registers; arm: machine.WDT."""

    def __init__(self, mem, base, arm):
        self.mem = mem
        self.base = base
        self.arm = arm
        self.armed = False

    def start(self, src):
        """Just before the file runs: "" and the watchdog armed, or why it must not run."""
        mem = self.mem
        mark = self.base + _SCRATCH
        crc = binascii.crc32(src) & _CRC_BITS
        if mem[mark] == RUNNING and mem[mark + 4] & _CRC_BITS == crc:
            return UNFINISHED  # this file ran at the last boot and never came back
        self.armed = True  # first: stop() undoes whatever of this a Ctrl-C lets happen
        mem[mark + 4] = crc
        mem[mark] = RUNNING
        self.arm(timeout=RUN_S * 1000)
        return ""

    def stop(self):
        """The file is done (or failed, or was interrupted): no watchdog, no record."""
        if self.armed:
            self.mem[self.base + _CLEAR] = _ENABLE
            self.mem[self.base + _SCRATCH] = 0
            self.armed = False
