"""`make hardware`: the pin table, wiring diagram and Wokwi project, all from firmware/config.py.

    hardware/PINS.md               pin table (full and minimal build, display, power, spare pins)
    hardware/wiring.svg            wiring diagram: the Pico's 40 pins, the OLED, the buttons
    hardware/wokwi/diagram.json    the same circuit for the Wokwi simulator
    hardware/wokwi/wokwi.toml      Wokwi for VS Code: which MicroPython .uf2 to boot

config.py is read as the Pico reads it (run over the built-in settings) and checked first
by the Pico's own check, picoyacht.config_check (types, GPIOs that exist, none used twice,
none of the Pico W's radio pins, SDA/SCL on pins the chosen I2C block can use, a button
map with up, down, ok and menu): each refusal is printed as the Pico would print it at boot,
and the exit status is 1. A file still running after RUN_LIMIT_S (where the host has
interval timers) is stopped and refused as the Pico's watchdog guard would set it aside.
So `make hardware` is also the way to check an edited pin map. Output is deterministic (no
dates, sorted choices) so a test can regenerate and compare.

    python tools/hardware/wiring.py [--config PATH] [--out DIR] [--check]
"""

import argparse
import ast
import json
import re
import signal
import sys
import types
from itertools import permutations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tools/, for paths
import paths  # noqa: F401  (the firmware package on sys.path)

from picoyacht import config_check

ROOT = paths.ROOT
CONFIG = ROOT / "firmware" / "config.py"
OUT = ROOT / "hardware"
RUN_LIMIT_S = config_check.RUN_S  # as long as the Pico lets config.py run at boot

# ---------------------------------------------------------------- the Pico's header
# Physical pin -> name, pins 1-20 down the left side (USB at the top), 21-40 up the right.
PIN_NAMES = {}
_gp = 0
for _p in range(1, 30):
    if _p % 5 == 3:
        PIN_NAMES[_p] = "GND"
    else:
        PIN_NAMES[_p] = "GP%d" % _gp
        _gp += 1
PIN_NAMES.update({30: "RUN", 31: "GP26", 32: "GP27", 33: "AGND", 34: "GP28", 35: "ADC_VREF",
                  36: "3V3(OUT)", 37: "3V3_EN", 38: "GND", 39: "VSYS", 40: "VBUS"})
GPIO_PIN = {int(n[2:]): p for p, n in PIN_NAMES.items() if n.startswith("GP")}
# Pin 33 is AGND, the ADC's quiet ground: no return current of buttons, display or cells.
GND_PINS = tuple(p for p in sorted(PIN_NAMES) if PIN_NAMES[p] == "GND")
PIN_3V3 = 36
PIN_VSYS = 39
PIN_GND_BATTERY = 38  # the cells' (or charger's) return, beside VSYS
# Wokwi's wokwi-pi-pico names its grounds GND.1 .. GND.8 in header order, AGND among them.
_ALL_GROUNDS = tuple(p for p in sorted(PIN_NAMES) if PIN_NAMES[p] in ("GND", "AGND"))
WOKWI_PIN = {p: ("GND.%d" % (_ALL_GROUNDS.index(p) + 1) if p in _ALL_GROUNDS else n)
             for p, n in PIN_NAMES.items()}
WOKWI_PIN[36] = "3V3"

# ---------------------------------------------------------------- the buttons
# Logical order of picoyacht.buttons.BUTTON_NAMES (a test keeps them equal).
BUTTON_ORDER = ("hold1", "hold2", "hold3", "hold4", "hold5", "hold6", "roll", "up", "down",
                "ok", "menu")
LABEL = {"hold1": "Hold 1", "hold2": "Hold 2", "hold3": "Hold 3", "hold4": "Hold 4",
         "hold5": "Hold 5", "hold6": "Hold 6", "roll": "Roll", "up": "Up", "down": "Down",
         "ok": "OK (A)", "menu": "Menu (B)"}
ROLE = {"hold1": "hold die 1", "hold2": "hold die 2", "hold3": "hold die 3",
        "hold4": "hold die 4", "hold5": "hold die 5", "hold6": "hold die 6 (6-dice games)",
        "roll": "roll the dice", "up": "cursor up", "down": "cursor down",
        "ok": "select / score", "menu": "menu / back; hold at power-on: diagnostics"}
# Keyboard keys in Wokwi (close to `make sim`: 1-6, R, W/S, A, B).
KEY = {"hold1": "1", "hold2": "2", "hold3": "3", "hold4": "4", "hold5": "5", "hold6": "6",
       "roll": "r", "up": "w", "down": "s", "ok": "a", "menu": "b"}
MINIMAL = config_check.MINIMAL

# Wire colours by function: (SVG colour, Wokwi colour name).
COLOUR = {"sda": ("#1f5fbf", "blue"), "scl": ("#c99700", "gold"), "vcc": ("#d62828", "red"),
          "gnd": ("#222222", "black"), "hold": ("#2a8f3e", "green"),
          "roll": ("#e07b00", "orange"), "nav": ("#7b3fb0", "purple"),
          "piezo": ("#8a5a2b", "brown"), "latch": ("#c2185b", "magenta")}
