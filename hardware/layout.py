"""PicoYacht's physical layout: where each part sits on the perfboard, beside the pin map.

Plain data, read by tools/hardware/case.py (`make case`) from its path, like firmware/config.py.
Edit it (and config.py) and `make case` gives a matching case and perfboard plan.

Coordinates are perfboard holes on the 2.54 mm grid, seen from the component side: column
0 is the left-most hole, row 0 the bottom row (the edge nearest the player). Sizes are mm.
"""

PITCH = 2.54  # perfboard hole pitch (0.1 in)

# ---------------------------------------------------------------- the parts (datasheet sizes)
# Raspberry Pi Pico (Raspberry Pi, "Raspberry Pi Pico Datasheet", mechanical drawing):
# board 51.0 x 21.0 mm, 1.0 mm thick; pins on a 2.54 mm pitch, the two rows 17.78 mm apart
# (1.61 mm in from each long edge); mounting holes 2.1 mm, 11.4 mm apart across and 47.0 mm
# along; the micro-USB receptacle overhangs the short edge by 1.3 mm. The Pico 2 (RP2350)
# shares the outline. Here it is soldered flat on the perfboard by its castellated pads, so
# the parts on its top side (the receptacle is the tallest) set its height.
PICO = {"w": 51.0, "d": 21.0, "pcb": 1.0, "row_gap": 17.78, "row_inset": 1.61,
        "parts_h": 3.2,  # envelope over the receptacle, above the PCB (our allowance)
        "usb_w": 8.0, "usb_h": 3.0, "usb_overhang": 1.3}

# A micro-USB cable's plug. Its metal shell mates about 1.3 mm deeper than the face of its
# moulded grip, so a receptacle may sit at most that far behind the surface the grip stops
# at (connector makers' design guides allow up to 1.9 mm for a slim grip; 1.3 mm is the
# common cable). The grip of common cables is up to 11.0 x 8.0 mm: a
# pocket that size (plus "fit") lets the grip in so a deeper receptacle still mates.
PLUG = {"reach": 1.3, "grip_w": 11.0, "grip_h": 8.0, "fit": 0.3}

# 0.96" 128x64 SSD1306 I2C module. Its glass is a UG-2864-class panel: outline 26.70 x
# 19.26 mm, active area 21.744 x 10.864 mm (0.17 mm pixels) (Univision UG-2864HSWEG01
# datasheet). Thickness differs by maker: that datasheet gives 1.26 mm, the common 0.96"
# panels' drawings 1.40 +- 0.10 mm, so the case takes the largest, 1.5 mm, and the
# double-sided tape (about 0.2 mm) that holds the glass to the carrier. The carrier board of
# the common 4-pin module is 27.3 x 27.8 mm with the header (GND VCC SCL SDA) along one
# edge; it stands on its pin header's 2.5 mm plastic spacer. Where the glass sits on the
# carrier varies between makers' modules by up to 1 mm either way ("aa_spread"): the
# window's margin covers it, so no module needs measuring.
OLED = {"w": 27.3, "d": 27.8, "pcb": 1.2, "standoff": 2.5,
        "pin_inset": 1.5,  # header row centre from the board's header edge
        "glass_w": 26.70, "glass_d": 19.26, "glass_t": 1.5, "tape": 0.2,
        "glass_inset": 4.6,  # glass edge from the header edge (the glass sits below the pins)
        "aa_w": 21.744, "aa_d": 10.864,
        "aa_inset": 1.9,  # active area's top edge from the glass edge nearest the header
        "aa_spread": 1.0}  # how far the active area's place differs between makers

# 6 x 6 mm through-hole tactile switch (e.g. Omron B3F family datasheet): body 6.0 x 6.0 x
# 3.5 mm, legs 6.5 x 4.5 mm apart (they spread to 3 x 2 holes, 7.62 x 5.08 mm, on a
# perfboard), round actuator 3.5 mm across. Bought by total height: 4.3 mm, the commonest
# stock height, leaves room above it for a printed cap under the top's plate.
BUTTON = {"body": 6.0, "body_h": 3.5, "cap_d": 3.5, "h": 4.3}

# The printed button cap (cap.stl, one per button): a stem through the plate's hole and a
# flange under the plate that keeps it in; it rests on the switch's actuator. The plate's
# hole is the stem plus "fit" all round (CASE "button_hole").
CAP = {"stem_d": 5.0, "flange_d": 7.6, "flange_t": 1.6, "proud": 1.5, "fit": 0.3}

