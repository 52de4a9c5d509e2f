"""The case's geometry as numbers: where every part, hole, boss and wall goes, from the layout.

Pure: hardware/layout.py and the build's buttons in, a Case out (mm, the perfboard's lower
left corner at x = y = 0, the base's underside at z = 0, +y away from the player). The
OpenSCAD writer (case_scad), the perfboard plan (case_board) and the checks
(host_tests/case_check.py) all read this one model, and the checks compare its meshes back
against the layout itself.
"""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAYOUT = ROOT / "hardware" / "layout.py"
THROUGH_THE_WALL = ("usb", "tray", "switch knob")
ON_THE_FLOOR = ("power", "charger", "piezo", "latch", "switch", "tray")  # side by side
POWER_BUTTON = "power"  # the latch's button: on the board and in the top, not on a GPIO
HOLD_BUTTONS = ("hold1", "hold2", "hold3", "hold4", "hold5", "hold6", "roll")


class LayoutError(ValueError):
    pass


def load_layout(path=LAYOUT):
    """layout.py as a module object, loaded from its path (it is plain data)."""
    spec = importlib.util.spec_from_file_location("picoyacht_layout", Path(path))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def build_of(layout, buttons):
    """The layout's build for a button set: the minimal one when no hold or Roll is wired."""
    return layout.FULL if any(n in buttons for n in HOLD_BUTTONS) else layout.MINIMAL


class Box:
    """An axis-aligned box: a part's envelope or a cut."""

    def __init__(self, name, x0, y0, z0, x1, y1, z1):
        self.name = name
        self.lo = (x0, y0, z0)
        self.hi = (x1, y1, z1)

    def size(self):
        return tuple(h - lo for lo, h in zip(self.lo, self.hi, strict=True))

    def centre(self):
        return tuple((lo + h) / 2 for lo, h in zip(self.lo, self.hi, strict=True))

    def grown(self, d):
        return Box(self.name, *(v - d for v in self.lo), *(v + d for v in self.hi))

    def __repr__(self):
        return "Box(%s, %s, %s)" % (self.name, self.lo, self.hi)


class Case:
    """Everything the writers and checks need; see model()."""


def hole_xy(layout, col, row):
    p = layout.PITCH
    return ((col + 0.5) * p, (row + 0.5) * p)


def pico_pad(layout, build, pin):
    """Where the Pico's physical pin 1-40 lands on the board (pins 1-20 along the pin-1 row,
    21-40 back along the row 7 holes up: the Pico lies USB-left, top side up)."""
    c, r = build["pico_pin1"]
    if pin <= 20:
        return hole_xy(layout, c + pin - 1, r)
    return hole_xy(layout, c + 40 - pin, r + 7)


def oled_pads(layout, build):
    """The module's four header pins, left to right: GND, VCC, SCL, SDA."""
    c, r = build["oled_pin1"]
    return [hole_xy(layout, c + i, r) for i in range(4)]


def button_at(build, name):
    """A button's lower-left leg (holes); "power" is the soft-power latch's button."""
    return build["power_button"] if name == POWER_BUTTON else build["buttons"][name]


def button_legs(layout, build, name):
    c, r = button_at(build, name)
    return [hole_xy(layout, c + dc, r + dr) for dr in (0, 2) for dc in (0, 3)]


def button_centre(layout, build, name):
    """The centre of a button's four legs (3 x 2 holes): its actuator's axis."""
    legs = button_legs(layout, build, name)
    return (sum(x for x, _ in legs) / 4, sum(y for _, y in legs) / 4)