LATCH_LABEL = "Latch HOLD"  # the soft-power latch's hold input (BOM.md "Soft power")


def wire_kind(name):
    if name in ("piezo", "latch"):
        return name
    if name.startswith("hold"):
        return "hold"
    return "roll" if name == "roll" else "nav"


def part_label(name):
    return {"piezo": "Piezo", "latch": LATCH_LABEL}.get(name) or LABEL[name]


class ConfigError(ValueError):
    """The pin map cannot be wired as written; the message says why, in one line."""


# ---------------------------------------------------------------- reading config.py
def load_config(path=CONFIG):
    """config.py as the Pico reads it: run over the built-in settings (so it may hold just
    the lines a builder changed), with its text kept for the minimal build's line. A file
    the Pico would set aside whole is a ConfigError here."""
    path = Path(path)
    values = dict(config_check.DEFAULTS)
    values["BUTTONS"] = dict(values["BUTTONS"])
    why = run_limited(str(path), values)
    if why:
        raise ConfigError(config_check.set_aside(why))
    cfg = types.SimpleNamespace(**config_check.names(values))
    cfg.__source__ = path.read_text(errors="replace")
    return cfg


class _TooLong(BaseException):
    """Raised into a config.py that has run for RUN_LIMIT_S."""


def run_limited(path, values):
    """config_check.run_file, stopped after RUN_LIMIT_S where the host can (an interval
    timer: POSIX); a stopped file's reason is the Pico's for one that never finished."""
    if not hasattr(signal, "setitimer"):
        return config_check.run_file(path, values)
    fired = []

    def stop(_signum, _frame):
        fired.append(1)
        raise _TooLong

    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, RUN_LIMIT_S)
    try:
        why = config_check.run_file(path, values)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    return config_check.UNFINISHED if fired else why


def fitted(buttons):
    """Buttons that are wired, in the firmware's logical order: [(name, gpio)]."""
    return [(n, buttons[n]) for n in BUTTON_ORDER if buttons.get(n) is not None]


def minimal_buttons(cfg):
    """The minimal build: the commented `# BUTTONS = {...}` line of config.py, or else the
    four buttons up/down/ok/menu of the full map."""
    for line in getattr(cfg, "__source__", "").splitlines():
        m = re.match(r"\s*#\s*BUTTONS\s*=\s*(\{.*\})\s*$", line)
        if m:
            try:
                return ast.literal_eval(m.group(1))
            except (ValueError, SyntaxError):
                break
    full = getattr(cfg, "BUTTONS", {})
    return {n: full[n] for n in MINIMAL if full.get(n) is not None}


def optional(cfg):
    """Optional parts the config defines: (piezo GPIO or None, battery sense on/off)."""
    return getattr(cfg, "PIEZO", None), bool(getattr(cfg, "BATTERY_SENSE", False))


def soft_power(cfg):
    """The GPIO that holds the soft-power latch on (config.POWER_HOLD), or None."""
    return getattr(cfg, "POWER_HOLD", None)


def check(cfg):
    """Raise ConfigError unless the Pico would take every setting as written (the board's
    own check, picoyacht.config_check: its first refusal, the others in `.notes`);
    returns the list of (use, gpio)."""
    values, notes = config_check.settle(config_check.names(vars(cfg)), config_check.DEFAULTS)
    if notes:
        e = ConfigError(notes[0])
        e.notes = notes
        raise e
    return config_check.pins_in_use(values)


# ---------------------------------------------------------------- layout (shared by all three)
PITCH = 22
BOARD_X = 470  # left pad column
BOARD_W = 150
BOARD_Y = 150
ROW0 = BOARD_Y + 34
WIDTH = 2 * BOARD_X + BOARD_W  # symmetric canvas
CX = BOARD_X + BOARD_W / 2


def side_row(pin):
    """('L' or 'R', row 1..20 from the top) of a physical pin."""
    return ("L", pin) if pin <= 20 else ("R", 41 - pin)


def row_y(row):
    return ROW0 + (row - 1) * PITCH


def mirror(x, side):
    return x if side == "L" else 2 * CX - x


PAD_X = BOARD_X - 7  # where a wire meets a left pad (outer edge of the pad)
BTN_R = 340  # button's Pico-side terminal (left-side coordinates)
BTN_L = 300
RAIL_X = 262
MOD_X = 40  # OLED module box, left-side coordinates
MOD_W = 140
MOD_PIN_X = MOD_X + MOD_W + 12  # end of the module's header pins


def _channel(k):
    return PAD_X - 24 - 14 * k


def _track(k):
    return BOARD_Y - 30 - 12 * k


class Wire:
    def __init__(self, kind, points, label=""):
        self.kind = kind
        self.points = points  # absolute coordinates, orthogonal polyline
        self.label = label

    def segments(self):
        p = self.points
        return [(p[i], p[i + 1]) for i in range(len(p) - 1)]