# Passive piezo transducer, 12 mm class (the "12095" size: 12 mm across, 9.5 mm tall), glued
# to the base's floor under a sound hole.
PIEZO = {"d": 12.0, "h": 9.5}

# Perfboard: 1.6 mm FR-4 (the common stock thickness). Screw holes are drilled out to 2.9 mm
# at the holes named in each build for M2.5 screws.
BOARD_T = 1.6

# Power options, each under the perfboard in the case's base (sizes: the part's envelope).
POWER = {
    # 3 x AAA in a side-by-side holder. Cells (IEC 60086-2, R03/LR03): 10.5 mm across,
    # 44.5 mm long at most; a holder with its end springs and walls: 52 x 36 x 13 mm.
    # It is glued onto a printed tray that slides out of the case through a slot in a wall
    # ("drawer" in each build), its end plate flush with the wall: cells change without a
    # screwdriver.
    "3xAAA": {"w": 52.0, "d": 36.0, "h": 13.0, "mah": 1000, "volts": 4.5,
              "label": "3 x AAA holder", "tray": True},
    # LiPo pouch cell, size code 103450 (nominally 10 x 34 x 50 mm, 1800 mAh). Its makers'
    # datasheets give 10.5 mm thick new and up to 10.9 mm after 300 cycles (pouch cells
    # swell as they age): the case takes the end-of-life thickness. Beside it a TP4056
    # charger board (4.2 V, 1 A linear charger with DW01 protection; common module 25 x 19
    # mm, 1.6 mm PCB, a micro-USB receptacle 7.5 x 2.7 mm standing 0.6 mm past the board's
    # edge). The charger sits on a printed shelf against the left wall, its receptacle's
    # face at the wall's inside, and the wall has a pocket for the plug's grip.
    "lipo": {"w": 50.0, "d": 34.0, "h": 10.9, "h_new": 10.5, "mah": 1800, "volts": 3.7,
             "label": "103450 LiPo (1800 mAh) + TP4056 charger",
             "charger": {"w": 25.0, "d": 19.0, "pcb": 1.6, "usb_w": 7.5, "usb_h": 2.7,
                         "usb_overhang": 0.6,
                         "shelf": 1.2}},  # lifts the pocket clear of the base's floor
}

# The tray under the cell holder: a 1.6 mm floor and an end plate that fills its slot in the
# wall, thicker than the wall by "plate_in" (inside) so a fingernail groove leaves it stiff.
TRAY = {"floor": 1.6, "plate_in": 1.2, "fit": 0.35, "groove_w": 14.0, "groove_h": 1.6,
        "groove_d": 1.0}

# Slide switch, SPDT, in the cells' + lead when there is no soft-power latch (BOM.md): the
# SS12D00 size (C&K / XKB drawings): body 8.6 x 3.6 x 3.5 mm, slider 1.5 x 1.5 mm standing
# 4 mm out of the body, 1.5 mm of travel. It lies on its side on the floor against a wall
# ("switch_at" in each build: that wall and the hole along it), its slider through a slot.
SWITCH = {"body_l": 8.6, "body_t": 3.6, "body_h": 3.5, "knob": 1.5, "knob_out": 4.0,
          "travel": 1.5, "off_wall": 0.4}

# Soft-power latch (config.POWER_HOLD; BOM.md "Soft power"): its few parts on an offcut of
# perfboard, 4 x 5 holes, glued to the base's floor beside the cells like the piezo: a
# P-MOSFET on a SOT-23 adapter, a TO-92 NPN (4.6 mm body), two resistors and a capacitor
# laid flat. Its power button is a tactile switch like the others, on the main board.
LATCH = {"w": 10.0, "d": 13.0, "h": 8.0}