def model(layout, buttons, piezo_fitted, latch_fitted=False):
    """The Case for a build: `buttons` are the fitted button names, `piezo_fitted` adds the
    piezo's sound hole, `latch_fitted` the soft-power latch on the floor and its power
    button's hole. Raises LayoutError if the parts cannot fit the stack."""
    build = build_of(layout, buttons)
    k = layout.CASE
    pico, oled, btn = layout.PICO, layout.OLED, layout.BUTTON
    power = layout.POWER[build["power"]["kind"]]
    c = Case()
    c.build, c.buttons = build, [n for n in build["buttons"] if n in buttons]
    missing = sorted(set(buttons) - set(build["buttons"]))
    if missing:
        raise LayoutError("layout has no place for button(s) %s" % ", ".join(missing))
    if latch_fitted and not ("latch_at" in build and "power_button" in build):
        raise LayoutError("the soft-power latch needs a latch_at and a power_button")
    c.holed = c.buttons + ([POWER_BUTTON] if latch_fitted else [])  # a hole in the top each
    c.board_w = build["cols"] * layout.PITCH
    c.board_h = build["rows"] * layout.PITCH
    wall, gap = k["wall"], k["gap"]
    c.wall = wall
    c.x0, c.y0 = -gap - wall, -gap - wall  # outside corner
    c.x1, c.y1 = c.board_w + gap + wall, c.board_h + gap + wall

    # ---- heights: floor, the power option, wiring room, the board, the parts, the plate
    pw, pd = (power["d"], power["w"]) if build["power"]["turn"] else (power["w"], power["d"])
    tray = layout.TRAY["floor"] if power.get("tray") else 0.0
    below = max(tray + power["h"], layout.PIEZO["h"], layout.LATCH["h"] if latch_fitted else 0)
    c.z_board = wall + below + k["under"]  # perfboard's underside
    zp = c.z_board + layout.BOARD_T  # perfboard's top: the base/top split
    c.z_split = zp
    parts = []
    px, py = hole_xy(layout, *build["power"]["at"])
    c.tray = None
    if tray:
        px, py = _against_the_drawer_wall(c, layout, build, pw, pd, px, py)
        parts.append(c.tray["box"])
    parts.append(Box("power", px - pw / 2, py - pd / 2, wall + tray, px + pw / 2,
                     py + pd / 2, wall + tray + power["h"]))
    c.switch = _switch(c, layout, build, parts) if switch_fitted(layout, build, latch_fitted) \
        else None
    c.charger_pocket = None
    if "charger" in power:
        if "charger_row" not in build["power"]:
            raise LayoutError("the %s option needs a charger_row in the layout" % power["label"])
        ch = power["charger"]
        cy = hole_xy(layout, 0, build["power"]["charger_row"])[1]
        face = -gap  # the receptacle's face at the wall's inside, the board behind it
        cz = wall + ch["shelf"]
        x0 = face + ch["usb_overhang"]
        parts.append(Box("charger", x0, cy - ch["d"] / 2, cz, x0 + ch["w"], cy + ch["d"] / 2,
                         cz + ch["pcb"] + ch["usb_h"]))
        parts.append(Box("charger usb", face, cy - ch["usb_w"] / 2, cz + ch["pcb"], x0,
                         cy + ch["usb_w"] / 2, cz + ch["pcb"] + ch["usb_h"]))
        c.charger_shelf = (x0 - 0.5, cy - ch["d"] / 2 + 1.0, x0 + ch["w"] - 1.0,
                           cy + ch["d"] / 2 - 1.0, cz)
        plug = layout.PLUG
        uz = cz + ch["pcb"] + ch["usb_h"] / 2
        w, h = plug["grip_w"] / 2 + plug["fit"], plug["grip_h"] / 2 + plug["fit"]
        c.charger_pocket = (cy - w, cy + w, uz - h, uz + h)  # through the wall: y0 y1 z0 z1
    x, y = hole_xy(layout, *build["piezo"])
    r = layout.PIEZO["d"] / 2
    c.piezo_xy = (x, y)
    parts.append(Box("piezo", x - r, y - r, wall, x + r, y + r, wall + layout.PIEZO["h"]))
    if latch_fitted:
        x, y = hole_xy(layout, *build["latch_at"])
        w, d = layout.LATCH["w"] / 2, layout.LATCH["d"] / 2
        parts.append(Box("latch", x - w, y - d, wall, x + w, y + d, wall + layout.LATCH["h"]))

    p1x, p1y = pico_pad(layout, build, 1)
    edge = p1x - (pico["w"] - 19 * layout.PITCH) / 2  # the USB end of the Pico's PCB
    bottom = p1y - pico["row_inset"]
    parts.append(Box("pico", edge, bottom, zp, edge + pico["w"], bottom + pico["d"],
                     zp + pico["pcb"] + pico["parts_h"]))
    uy = bottom + pico["d"] / 2
    uz = zp + pico["pcb"] + pico["usb_h"] / 2
    parts.append(Box("usb", edge - pico["usb_overhang"], uy - pico["usb_w"] / 2,
                     zp + pico["pcb"], edge, uy + pico["usb_w"] / 2,
                     zp + pico["pcb"] + pico["usb_h"]))
    c.usb_axis = (uy, uz)

    pads = oled_pads(layout, build)
    mx = (pads[0][0] + pads[3][0]) / 2
    top_edge = pads[0][1] + oled["pin_inset"]
    mz = zp + oled["standoff"]
    parts.append(Box("oled", mx - oled["w"] / 2, top_edge - oled["d"], mz, mx + oled["w"] / 2,
                     top_edge, mz + oled["pcb"]))
    gy1 = top_edge - oled["glass_inset"]
    gz = mz + oled["pcb"]
    parts.append(Box("glass", mx - oled["glass_w"] / 2, gy1 - oled["glass_d"], gz,
                     mx + oled["glass_w"] / 2, gy1, gz + oled["tape"] + oled["glass_t"]))
    ay1 = gy1 - oled["aa_inset"]
    c.active = (mx - oled["aa_w"] / 2, ay1 - oled["aa_d"], mx + oled["aa_w"] / 2, ay1)

    c.button_xy = {}
    for n in c.holed:
        bx, by = button_centre(layout, build, n)
        c.button_xy[n] = (bx, by)
        h = btn["body"] / 2
        parts.append(Box("button " + n, bx - h, by - h, zp, bx + h, by + h, zp + btn["body_h"]))
    c.parts = parts

    under_plate = max(b.hi[2] for b in parts if not b.name.startswith("button"))
    c.z_plate = under_plate + k["over"]  # the plate's underside
    c.z_top = c.z_plate + wall
    cap = layout.CAP
    c.cap_z = (zp + btn["h"], zp + btn["h"] + cap["flange_t"], c.z_top + cap["proud"])
    if c.cap_z[1] > c.z_plate - 0.05:
        raise LayoutError("%.1f mm buttons leave their caps no room under the %.1f mm high"
                          " plate: buy shorter ones" % (btn["h"], c.z_plate - zp))
    c.button_top = c.cap_z[2]
    floor = [b for b in parts if b.name in ON_THE_FLOOR]
    c.floor_top = max(b.hi[2] for b in floor)
    for i, a in enumerate(floor):
        for b in floor[i + 1:]:
            if {a.name, b.name} != {"power", "tray"} and all(
                    a.lo[ax] < b.hi[ax] and b.lo[ax] < a.hi[ax] for ax in (0, 1)):
                raise LayoutError("%s and %s overlap on the base's floor" % (a.name, b.name))
    for b in parts:  # the receptacles, tray and slider alone reach into the wall
        inside = (b.lo[0] >= -gap and b.lo[1] >= -gap and b.hi[0] <= c.board_w + gap
                  and b.hi[1] <= c.board_h + gap)
        if b.name not in THROUGH_THE_WALL and not inside:
            raise LayoutError("%s overhangs the case's inside" % b.name)

    # ---- cuts and features
    m = k["window_margin"]
    ax0, ay0, ax1, ay1 = c.active
    c.window = (ax0 - m, ay0 - m, ax1 + m, ay1 + m)
    c.button_hole = k["button_hole"]
    c.chamfer, c.chamfer_under = k.get("chamfer", 0.0), k.get("chamfer_under", 0.0)
    c.screws = [hole_xy(layout, *s) for s in build["screws"]]
    c.boss_d, c.base_boss_d = k["boss_d"], k["head_d"] + 2 * k["boss_wall"]
    c.screw_clear, c.screw_pilot = k["screw_clear"], k["screw_pilot"]
    c.head_d, c.head_h = k["head_d"], k["head_h"]
    c.screw_len = screw_length(c.z_split - c.head_h, c.z_plate - c.z_split)
    c.usb_cut = (uy - pico["usb_w"] / 2 - 0.6, uy + pico["usb_w"] / 2 + 0.6,
                 zp - 0.5, min(uz + pico["usb_h"] / 2 + 1.2, c.z_plate - 0.2))
    c.corner = k["corner"]
    if c.corner <= wall:
        raise LayoutError("corner radius %.1f must exceed the %.1f mm wall" % (c.corner, wall))
    # the lanyard's lug: outside the rounded corner, overlapping it by a good millimetre
    c.lanyard = (c.x1 + 1.2, c.y1 + 1.2, k["lanyard_d"])
    c.sound = (c.piezo_xy[0], c.piezo_xy[1], k["sound_d"]) if piezo_fitted else None
    c.lip_h, c.lip_fit = k.get("lip_h", 0.0), k.get("lip_fit", 0.0)
    c.lips = _corner_lips(c) if c.lip_h else []
    c.z_base_top = c.z_split + (c.lip_h if c.lips else 0.0)  # the base's highest point
    if c.lips and c.z_base_top + c.lip_fit > c.z_plate - MIN_PLATE_OVER_LIP:
        raise LayoutError("a %.1f mm lip would reach the top's plate" % c.lip_h)
    c.grip_out, c.grip_r = k.get("grip_out", 0.0), k.get("grip_r", 0.0)
    c.grips = _grips(c, layout, build) if c.grip_out and "grip_rows" in build else []
    # Through-holes each part must have (its genus): the window and one per button (the
    # latch's too) in the top; one per screw, the lanyard, the sound hole and the charger's
    # port in the base.
    c.holes = {"top": 1 + len(c.holed),
               "base": len(c.screws) + 1 + (1 if piezo_fitted else 0)
               + (1 if c.charger_pocket else 0) + (1 if c.tray else 0)
               + (1 if c.switch else 0), "tray": 0, "cap": 0}
    return c