def _pad_point(pin):
    side, row = side_row(pin)
    return (mirror(PAD_X, side), row_y(row))


def plan(cfg):
    """Every part and wire, placed. The same plan feeds PINS.md, the SVG and diagram.json."""
    check(cfg)
    buttons = fitted(getattr(cfg, "BUTTONS", {}))
    piezo, battery = optional(cfg)
    p = {"buttons": [], "wires": [], "rails": {}, "gnd": {}}
    # Buttons (and the piezo) sit on their pin's row, wired straight; a ground rail per side.
    parts = [(n, g) for n, g in buttons]
    if piezo is not None:
        parts.append(("piezo", piezo))
    if soft_power(cfg) is not None:
        parts.append(("latch", soft_power(cfg)))  # its NPN's emitter on the ground rail
    by_side = {"L": [], "R": []}
    for name, g in parts:
        pin = GPIO_PIN[g]
        side, row = side_row(pin)
        by_side[side].append((row, name, g, pin))
    used_gnd = set()
    for side, items in by_side.items():
        if not items:
            continue
        rows = [r for r, _, _, _ in items]
        mid = (min(rows) + max(rows)) / 2
        cands = [g for g in GND_PINS if side_row(g)[0] == side and g != PIN_GND_BATTERY]
        gpin = min(cands, key=lambda g: (abs(side_row(g)[1] - mid), g))
        used_gnd.add(gpin)
        grow = side_row(gpin)[1]
        top = min(rows + [grow])
        bot = max(rows + [grow])
        rx = mirror(RAIL_X, side)
        p["rails"][side] = (gpin, rx, row_y(top), row_y(bot))
        p["wires"].append(Wire("gnd", [(rx, row_y(top)), (rx, row_y(bot))]))
        p["wires"].append(Wire("gnd", [(rx, row_y(grow)), _pad_point(gpin)], "GND"))
        for row, name, g, pin in sorted(items):
            y = row_y(row)
            kind = wire_kind(name)
            p["buttons"].append({"name": name, "gpio": g, "pin": pin, "side": side, "y": y,
                                 "gnd_pin": gpin})
            p["wires"].append(Wire(kind, [(mirror(BTN_R, side), y), _pad_point(pin)],
                                   part_label(name)))
            p["wires"].append(Wire("gnd", [(rx, y), (mirror(BTN_L, side), y)]))
    p["oled"] = _place_oled(cfg, p["wires"], used_gnd)
    p["wires"] += p["oled"]["wires"]
    p["gnd"] = {"oled": p["oled"]["gnd_pin"], "battery": PIN_GND_BATTERY}
    p["battery"] = battery
    return p


def _crossings(wires):
    """(count, collinear overlaps) between the wires' segments."""
    segs = [(i, s) for i, w in enumerate(wires) for s in w.segments()]
    cross = overlap = 0
    for a in range(len(segs)):
        ia, ((x1, y1), (x2, y2)) = segs[a]
        for b in range(a + 1, len(segs)):
            ib, ((x3, y3), (x4, y4)) = segs[b]
            if ia == ib:
                continue
            av, bv = x1 == x2, x3 == x4
            if av and not bv:
                if min(x3, x4) < x1 < max(x3, x4) and min(y1, y2) < y3 < max(y1, y2):
                    cross += 1
            elif bv and not av:
                if min(x1, x2) < x3 < max(x1, x2) and min(y3, y4) < y1 < max(y3, y4):
                    cross += 1
            elif av and bv and x1 == x3:
                if min(max(y1, y2), max(y3, y4)) > max(min(y1, y2), min(y3, y4)):
                    overlap += 1
            elif not av and not bv and y1 == y3:
                if min(max(x1, x2), max(x3, x4)) > max(min(x1, x2), min(x3, x4)):
                    overlap += 1
    return cross, overlap


def _length(wires):
    return sum(abs(b[0] - a[0]) + abs(b[1] - a[1]) for w in wires for a, b in w.segments())


def _place_oled(cfg, fixed, used_gnd):
    """Module beside its I2C pins, header facing the Pico; the four wires routed through
    channels (and over the top of the board for pins on the far side). Tries every module
    height, channel order and ground pin; keeps the fewest crossings, then the shortest."""
    sda_side, sda_row = side_row(GPIO_PIN[cfg.SDA])
    scl_side, scl_row = side_row(GPIO_PIN[cfg.SCL])
    side = sda_side
    # Header order from the top: the module's GND VCC SCL SDA, turned to face the Pico.
    order = ("gnd", "vcc", "scl", "sda") if side == "L" else ("sda", "scl", "vcc", "gnd")
    lo = max(1, min(sda_row, scl_row) - 5)
    hi = min(17, max(sda_row, scl_row))
    best = None
    gnd_choices = [g for g in GND_PINS if g not in used_gnd and g != PIN_GND_BATTERY]
    for top in range(lo, hi + 1):
        rows = {f: top + i for i, f in enumerate(order)}
        for gpin in gnd_choices:
            targets = {"sda": GPIO_PIN[cfg.SDA], "scl": GPIO_PIN[cfg.SCL], "vcc": PIN_3V3,
                       "gnd": gpin}
            for perm in permutations(range(4)):
                wires = []
                for f, k in zip(("gnd", "vcc", "scl", "sda"), perm, strict=True):
                    wires.append(_route(f, side, rows[f], targets[f], k))
                c, o = _crossings(wires + fixed)
                score = (o, c, _length(wires), top, gpin, perm)
                if best is None or score < best[0]:
                    best = (score, wires, rows, gpin)
    _, wires, rows, gpin = best
    return {"side": side, "rows": rows, "wires": wires, "gnd_pin": gpin, "order": order}


