"""The perfboard plan: an SVG of where each part sits and where each wire runs.

Seen from the component side. Parts on top are drawn solid, parts under the board (power,
piezo) dashed. Each wire is drawn straight, pad to pad (insulated wire on the solder side),
from a Pico pad to its part, tagged with the pin it
starts at (data-pin, data-gpio) and the part it ends at (data-to), so a test can read the
plan back against config.py and the pin table.
"""

import case_model as cm
import wiring

SCALE = 8.0  # px per mm
MARGIN = 60.0
FONT = "Helvetica, Arial, sans-serif"
PIN_3V3, PIN_VSYS, PIN_GND_BAT = wiring.PIN_3V3, wiring.PIN_VSYS, wiring.PIN_GND_BATTERY


def ground_pins(cfg):
    """(OLED's GND pin, {button name: its GND pin}): the pin table's choices (PINS.md and
    wiring.svg), so every document names the same grounds. The latch's power button shares
    the rail of the latch's own GPIO side."""
    p = wiring.plan(cfg)
    of = {b["name"]: b["gnd_pin"] for b in p["buttons"]}
    for name, g in wiring.minimal_buttons(cfg).items():
        if g is not None and name not in of:
            side = wiring.side_row(wiring.GPIO_PIN[g])[0]
            of[name] = p["rails"][side][0]
    of[cm.POWER_BUTTON] = of.get("latch", min(r[0] for r in p["rails"].values()))
    return p["oled"]["gnd_pin"], of


def wires(c, layout, cfg, piezo_fitted):
    """[(net, kind, pin, gpio or None, to, points)]: every wire, Pico pad first."""
    build = c.build
    out = []

    def run(net, kind, pin, gpio, to, end):
        start = cm.pico_pad(layout, build, pin)
        out.append((net, kind, pin, gpio, to, [start, end]))

    buttons = dict(getattr(cfg, "BUTTONS", {}))
    for n in c.buttons:
        g = buttons[n]
        run("GP%d" % g, wiring.wire_kind(n), wiring.GPIO_PIN[g], g, n,
            cm.button_legs(layout, build, n)[0])
    oled_gnd, button_gnd = ground_pins(cfg)
    gnd, vcc, scl, sda = cm.oled_pads(layout, build)
    run("GND", "gnd", oled_gnd, None, "oled GND", gnd)
    run("3V3", "vcc", PIN_3V3, None, "oled VCC", vcc)
    run("GP%d" % cfg.SCL, "scl", wiring.GPIO_PIN[cfg.SCL], cfg.SCL, "oled SCL", scl)
    run("GP%d" % cfg.SDA, "sda", wiring.GPIO_PIN[cfg.SDA], cfg.SDA, "oled SDA", sda)
    # Grounds: a chain per GND pin through its buttons' diagonal legs (across the switch).
    for pin in sorted({button_gnd[n] for n in c.holed}):
        legs = [(cm.button_legs(layout, build, n)[3], n) for n in c.holed
                if button_gnd[n] == pin]
        prev = cm.pico_pad(layout, build, pin)
        for leg, n in sorted(legs, key=lambda t: (t[0][1], t[0][0])):
            out.append(("GND", "gnd", pin, None, n + " GND", [prev, leg]))
            prev = leg
    # The cells (or the LiPo charger's OUT pads) into VSYS through the Schottky diode.
    names = {b.name: b for b in c.parts}
    pb = names.get("charger") or names["power"]
    plus = (pb.lo[0] + 2.0, pb.hi[1] - 2.0)
    latch = names.get("latch")
    switch = names.get("switch")
    if switch is not None:  # the cells' + through the slide switch, then the diode
        pin = (switch.hi[0] - 1.0, switch.centre()[1])
        out.append(("BAT+", "vcc", PIN_VSYS, None, "switch", [plus, pin]))
        run("VSYS", "vcc", PIN_VSYS, None, "switch (through the diode)", pin)
    elif latch is None:
        run("VSYS", "vcc", PIN_VSYS, None, pb.name + " + (through the diode)", plus)
    else:  # the cells' + through the latch's P-MOSFET, then the diode, into VSYS
        lin, lout = (latch.lo[0] + 2.0, latch.lo[1] + 2.0), (latch.hi[0] - 2.0, latch.hi[1] - 2.0)
        run("VSYS", "vcc", PIN_VSYS, None, "latch OUT (through the diode)", lout)
        out.append(("BAT+", "vcc", PIN_VSYS, None, "latch IN", [plus, lin]))
        g = wiring.soft_power(cfg)
        run("GP%d" % g, "latch", wiring.GPIO_PIN[g], g, "latch HOLD (through 10 kohm)",
            (latch.lo[0] + 2.0, latch.hi[1] - 2.0))
        out.append(("ON", "latch", PIN_VSYS, None, "latch ON",
                    [cm.button_legs(layout, build, cm.POWER_BUTTON)[0],
                     (latch.hi[0] - 2.0, latch.lo[1] + 2.0)]))
    run("GND", "gnd", PIN_GND_BAT, None, pb.name + " -", (pb.lo[0] + 2.0, pb.lo[1] + 2.0))
    if piezo_fitted:
        g = cfg.PIEZO
        run("GP%d" % g, "piezo", wiring.GPIO_PIN[g], g, "piezo (through 100 ohm)",
            c.piezo_xy)
    return out