MIN_PLATE_OVER_LIP = 0.5


def _corner_lips(c):
    """One lip per corner with a screw beside it: the rectangle (x0, y0, x1, y1) from the
    case's outside corner to the screw's centre, where the base's wall rises into the top."""
    out = []
    for sx, sy in c.screws:
        cx = c.x0 if sx < c.board_w / 2 else c.x1
        cy = c.y0 if sy < c.board_h / 2 else c.y1
        if abs(sx - cx) <= 2 * c.corner and abs(sy - cy) <= 2 * c.corner:
            out.append((min(cx, sx), min(cy, sy), max(cx, sx), max(cy, sy)))
    return out


def grip_span(c, yc):
    """Where a grip's post centred at yc meets the wall: its half-length along the wall."""
    r = c.grip_r
    return yc, (r * r - (r - c.grip_out) ** 2) ** 0.5


def _grips(c, layout, build):
    """[(side, y0, y1)]: the posts' centres of the grip on each side. A grip may not cover
    a cut through its wall (a plug, a slider or the tray need the wall's face) nor reach a
    rounded corner or a lip."""
    ya, yb = (hole_xy(layout, 0, r)[1] for r in build["grip_rows"])
    (_, ha), (_, hb) = grip_span(c, ya), grip_span(c, yb)
    lo, hi = ya - ha, yb + hb
    plug = layout.PLUG["grip_w"] / 2 + layout.PLUG["fit"]  # a cable's grip must reach in
    cuts = {"left": [("the Pico's USB plug", (c.usb_axis[0] - plug, c.usb_axis[0] + plug))],
            "right": []}
    if c.switch:
        cuts["left"].append(("the switch's slot", c.switch[:2]))
    if c.charger_pocket:
        cuts["left"].append(("the charger's port", c.charger_pocket[:2]))
    if c.tray and c.tray["side"] == "right":
        cuts["right"].append(("the tray's slot", (c.tray["slot"][1], c.tray["slot"][4])))
    for x0, y0, _, y1 in c.lips:
        side = "left" if x0 <= c.x0 else "right"
        cuts[side].append(("a corner lip", (y0, y1)))
    out = []
    for side in ("left", "right"):
        if lo < c.y0 + c.corner or hi > c.y1 - c.corner:
            raise LayoutError("the %s grip runs into a rounded corner" % side)
        for what, (y0, y1) in cuts[side]:
            if lo < y1 + 1.0 and y0 - 1.0 < hi:
                raise LayoutError("the %s grip covers %s" % (side, what))
        out.append((side, ya, yb))
    return out