def _route(func, side, mrow, target_pin, k):
    """Orthogonal route from the module's header pin to a Pico pad, channel k."""
    y0 = row_y(mrow)
    start = (mirror(MOD_PIN_X, side), y0)
    tside, trow = side_row(target_pin)
    end = _pad_point(target_pin)
    y1 = end[1]
    label = {"sda": "SDA", "scl": "SCL", "vcc": "3V3", "gnd": "GND"}[func]
    if tside == side:
        if y0 == y1:
            return Wire(func, [start, end], label)
        x = mirror(_channel(k), side)
        return Wire(func, [start, (x, y0), (x, y1), end], label)
    x = mirror(_channel(k), side)
    xt = mirror(_channel(k), tside)
    yt = _track(k)
    return Wire(func, [start, (x, y0), (x, yt), (xt, yt), (xt, y1), end], label)


# ---------------------------------------------------------------- PINS.md
def pins_md(cfg):
    p = plan(cfg)
    full = fitted(getattr(cfg, "BUTTONS", {}))
    mini = fitted(minimal_buttons(cfg))
    piezo, battery = optional(cfg)
    oled = p["oled"]
    gnd_of = {b["name"]: b["gnd_pin"] for b in p["buttons"]}
    out = []
    w = out.append
    w("# PicoYacht pin table")
    w("")
    w("Generated by `tools/hardware/wiring.py` from `firmware/config.py`: do not edit this file.")
    w("Edit config.py (the firmware reads it), run `make hardware`: a test fails if they differ.")
    w("The wiring diagram [wiring.svg](wiring.svg) and the Wokwi project in [wokwi/](wokwi/)")
    w("come from the same table.")
    w("")
    w("Pico pins are counted from pin 1 (GP0, top left with the USB socket at the top) down the")
    w("left side to pin 20, then from pin 21 at the bottom right up to pin 40 (VBUS). The")
    w("Pico, Pico W, Pico 2 and Pico 2 W all share this header.")
    w("")
    w("## Display: SSD1306 128x64 OLED, I2C")
    w("")
    w("I2C%d at %d kHz, address 0x%02X (`OLED_ADDR`; 0x3D if the module's address jumper says so)."
      % (cfg.I2C_ID, cfg.I2C_FREQ // 1000, cfg.OLED_ADDR))
    w("")
    w("| OLED pin | wire to | Pico pin | GPIO |")
    w("|---|---|---|---|")
    for f in ("gnd", "vcc", "scl", "sda"):
        if f == "gnd":
            pin, gp = oled["gnd_pin"], "-"
        elif f == "vcc":
            pin, gp = PIN_3V3, "-"
        else:
            g = cfg.SDA if f == "sda" else cfg.SCL
            pin, gp = GPIO_PIN[g], "GP%d" % g
        what = {"gnd": "GND", "vcc": "3V3(OUT)", "scl": "I2C%d SCL" % cfg.I2C_ID,
                "sda": "I2C%d SDA" % cfg.I2C_ID}[f]
        w("| %s | %s | %d | %s |" % (f.upper(), what, pin, gp))
    w("")
    w("Power the module from 3V3(OUT), not VBUS/VSYS: most modules accept 3.3-5 V, and 3.3 V")
    w("keeps the I2C lines at the Pico's level. The modules carry their own I2C pull-ups.")
    w("")
    for title, items, note in (
        ("Buttons: full build (%d)" % len(full), full,
         "One leg of each button to the GPIO, the other leg to any GND pin. No resistors: the"
         " firmware turns on the Pico's internal pull-ups (pressed reads low)."),
        ("Buttons: minimal build (%d)" % len(mini), mini,
         "Select it in config.py by uncommenting the second `BUTTONS = {...}` line (the"
         " minimal one). Same wiring for the buttons that remain; the play screen's cursor"
         " then reaches every die, Roll and every box."),
    ):
        w("## " + title)
        w("")
        w(note)
        w("")
        w("| button | config name | GPIO | Pico pin | other leg to | does |")
        w("|---|---|---|---|---|---|")
        for name, g in items:
            w("| %s | `%s` | GP%d | %d | GND (pin %d) | %s |"
              % (LABEL[name], name, g, GPIO_PIN[g], gnd_of[name], ROLE[name]))
        w("")
    w("## Ground and power")
    w("")
    w("| Pico pin | name | used for |")
    w("|---|---|---|")
    uses = {}
    for side, (gpin, _, _, _) in sorted(p["rails"].items()):
        uses.setdefault(gpin, []).append("%s-side button ground rail"
                                          % ("left" if side == "L" else "right"))
    uses.setdefault(oled["gnd_pin"], []).append("OLED GND")
    uses.setdefault(PIN_GND_BATTERY, []).append("battery - (the cells' or the charger's OUT-)")
    for gpin in GND_PINS:
        w("| %d | GND | %s |" % (gpin, "; ".join(uses.get(gpin, ["spare (all GND pins are"
                                                                  " the same)"]))))
    w("| 33 | AGND | nothing: the ADC's analog ground, never a return for the battery,"
      " display or buttons |")
    w("| 36 | 3V3(OUT) | OLED VCC |")
    w("| %d | VSYS | optional battery +, through a Schottky diode (and the soft-power"
      " latch, if fitted: see BOM.md) |" % PIN_VSYS)
    w("| 40 | VBUS | USB 5 V; leave alone |")
    w("")
    w("## Optional parts")
    w("")
    if piezo is not None:
        w("- **Piezo**: GP%d (pin %d) to the piezo, its other leg to GND (`PIEZO` in config.py)."
          % (piezo, GPIO_PIN[piezo]))
    else:
        w("- **Piezo**: not set up (config.py has no `PIEZO` GPIO).")
    if battery:
        w("- **Battery sense**: on (`BATTERY_SENSE = True`). Nothing to wire: the Pico reads VSYS"
          " through its on-board 3:1 divider on GP29 (ADC3).")
    else:
        w("- **Battery sense**: off (config.py has no `BATTERY_SENSE = True`). Nothing to wire"
          " when on: the Pico reads VSYS through its on-board 3:1 divider on GP29 (ADC3).")
    hold = soft_power(cfg)
    if hold is not None:
        w("- **Soft power**: GP%d (pin %d) through 10 kohm to the latch's NPN base"
          " (`POWER_HOLD` in config.py). The cells reach VSYS through its P-MOSFET and the"
          " Schottky diode; its power button turns it on, the game lets it go to sleep."
          % (hold, GPIO_PIN[hold]))
    else:
        w("- **Soft power**: not fitted (config.py has no `POWER_HOLD` GPIO): asleep the Pico"
          " stays DORMANT, about 1 mA. The latch in BOM.md cuts that to a few uA.")
    w("")
    w("## Pins PicoYacht leaves alone")
    w("")
    w("GP23, GP24, GP25 and GP29 are not on the header or belong to the Pico W's wireless chip")
    w("(GP29 is also the VSYS sense input), so no button or display may use them.")
    w("")
    w("## Every header pin")
    w("")
    w("| use | name | pin | pin | name | use |")
    w("|---|---|---|---|---|---|")
    use_of = {}
    for f, g in (("OLED SDA", cfg.SDA), ("OLED SCL", cfg.SCL)):
        use_of[GPIO_PIN[g]] = f
    for name, g in full:
        use_of[GPIO_PIN[g]] = LABEL[name] + ("" if name in dict(mini) else " (full build)")
    if piezo is not None:
        use_of[GPIO_PIN[piezo]] = "Piezo"
    if hold is not None:
        use_of[GPIO_PIN[hold]] = LATCH_LABEL
    use_of[PIN_3V3] = "OLED VCC"
    for gpin, u in uses.items():
        use_of[gpin] = "; ".join(u)
    for row in range(1, 21):
        lp, rp = row, 41 - row
        w("| %s | %s | %d | %d | %s | %s |" % (use_of.get(lp, ""), PIN_NAMES[lp], lp, rp,
                                                PIN_NAMES[rp], use_of.get(rp, "")))
    w("")
    return "\n".join(out)


# ---------------------------------------------------------------- wiring.svg
FONT = "Helvetica, Arial, sans-serif"


def _esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _fmt(v):
    return ("%.1f" % v).rstrip("0").rstrip(".")


def _text(x, y, s, size=11, anchor="start", fill="#222", weight="normal", extra=""):
    return ('<text x="%s" y="%s" font-size="%s" text-anchor="%s" fill="%s"%s%s>%s</text>'
            % (_fmt(x), _fmt(y), size, anchor, fill,
               ' font-weight="bold"' if weight == "bold" else "", extra, _esc(s)))


def _wire_path(w, others):
    """SVG path data; a vertical segment hops (small arc) over other wires' horizontals."""
    pts = w.points
    d = "M%s %s" % (_fmt(pts[0][0]), _fmt(pts[0][1]))
    for (x1, y1), (x2, y2) in w.segments():
        if x1 == x2 and y1 != y2:
            hops = []
            for o in others:
                for (a1, b1), (a2, b2) in o.segments():
                    if b1 == b2 and min(a1, a2) < x1 < max(a1, a2) and \
                            min(y1, y2) + 6 < b1 < max(y1, y2) - 6:
                        hops.append(b1)
            step = 1 if y2 > y1 else -1
            for hy in sorted(set(hops), reverse=step < 0):
                d += " L%s %s A5 5 0 0 %d %s %s" % (_fmt(x1), _fmt(hy - 5 * step),
                                                    1 if step > 0 else 0, _fmt(x1),
                                                    _fmt(hy + 5 * step))
        d += " L%s %s" % (_fmt(x2), _fmt(y2))
    return d


def wiring_svg(cfg):
    p = plan(cfg)
    oled = p["oled"]
    height = row_y(20) + 150
    o = []
    a = o.append
    a('<?xml version="1.0" encoding="UTF-8"?>')
    a('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d"'
      ' font-family="%s">' % (WIDTH, height, WIDTH, height, FONT))
    a("<title>PicoYacht wiring: Raspberry Pi Pico, SSD1306 OLED, push buttons</title>")
    a('<rect x="0" y="0" width="%d" height="%d" fill="#fcfbf7"/>' % (WIDTH, height))
    a(_text(20, 32, "PicoYacht wiring", 20, weight="bold"))
    a(_text(20, 52, "Generated from firmware/config.py by tools/hardware/wiring.py (make hardware)."
            " Top view, USB at the top.", 11, fill="#555"))
    # The Pico.
    bx, by = BOARD_X, BOARD_Y
    bh = row_y(20) + 34 - by
    a('<rect x="%d" y="%d" width="%d" height="%d" rx="8" fill="#2f7d3a" stroke="#1d5426"'
      ' stroke-width="2"/>' % (bx, by, BOARD_W, bh))
    a('<rect x="%s" y="%d" width="44" height="26" rx="3" fill="#b8bcc2" stroke="#7d8288"'
      ' stroke-width="1.5"/>' % (_fmt(CX - 22), by - 12))
    a(_text(CX, by + 30, "USB", 9, "middle", "#e8f5e9"))
    a(_text(CX, by + bh / 2, "Raspberry Pi Pico", 15, "middle", "#ffffff", "bold",
            ' transform="rotate(-90 %s %s)"' % (_fmt(CX), _fmt(by + bh / 2))))
    a(_text(CX + 20, by + bh / 2, "Pico / Pico W / Pico 2", 11, "middle", "#d7ecd9",
            extra=' transform="rotate(-90 %s %s)"' % (_fmt(CX + 20), _fmt(by + bh / 2))))
    used = {GPIO_PIN[cfg.SDA], GPIO_PIN[cfg.SCL], PIN_3V3, oled["gnd_pin"], PIN_GND_BATTERY,
            PIN_VSYS}
    used |= {b["pin"] for b in p["buttons"]}
    used |= {r[0] for r in p["rails"].values()}
    for pin in range(1, 41):
        side, row = side_row(pin)
        y = row_y(row)
        x = bx if side == "L" else bx + BOARD_W
        name = PIN_NAMES[pin]
        power = name in ("3V3(OUT)", "VSYS", "VBUS")
        fill = "#222" if name in ("GND", "AGND") else ("#d62828" if power else "#f2c14e")
        a('<circle cx="%d" cy="%d" r="7" fill="%s" stroke="#111" stroke-width="1"/>'
          % (x, y, fill))
        a(_text(x, y + 3, str(pin), 7, "middle", "#fff" if fill != "#f2c14e" else "#111"))
        lx = x + 11 if side == "L" else x - 11
        a(_text(lx, y + 4, name, 10, "start" if side == "L" else "end",
                "#ffffff" if pin in used else "#bfe0c4", "bold" if pin in used else "normal"))
    # The OLED module.
    side = oled["side"]
    rows = oled["rows"]
    ys = [row_y(r) for r in rows.values()]
    top, bot = min(ys) - 44, max(ys) + 44
    mx0, mx1 = sorted((mirror(MOD_X, side), mirror(MOD_X + MOD_W, side)))
    a('<rect x="%s" y="%s" width="%d" height="%s" rx="6" fill="#1c3f73" stroke="#0f2547"'
      ' stroke-width="2"/>' % (_fmt(mx0), _fmt(top), MOD_W, _fmt(bot - top)))
    a('<rect x="%s" y="%s" width="%d" height="%s" fill="#05070a" stroke="#8aa"'
      ' stroke-width="1"/>' % (_fmt(mx0 + (10 if side == "L" else 40)), _fmt(top + 16), 90,
                               _fmt(bot - top - 46)))
    a(_text((mx0 + mx1) / 2, bot - 10, "SSD1306 OLED 0.96\" 128x64", 9, "middle", "#dfe8f5"))
    a(_text((mx0 + mx1) / 2, top - 6, "I2C address 0x%02X" % cfg.OLED_ADDR, 10, "middle",
            "#1c3f73", "bold"))
    for f, r in rows.items():
        y = row_y(r)
        xe = mirror(MOD_X + MOD_W, side)
        xp = mirror(MOD_PIN_X, side)
        a('<line x1="%s" y1="%d" x2="%s" y2="%d" stroke="#c9a227" stroke-width="3"/>'
          % (_fmt(xe), y, _fmt(xp), y))
        lx = xe - 5 if side == "L" else xe + 5
        a(_text(lx, y + 4, f.upper(), 10, "end" if side == "L" else "start", "#ffffff", "bold"))
    # Wires (under the button symbols, over the boards).
    wires = p["wires"]
    for i, w in enumerate(wires):
        colour = COLOUR[w.kind][0]
        d = _wire_path(w, wires[:i] + wires[i + 1:])
        a('<path d="%s" fill="none" stroke="%s" stroke-width="%s" stroke-linecap="round"'
          ' stroke-linejoin="round"/>' % (d, colour, "2.5" if w.kind != "gnd" else "2"))
    for side, (gpin, rx, y0, _y1) in p["rails"].items():
        for b in p["buttons"]:
            if b["side"] == side:
                a('<circle cx="%s" cy="%d" r="3" fill="#222"/>' % (_fmt(rx), b["y"]))
        gy = row_y(side_row(gpin)[1])
        a('<circle cx="%s" cy="%d" r="3" fill="#222"/>' % (_fmt(rx), gy))
        a(_text(rx, y0 - 8, "GND rail", 9, "middle", "#222"))
    # Button symbols and labels.
    for b in p["buttons"]:
        side, y = b["side"], b["y"]
        xl, xr = sorted((mirror(BTN_L, side), mirror(BTN_R, side)))
        if b["name"] == "piezo":
            a('<circle cx="%s" cy="%d" r="9" fill="#333" stroke="#111"/>'
              % (_fmt((xl + xr) / 2), y))
            a('<line x1="%s" y1="%d" x2="%s" y2="%d" stroke="#222" stroke-width="2"/>'
              % (_fmt(xl), y, _fmt(xl + 11), y))
            a('<line x1="%s" y1="%d" x2="%s" y2="%d" stroke="#222" stroke-width="2"/>'
              % (_fmt(xr - 11), y, _fmt(xr), y))
            label = "Piezo"
        elif b["name"] == "latch":
            a('<rect x="%s" y="%d" width="%s" height="18" fill="#fce4ec" stroke="%s"/>'
              % (_fmt(xl), y - 9, _fmt(xr - xl), COLOUR["latch"][0]))
            label = LATCH_LABEL
        else:
            a('<line x1="%s" y1="%d" x2="%s" y2="%d" stroke="#222" stroke-width="2"/>'
              % (_fmt(xl), y, _fmt(xl + 8), y))
            a('<line x1="%s" y1="%d" x2="%s" y2="%d" stroke="#222" stroke-width="2"/>'
              % (_fmt(xr - 8), y, _fmt(xr), y))
            a('<circle cx="%s" cy="%d" r="2.5" fill="#fff" stroke="#222" stroke-width="1.5"/>'
              % (_fmt(xl + 8), y))
            a('<circle cx="%s" cy="%d" r="2.5" fill="#fff" stroke="#222" stroke-width="1.5"/>'
              % (_fmt(xr - 8), y))
            a('<path d="M%s %d L%s %d M%s %d L%s %d" stroke="#222" stroke-width="2"'
              ' stroke-linecap="round"/>' % (_fmt(xl + 6), y - 6, _fmt(xr - 6), y - 6,
                                             _fmt((xl + xr) / 2), y - 6, _fmt((xl + xr) / 2),
                                             y - 10))
            label = LABEL[b["name"]]
        colour = COLOUR[wire_kind(b["name"])][0]
        tx = mirror(BTN_R + 8, side)
        a(_text(tx, y - 4, "%s  GP%d" % (label, b["gpio"]), 10,
                "start" if side == "L" else "end", colour, "bold"))
    # Legend and notes.
    ly = row_y(20) + 62
    a(_text(20, ly, "Wires:", 11, weight="bold"))
    x = 70
    for kind, text in (("sda", "I2C SDA"), ("scl", "I2C SCL"), ("vcc", "3.3 V"),
                       ("gnd", "ground"), ("hold", "hold buttons"), ("roll", "Roll"),
                       ("nav", "Up / Down / A / B")):
        a('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="3"'
          ' stroke-linecap="round"/>' % (x, ly - 4, x + 22, ly - 4, COLOUR[kind][0]))
        a(_text(x + 28, ly, text, 11))
        x += 40 + 7 * len(text)
    mini = ", ".join(LABEL[n] for n, _ in fitted(minimal_buttons(cfg)))
    notes = [
        "Buttons: one leg to the GPIO, the other to GND; the internal pull-ups are used (no"
        " resistors). A crossing without a dot is not a connection.",
        "Minimal build: only %s (same pins), selected in config.py." % mini,
        "Battery (optional): + through the Schottky diode to VSYS (pin %d), - to GND (pin %d);"
        " never to AGND (pin 33)." % (PIN_VSYS, PIN_GND_BATTERY),
        "Pins are numbered 1-40 on the pads; the GND pins are one ground. Full table:"
        " hardware/PINS.md.",
    ]
    piezo, battery = optional(cfg)
    if battery:
        notes.append("Battery sense: nothing to wire (VSYS is read on GP29 / ADC3 on the board).")
    if soft_power(cfg) is not None:
        notes.append("Soft power: the cells reach VSYS through the latch (BOM.md); its power"
                     " button turns it on, the game lets it go to sleep.")
    for i, n in enumerate(notes):
        a(_text(20, ly + 22 + 17 * i, n, 11, fill="#333"))
    a("</svg>")
    return "\n".join(o) + "\n"


# ---------------------------------------------------------------- Wokwi
def wokwi_diagram(cfg):
    p = plan(cfg)
    oled = p["oled"]
    parts = [{"type": "wokwi-pi-pico", "id": "pico", "top": 0, "left": 0, "attrs": {}},
             {"type": "board-ssd1306", "id": "oled", "top": -150,
              "left": -170 if oled["side"] == "L" else 130,
              "attrs": {"i2cAddress": "0x%02x" % cfg.OLED_ADDR}}]
    conns = []

    def conn(a, b, kind):
        conns.append([a, b, COLOUR[kind][1], []])

    conn("oled:GND", "pico:" + WOKWI_PIN[oled["gnd_pin"]], "gnd")
    conn("oled:VCC", "pico:" + WOKWI_PIN[PIN_3V3], "vcc")
    conn("oled:SCL", "pico:" + WOKWI_PIN[GPIO_PIN[cfg.SCL]], "scl")
    conn("oled:SDA", "pico:" + WOKWI_PIN[GPIO_PIN[cfg.SDA]], "sda")
    count = {"L": 0, "R": 0}
    for b in p["buttons"]:
        side = b["side"]
        i = count[side]
        count[side] += 1
        bid = "btn_" + b["name"]
        if b["name"] == "latch":
            continue  # Wokwi has no such part; its pin simply stays unconnected there
        if b["name"] == "piezo":
            part = {"type": "wokwi-buzzer", "id": "piezo", "top": 120, "left": 200,
                    "attrs": {"volume": "0.2"}}
            parts.append(part)
            conn("piezo:2", "pico:" + WOKWI_PIN[b["pin"]], "piezo")
            conn("piezo:1", "pico:" + WOKWI_PIN[b["gnd_pin"]], "gnd")
            continue
        col, line = divmod(i, 6)
        left = -150 - 100 * col if side == "L" else 130 + 100 * col
        parts.append({"type": "wokwi-pushbutton", "id": bid, "top": 10 + 75 * line,
                      "left": left, "attrs": {"color": _btn_colour(b["name"]),
                                              "label": LABEL[b["name"]],
                                              "key": KEY[b["name"]]}})
        conn(bid + ":1.r" if side == "L" else bid + ":1.l", "pico:" + WOKWI_PIN[b["pin"]],
             wire_kind(b["name"]))
        conn(bid + ":2.l" if side == "L" else bid + ":2.r", "pico:" + WOKWI_PIN[b["gnd_pin"]],
             "gnd")
    doc = {"version": 1, "author": "PicoYacht (generated by tools/hardware/wiring.py)",
           "editor": "wokwi", "parts": parts, "connections": conns, "dependencies": {}}
    return json.dumps(doc, indent=2) + "\n"


def _btn_colour(name):
    return {"hold": "green", "roll": "yellow", "nav": "blue"}[wire_kind(name)]


WOKWI_TOML = """\
# Wokwi for VS Code: F1 -> "Wokwi: Start Simulator" with this folder open (generated by
# tools/hardware/wiring.py). Download the MicroPython .uf2 for the Raspberry Pi Pico
# (RPI_PICO, v1.23 or newer) and save it here as micropython.uf2; see README.md for copying
# PicoYacht onto the simulated board through the serial port below.
[wokwi]
version = 1
firmware = "micropython.uf2"
elf = "micropython.uf2"
rfc2217ServerPort = 4000
"""


# ---------------------------------------------------------------- main
def outputs(cfg):
    """{relative path: text} of every generated file."""
    return {"PINS.md": pins_md(cfg), "wiring.svg": wiring_svg(cfg),
            "wokwi/diagram.json": wokwi_diagram(cfg), "wokwi/wokwi.toml": WOKWI_TOML}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", default=str(CONFIG), help="pin map (default firmware/config.py)")
    ap.add_argument("--out", default=str(OUT), help="output folder (default hardware/)")
    ap.add_argument("--check", action="store_true", help="only check the pin map")
    args = ap.parse_args(argv)
    try:
        cfg = load_config(args.config)
        uses = check(cfg)
    except ConfigError as e:
        for note in getattr(e, "notes", [str(e)]):
            print(("" if note.startswith("config.py ") else "config.py: ") + note,
                  file=sys.stderr)
        return 1
    if args.check:
        print("pin map OK: %d GPIOs, no clashes" % len(uses))
        return 0
    out = Path(args.out)
    for rel, text in outputs(cfg).items():
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, newline="\n")
        print("wrote " + str(path))
    return 0


if __name__ == "__main__":
    sys.exit(main())