def svg_xy(c, x, y):
    return (MARGIN + (x - c.x0) * SCALE, MARGIN + (c.y1 - y) * SCALE)


def _rect(c, x0, y0, x1, y1, style):
    ax, ay = svg_xy(c, x0, y1)
    bx, by = svg_xy(c, x1, y0)
    return '<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" %s/>' % (ax, ay, bx - ax,
                                                                           by - ay, style)


def _text(c, x, y, s, size=11, anchor="middle", fill="#222"):
    px, py = svg_xy(c, x, y)
    return ('<text x="%.1f" y="%.1f" font-family="%s" font-size="%d" text-anchor="%s" '
            'fill="%s">%s</text>' % (px, py, FONT, size, anchor, fill, s))


def board_svg(c, layout, cfg, piezo_fitted):
    build = c.build
    w = (c.x1 - c.x0) * SCALE + 2 * MARGIN
    h = (c.y1 - c.y0) * SCALE + 2 * MARGIN + 40
    o = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">'
         % (w, h, w, h), '<rect width="100%" height="100%" fill="#fff"/>',
         _rect(c, c.x0, c.y0, c.x1, c.y1, 'fill="none" stroke="#bbb" stroke-dasharray="4 4"'),
         _rect(c, 0, 0, c.board_w, c.board_h, 'fill="#e9dcb5" stroke="#8a7a4a"')]
    for col in range(build["cols"]):
        for row in range(build["rows"]):
            px, py = svg_xy(c, *cm.hole_xy(layout, col, row))
            o.append('<circle cx="%.1f" cy="%.1f" r="3" fill="#fff" stroke="#b59f5b"/>'
                     % (px, py))
    for x, y in c.screws:
        px, py = svg_xy(c, x, y)
        o.append('<circle cx="%.1f" cy="%.1f" r="%.1f" fill="#555" data-screw="1"/>'
                 % (px, py, c.screw_clear / 2 * SCALE))
    for b in c.parts:
        if b.name in ("power", "piezo", "charger", "latch", "switch"):
            if b.name == "piezo" and not piezo_fitted:
                continue
            o.append(_rect(c, b.lo[0], b.lo[1], b.hi[0], b.hi[1],
                           'fill="none" stroke="#666" stroke-dasharray="6 4"'))
            label = layout.POWER[build["power"]["kind"]]["label"] if b.name == "power" \
                else b.name
            o.append(_text(c, b.centre()[0], b.centre()[1], label + " (under the board)",
                           12, fill="#555"))
        elif b.name in ("pico", "oled"):
            o.append(_rect(c, b.lo[0], b.lo[1], b.hi[0], b.hi[1],
                           'fill="#2e7d32" fill-opacity="0.25" stroke="#2e7d32"'))
            o.append(_text(c, b.centre()[0], b.centre()[1] + 2,
                           "Raspberry Pi Pico (USB left)" if b.name == "pico" else
                           "SSD1306 module", 13))
        elif b.name.startswith("button "):
            n = b.name[7:]
            o.append(_rect(c, b.lo[0], b.lo[1], b.hi[0], b.hi[1], 'fill="#333" stroke="#000"'))
            o.append(_text(c, b.centre()[0], b.lo[1] - 2.0, wiring.LABEL.get(n, "Power"), 11))
    px, py = cm.pico_pad(layout, build, 1)
    o.append(_text(c, px, py - 2.2, "1", 10, fill="#2e7d32"))
    px, py = cm.pico_pad(layout, build, 40)
    o.append(_text(c, px, py + 1.4, "40", 10, fill="#2e7d32"))
    for net, kind, pin, gpio, to, pts in wires(c, layout, cfg, piezo_fitted):
        colour = wiring.COLOUR[kind][0]
        path = " ".join("%.1f,%.1f" % svg_xy(c, x, y) for x, y in pts)
        o.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="2.5" '
                 'stroke-linejoin="round" data-net="%s" data-pin="%d" data-gpio="%s" '
                 'data-to="%s"/>' % (path, colour, net, pin, "" if gpio is None else gpio, to))
    o.append(_text(c, (c.x0 + c.x1) / 2, c.y0 - 3.5,
                   "Component side. Wires run underneath; dashed parts sit under the board."
                   " Pin numbers: hardware/PINS.md.", 13, fill="#444"))
    o.append("</svg>")
    return "\n".join(o) + "\n"