def switch_fitted(layout, build, latch_fitted):
    """The slide switch goes where there is no latch to cut the power (BOM.md)."""
    return not latch_fitted and "switch_at" in build and hasattr(layout, "SWITCH")


def _against_the_drawer_wall(c, layout, build, pw, pd, px, py):
    """The holder's centre once pushed against its drawer's wall; sets c.tray: the tray's
    envelope, its end plate (in the wall's slot) and the slot cut through the wall."""
    t, wall, gap = layout.TRAY, c.wall, c.x1 - c.board_w - c.wall
    side = build["power"].get("drawer", "right")
    z0, z1 = wall, wall + t["floor"] + layout.POWER[build["power"]["kind"]]["h"]
    if side == "right":
        inner = c.board_w + gap  # the wall's inside face
        px = inner - t["plate_in"] - pw / 2
        lo, hi = (py - pd / 2, py + pd / 2)
        plate = Box("tray plate", inner - t["plate_in"], lo, z0, c.x1, hi, z1)
        slot = (inner - 0.01, lo - t["fit"], z0, c.x1 + 1, hi + t["fit"], z1 + t["fit"])
        floor = (px - pw / 2, lo, inner, hi)
    elif side == "front":
        inner = -gap
        py = inner + t["plate_in"] + pd / 2
        lo, hi = (px - pw / 2, px + pw / 2)
        plate = Box("tray plate", lo, c.y0, z0, hi, inner + t["plate_in"], z1)
        slot = (lo - t["fit"], c.y0 - 1, z0, hi + t["fit"], inner + 0.01, z1 + t["fit"])
        floor = (lo, inner, hi, py + pd / 2)
    else:
        raise LayoutError("a drawer slides out of the right or the front wall, not %r" % side)
    x0, y0, x1, y1 = (floor[0], floor[1], floor[2], floor[3]) if side == "right" else floor
    box = Box("tray", min(x0, plate.lo[0]), min(y0, plate.lo[1]), z0, max(x1, plate.hi[0]),
              max(y1, plate.hi[1]), z1)
    c.tray = {"side": side, "box": box, "plate": plate, "slot": slot,
              "floor": Box("tray floor", box.lo[0], box.lo[1], z0, box.hi[0], box.hi[1],
                           z0 + t["floor"])}
    return px, py