# ---------------------------------------------------------------- the builds
# Each build: board size in holes; the Pico's pin 1 (pins 1-20 run right along that row,
# 21-40 back along the row 7 holes up; USB out of the left edge); the OLED header's left pin
# (GND); each button's lower-left leg; the screw holes; the power option, centred under the
# board at "at" (holes, may be halves), "turn" to lay it upright, "drawer" the wall its tray
# slides out of ("right" or "front": the cells then lie against it); the piezo's centre under
# the board (glued to the base's floor, on two wires). Set "kind" to "lipo" for the LiPo
# option: its charger board lies against the left wall at row "charger_row", USB out.
# With the soft-power latch, its board lies on the floor at "latch_at" and its power button
# (lower-left leg at "power_button") sits away from the thumbs, so a grip never presses it.
# The full build: the panel on top, the six hold buttons in a row under it (left to right
# like the dice on screen), Up/Down under the left thumb, OK and Roll under the right, Menu
# between. The Pico lies along the bottom edge.
FULL = {
    "cols": 26, "rows": 34,
    "pico_pin1": (0, 1),
    "oled_pin1": (11, 32),
    "buttons": {
        "hold1": (1, 19), "hold2": (5, 19), "hold3": (9, 19), "hold4": (13, 19),
        "hold5": (17, 19), "hold6": (21, 19),
        "up": (3, 15), "down": (3, 10),
        "ok": (19, 15), "roll": (19, 10),
        "menu": (11, 12),
    },
    "screws": ((1, 32), (24, 32), (24, 1), (1, 12)),
    "power": {"kind": "3xAAA", "at": (12.5, 21.5), "turn": False, "drawer": "right",
              "charger_row": 4},  # a LiPo's charger: USB out of the left wall
    "piezo": (12.5, 5),
    "latch_at": (21, 6), "power_button": (2, 25),
    "switch_at": ("left", 17),
    "grip_rows": (10, 11.5),  # under the palms, between the USB plug and the tray
}

# The minimal build (4 buttons), held like a handheld console: landscape, Up/Down under the
# left thumb, OK and Menu under the right, the panel between them, the Pico along the bottom.
MINIMAL = {
    "cols": 30, "rows": 22,
    "pico_pin1": (0, 1),
    "oled_pin1": (13, 20),
    "buttons": {"up": (2, 15), "down": (2, 10), "menu": (25, 15), "ok": (25, 10)},
    "screws": ((1, 20), (28, 20), (28, 1), (0, 12)),
    "power": {"kind": "3xAAA", "at": (14.5, 10), "turn": False, "drawer": "front"},
    "piezo": (14, 17),
    "latch_at": (5, 17), "power_button": (5, 17),
    "switch_at": ("left", 6),
    "grip_rows": (10, 14),  # each end, where the hands wrap round it
}

# ---------------------------------------------------------------- the case
CASE = {
    "wall": 2.0,  # side walls, floor and the top's plate
    "corner": 3.5,  # outside radius of the vertical corners (more would clip the board's)
    # 45-degree edges round the face and the underside (printable, kind to the hands): the
    # underside's is smaller, so the floor under the wall's slots stays a wall thick
    "chamfer": 1.5, "chamfer_under": 0.6,
    "gap": 0.5,  # perfboard edge to the wall's inside
    # Under the perfboard: solder joints (about 1 mm), clipped leads and up to three layers
    # of crossing hook-up wire (0.6 mm over its insulation each) above the tallest floor part.
    "under": 3.0,
    "over": 0.6,  # the tallest part under the plate (the OLED glass) to the plate
    "button_hole": 5.6,  # around a cap's stem
    "window_margin": 1.5,  # beyond the active area: OLED "aa_spread" plus 0.5 to see by
    "boss_d": 6.5, "screw_clear": 2.9, "screw_pilot": 2.2,  # M2.5 screws
    "head_d": 5.5, "head_h": 4.5,  # M2.5 pan head (1.7-2 mm tall), sunk into the base
    "boss_wall": 1.8,  # around the counterbore, in the base's bosses
    "lanyard_d": 3.5,
    "sound_d": 3.0,
    # The halves align by a lip in each corner that has a screw beside it: the base's wall
    # rises "lip_h" there, from the corner to the screw's centre lines, into a socket in the
    # top (its wall notched, the corner filled solid to the screw's boss). The socket is the
    # lip plus "lip_fit" all round: FDM printers make a hole 0.2-0.3 mm tighter than drawn
    # (common slicer and printer guides' clearance for parts that slide together), so 0.25.
    "lip_h": 2.0, "lip_fit": 0.25,
    # Side grips: each hand's side of the case swells "grip_out" mm over a length of the
    # wall, round in plan ("grip_r"), bevelled like the edges: from row to row of "grip_rows" in each build.
    "grip_out": 3.0, "grip_r": 7.0,
}