def _switch(c, layout, build, parts):
    """The slide switch on the floor against its wall, and the slot for its slider: returns
    (slot y0, y1, z0, z1) through the left wall."""
    sw, wall = layout.SWITCH, c.wall
    side, row = build["switch_at"]
    if side != "left":
        raise LayoutError("the slide switch sits against the left wall, not %r" % side)
    inner = c.x0 + wall + sw["off_wall"]  # the body's face, a glue line off the wall
    y = hole_xy(layout, 0, row)[1]
    zc = wall + sw["body_t"] / 2
    parts.append(Box("switch", inner, y - sw["body_l"] / 2, wall, inner + sw["body_h"],
                     y + sw["body_l"] / 2, wall + sw["body_t"]))
    k = sw["knob"] / 2
    parts.append(Box("switch knob", inner - sw["knob_out"], y - k, zc - k, inner, y + k,
                     zc + k))
    half = k + sw["travel"] / 2 + 0.35
    return (y - half, y + half, zc - k - 0.35, zc + k + 0.35)


def margins(c, layout):
    """{what: (margin, least)} in mm: each fit the case promises, as a number a test (and a
    builder reading `make case`) can hold against its least acceptable value."""
    names = {b.name: b for b in c.parts}
    glass = names["glass"]
    out = {
        "wiring space under the perfboard": (c.z_board - c.floor_top, 3.0),
        "glass to the plate": (c.z_plate - glass.hi[2], 0.3),
        "window beyond the active area, past the makers' spread":
            (layout.CASE["window_margin"] - layout.OLED["aa_spread"], 0.3),
        # the plug reaches PLUG["reach"] past the surface its grip stops at
        "Pico's plug reach past its receptacle": (
            layout.PLUG["reach"] - (names["usb"].lo[0] - c.x0), 0.1),
    }
    power = layout.POWER[c.build["power"]["kind"]]
    if "h_new" in power:
        cell = names["power"]
        out["room for the cell to swell"] = (cell.size()[2] - power["h_new"], 0.4)
    cap, hole = layout.CAP, layout.CASE["button_hole"]
    out["a cap's stem in its hole"] = ((hole - cap["stem_d"]) / 2, 0.2)
    out["a cap's flange under the plate"] = (c.z_plate - c.cap_z[1], 0.05)
    out["a cap's flange past its hole (keeps it in)"] = ((cap["flange_d"] - hole) / 2, 0.8)
    out["a cap proud of the top"] = (c.cap_z[2] - c.z_top, 1.0)
    if c.tray:
        plate, slot = c.tray["plate"], c.tray["slot"]
        out["the tray's end plate in its slot"] = (
            min(plate.lo[1] - slot[1], slot[4] - plate.hi[1], slot[5] - plate.hi[2])
            if c.tray["side"] == "right" else
            min(plate.lo[0] - slot[0], slot[3] - plate.hi[0], slot[5] - plate.hi[2]), 0.3)
    if c.lips:
        # the socket is the lip grown by lip_fit inward, along the wall and above it
        out["a corner lip in its socket"] = (c.lip_fit, 0.2)
        out["a corner lip's height into the top"] = (c.lip_h, 1.5)
    if c.switch:
        knob = names["switch knob"]
        out["the switch's slider past the case's side"] = (c.x0 - knob.lo[0], 0.5)
    if c.charger_pocket:
        y0, y1, z0, z1 = c.charger_pocket
        usb, plug = names["charger usb"], layout.PLUG
        # the pocket runs through the wall: the grip stops at the wall's inside face
        out["charger's plug reach past its receptacle"] = (
            plug["reach"] - (usb.lo[0] - (c.x0 + c.wall)), 0.1)
        out["pocket around the plug's grip (width)"] = (y1 - y0 - plug["grip_w"], 0.4)
        out["pocket around the plug's grip (height)"] = (z1 - z0 - plug["grip_h"], 0.4)
        out["pocket's sill over the base's underside"] = (z0, c.wall * 0.8)
    return out


def fit_problems(c, layout):
    """The margins() short of their least, in words (empty: everything fits)."""
    return ["%s is %.2f mm, needs %.2f" % (k, m, least)
            for k, (m, least) in margins(c, layout).items() if m < least - 1e-9]


STOCK_LENGTHS = (12, 16, 20, 25, 30)


def screw_length(seat_to_split, boss_depth):
    """The longest stock M2.5 screw that, seated in the base's counterbore, bites at least
    3 mm into the top's boss without reaching its end."""
    fits = [n for n in STOCK_LENGTHS if 3.0 <= n - seat_to_split <= boss_depth - 0.5]
    if not fits:
        raise LayoutError("no stock screw length fits a %.1f mm reach" % seat_to_split)
    return fits[-1]
