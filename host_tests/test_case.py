"""`make case`: the printed case fits the parts and the layout, and the plan the pin map.

The pure tests read the model, the .scad text and the perfboard SVG. The mesh tests render
the STLs with openscad (skipped, saying so, where it is not installed) and read them back
with trimesh; each check also runs on a deliberately broken case (negative controls).
"""

import copy
import re
import shutil
import types
import xml.etree.ElementTree as ET

import case
import case_board
import case_check
import case_model
import case_scad
import pytest
import wiring
from test_hardware import PHYS

from conftest import ROOT

RENDERED = ROOT / "build" / "case-test"  # renders are reused while the .scad is unchanged


@pytest.fixture(scope="module")
def cfg():
    return wiring.load_config()


@pytest.fixture(scope="module")
def layout():
    return case_model.load_layout()


@pytest.fixture(scope="module")
def built(cfg, layout):
    return case.sources(cfg, layout)


def edited(module, **changes):
    """A copy of a plain-data module (config or layout) with some names changed."""
    d = {k: v for k, v in vars(module).items() if not k.startswith("__")}
    d["__source__"] = getattr(module, "__source__", "")
    return types.SimpleNamespace(**dict(d, **changes))


# ---------------------------------------------------------------- the layout, pure
def test_the_minimal_build_gets_its_own_smaller_case(built):
    assert sorted(built) == ["11-buttons", "4-buttons"]
    full, small = built["11-buttons"][0], built["4-buttons"][0]
    assert len(small.buttons) == 4 and small.build is not full.build
    assert (small.y1 - small.y0) * (small.x1 - small.x0) < \
        (full.y1 - full.y0) * (full.x1 - full.x0)
    # held like a handheld: landscape, a thumb's pair of buttons each side of the panel
    assert small.x1 - small.x0 > small.y1 - small.y0
    wx0, _, wx1, _ = small.window
    assert max(small.button_xy[n][0] for n in ("up", "down")) < wx0
    assert min(small.button_xy[n][0] for n in ("ok", "menu")) > wx1


@pytest.mark.parametrize("name", ["11-buttons", "4-buttons"])
def test_parts_keep_clear_of_each_other(built, name):
    c = built[name][0]
    boxes = [b.grown(case_check.CLEARANCE / 2) for b in c.parts]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            apart = any(a.hi[k] <= b.lo[k] or b.hi[k] <= a.lo[k] for k in range(3))
            assert apart or {a.name, b.name} in ({"pico", "usb"}, {"oled", "glass"},
                                                 {"tray", "power"},
                                                 {"switch", "switch knob"}), (a, b)


@pytest.mark.parametrize("name", ["11-buttons", "4-buttons"])
def test_no_two_leads_share_a_hole(built, layout, name):
    c = built[name][0]
    holes = [case_model.pico_pad(layout, c.build, p) for p in range(1, 41)]
    holes += case_model.oled_pads(layout, c.build)
    for n in c.buttons:
        holes += case_model.button_legs(layout, c.build, n)
    holes += c.screws
    assert len(set(holes)) == len(holes)
    assert all(0 < x < c.board_w and 0 < y < c.board_h for x, y in holes)


def test_hold_buttons_run_left_to_right_under_the_panel(built):
    c = built["11-buttons"][0]
    xs = [c.button_xy["hold%d" % i][0] for i in range(1, 7)]
    assert xs == sorted(xs)
    ys = {c.button_xy["hold%d" % i][1] for i in range(1, 7)}
    assert len(ys) == 1 and ys.pop() < c.window[1]
    # thumbs: the d-pad on the left half, Roll on the right half, both below the holds
    assert c.button_xy["up"][0] < c.board_w / 2 < c.button_xy["roll"][0]
    assert max(c.button_xy[n][1] for n in ("up", "down", "roll", "ok")) < min(
        c.button_xy["hold%d" % i][1] for i in range(1, 7))


def test_a_changed_config_or_layout_changes_the_case(cfg, layout, built):
    text = built["11-buttons"][1]["case.scad"]
    fewer = dict(cfg.BUTTONS, hold6=None)
    c5 = case.sources(edited(cfg, BUTTONS=fewer), layout)["10-buttons"][0]
    assert c5.holes["top"] == built["11-buttons"][0].holes["top"] - 1
    piezo = case.sources(edited(cfg, PIEZO=17), layout)["11-buttons"]
    assert piezo[0].holes["base"] == built["11-buttons"][0].holes["base"] + 1
    assert piezo[1]["case.scad"] != text
    moved = copy.deepcopy(layout.FULL)
    moved["buttons"]["up"] = (3, 16)
    lay2 = edited(layout, FULL=moved)
    assert case.sources(cfg, lay2)["11-buttons"][1]["case.scad"] != text


def lipo_layout(layout):
    full = copy.deepcopy(layout.FULL)
    full["power"]["kind"] = "lipo"
    return edited(layout, FULL=full)


def test_the_lipo_option_brings_its_charger_and_its_port(cfg, layout, built):
    aaa = built["11-buttons"][0]
    c, files = case.sources(cfg, lipo_layout(layout))["11-buttons"]
    assert "charger" in {b.name for b in c.parts} and "charger" not in {
        b.name for b in aaa.parts}
    # the charger's USB port instead of the cells' tray slot
    assert c.charger_pocket and not c.tray and aaa.tray and not aaa.charger_pocket
    assert c.holes["base"] == aaa.holes["base"]
    assert 'data-to="charger -"' in files["perfboard.svg"]  # its return, pin 38


@pytest.mark.parametrize("kind", ["3xAAA", "lipo"])
def test_every_part_fits_with_its_datasheet_margin(cfg, layout, kind):
    """Each promised fit, as a number against its least: 3 mm of wiring under the board, the
    OLED's 1.5 mm glass and tape under the plate, the window past the makers' spread, both
    USB plugs seated, the LiPo's room to swell to 10.9 mm."""
    lay = lipo_layout(layout) if kind == "lipo" else layout
    c = case.sources(cfg, lay)["11-buttons"][0]
    found = case_model.margins(c, lay)
    assert case_model.fit_problems(c, lay) == []
    assert found["wiring space under the perfboard"][0] >= 3.0
    assert found["glass to the plate"][0] >= 0.3
    assert lay.OLED["glass_t"] >= 1.5 and lay.OLED["tape"] > 0
    if kind == "lipo":
        assert [b for b in c.parts if b.name == "power"][0].size()[2] >= 10.9
        assert found["charger's plug reach past its receptacle"][0] >= 0.1


def _shifted(c, name, dx=0.0, dz=0.0):
    """The case with one part's box moved (the parts list copied, the rest shared)."""
    c = copy.copy(c)
    c.parts = [case_model.Box(b.name, b.lo[0] + dx, b.lo[1], b.lo[2] + dz, b.hi[0] + dx,
                              b.hi[1], b.hi[2] + dz) if b.name == name else b
               for b in c.parts]
    return c


@pytest.mark.parametrize("layout_change, case_change, problem", [
    (lambda lay: lay.CASE.update(under=1.5), None, "wiring space under the perfboard is 1.50"),
    (None, lambda c: _shifted(c, "glass", dz=0.4), "glass to the plate is 0.20"),
    (lambda lay: lay.CASE.update(window_margin=0.8), None, "window beyond the active area"),
    (lambda lay: lay.POWER["lipo"].update(h_new=10.9), None,
     "room for the cell to swell is 0.00"),
    (None, lambda c: _shifted(c, "charger usb", dx=1.5),
     "charger's plug reach past its receptacle is -0.20"),
    (None, lambda c: _shifted(c, "usb", dx=0.3), "Pico's plug reach past its receptacle is -0.10"),
    (lambda lay: lay.PLUG.update(fit=0.1), None, "pocket around the plug's grip"),
    (lambda lay: lay.CAP.update(stem_d=5.4), None, "a cap's stem in its hole is 0.10"),
    (lambda lay: lay.CAP.update(flange_d=6.6), None, "a cap's flange past its hole"),
    (lambda lay: lay.CAP.update(proud=0.5), None, "a cap proud of the top is 0.50"),
    (lambda lay: lay.POWER["lipo"]["charger"].update(shelf=0.0), None,
     "pocket's sill over the base's underside is 0.65"),
    (lambda lay: lay.CASE.update(lip_fit=0.1), None, "a corner lip in its socket is 0.10"),
    (lambda lay: lay.CASE.update(lip_h=1.0), None, "a corner lip's height into the top is 1.00"),
])
def test_negative_a_part_that_would_not_fit_is_named(cfg, layout, layout_change, case_change,
                                                     problem):
    """Each margin, broken alone on the LiPo build, is the one reported (the pocket's fit
    is short both ways)."""
    lay = lipo_layout(layout)
    lay = edited(lay, CASE=dict(lay.CASE), OLED=dict(lay.OLED), PLUG=dict(lay.PLUG),
                 POWER=copy.deepcopy(lay.POWER), CAP=dict(lay.CAP))
    if layout_change:
        layout_change(lay)
    c = case.sources(cfg, lay)["11-buttons"][0]
    if case_change:
        c = case_change(c)
    found = case_model.fit_problems(c, lay)
    assert found and all(f.startswith(problem) for f in found), found
    assert len(found) == (2 if "grip" in problem else 1), found


@pytest.mark.parametrize("name, change, problem", [
    ("TRAY", {"fit": 0.1}, "the tray's end plate in its slot is 0.10"),
    ("SWITCH", {"knob_out": 2.0}, "the switch's slider past the case's side is -0.40"),
])
def test_negative_a_tray_or_switch_that_would_not_work_is_named(cfg, layout, name, change,
                                                                problem):
    """The cells' tray must slide in its slot and the switch's slider stand proud."""
    good = case.sources(cfg, layout)["11-buttons"][0]
    assert good.tray and good.switch and case_model.fit_problems(good, layout) == []
    lay = edited(layout, **{name: dict(getattr(layout, name), **change)})
    found = case_model.fit_problems(case.sources(cfg, lay)["11-buttons"][0], lay)
    assert len(found) == 1 and found[0].startswith(problem), found


@pytest.mark.parametrize("name", ["11-buttons", "4-buttons"])
def test_the_halves_align_by_a_lip_in_each_screwed_corner(built, layout, name):
    """Three corners have a screw beside them, so three lips: two diagonal corners alone
    hold the top against sliding either way along x and y."""
    c = built[name][0]
    assert len(c.lips) == 3 and c.z_base_top == c.z_split + layout.CASE["lip_h"]
    corners = {(lip[0] <= c.x0, lip[1] <= c.y0) for lip in c.lips}
    assert {(True, False), (False, True)} <= corners
    found = case_model.margins(c, layout)
    assert found["a corner lip in its socket"] == (layout.CASE["lip_fit"], 0.2)


@pytest.mark.parametrize("rows, problem", [
    ((15, 17), "the left grip covers the switch's slot"),
    ((6, 8), "the left grip covers the Pico's USB plug"),
    ((22, 24), "the right grip covers the tray's slot"),
    ((29, 32), "the left grip runs into a rounded corner"),
])
def test_negative_a_grip_over_a_port_or_slot_is_refused(cfg, layout, rows, problem):
    """A grip swells the wall: over the USB plug, the switch or the tray it would bury
    them, so the layout is refused (the good layouts pass: their grips are rendered)."""
    full = dict(copy.deepcopy(layout.FULL), grip_rows=rows)
    with pytest.raises(case_model.LayoutError, match=re.escape(problem)):
        case.sources(cfg, edited(layout, FULL=full))


def test_a_layout_that_cannot_fit_is_refused(cfg, layout):
    lay = edited(layout, BUTTON=dict(layout.BUTTON, h=9.5))
    with pytest.raises(case_model.LayoutError, match="shorter"):
        case.sources(cfg, lay)
    high = copy.deepcopy(layout.FULL)
    high["oled_pin1"] = (11, 34)  # the module's edge past the board's
    with pytest.raises(case_model.LayoutError, match="oled overhangs"):
        case.sources(cfg, edited(layout, FULL=high))


@pytest.mark.parametrize("name", ["11-buttons", "4-buttons"])
def test_soft_power_brings_its_latch_its_button_and_their_wires(cfg, layout, built, name):
    """config.POWER_HOLD adds the latch on the floor, a hole in the top over its power
    button and the latch's wires on the plan, the hold wire from that GPIO's pad. Breaks if
    the model forgets the button's hole or the latch, or the plan wires the wrong pin."""
    plain = built[name][0]
    c, files = case.sources(edited(cfg, POWER_HOLD=18), layout)[name]
    assert c.holes["top"] == plain.holes["top"] + 1 and c.buttons == plain.buttons
    assert "latch" in {b.name for b in c.parts} and "latch" not in {b.name for b in plain.parts}
    assert c.button_xy["power"] == case_model.button_centre(layout, c.build, "power")
    wires = {el.get("data-to"): el for el in _wires(files["perfboard.svg"])}
    assert int(wires["latch HOLD (through 10 kohm)"].get("data-pin")) == PHYS[18]
    legs = [case_board.svg_xy(c, *p) for p in case_model.button_legs(layout, c.build, "power")]
    assert _points(wires["latch ON"])[0] == pytest.approx(legs[0], abs=0.1)
    assert "power GND" in wires and "latch OUT (through the diode)" in wires
    assert "latch" not in "".join(w.get("data-to") for w in _wires(built[name][1]["perfboard.svg"]))


def test_parts_on_the_floor_may_not_overlap(cfg, layout):
    """The latch's board put where the piezo lies is refused (the negative control of the
    floor check, which the good layouts pass above)."""
    full = copy.deepcopy(layout.FULL)
    full["latch_at"] = full["piezo"]
    with pytest.raises(case_model.LayoutError, match="piezo and latch overlap"):
        case.sources(edited(cfg, POWER_HOLD=18), edited(layout, FULL=full))


# ---------------------------------------------------------------- the perfboard plan
def _wires(svg):
    root = ET.fromstring(svg)
    return [el for el in root.iter("{http://www.w3.org/2000/svg}polyline")]


def _points(el):
    return [tuple(map(float, p.split(","))) for p in el.get("points").split()]


@pytest.mark.parametrize("name", ["11-buttons", "4-buttons"])
def test_perfboard_wires_follow_the_pin_table(cfg, layout, built, name):
    c, files = built[name]
    wires = {el.get("data-to"): el for el in _wires(files["perfboard.svg"])}
    gpios = dict(cfg.BUTTONS) if name == "11-buttons" else wiring.minimal_buttons(cfg)
    pins_md = (ROOT / "hardware" / "PINS.md").read_text()
    pc, pr = c.build["pico_pin1"]
    for n in c.buttons:
        el = wires[n]
        pin = PHYS[gpios[n]]
        assert int(el.get("data-pin")) == pin and int(el.get("data-gpio")) == gpios[n]
        assert re.search(r"\b%d\b.*GP%d\b|GP%d\b.*\b%d\b" % (pin, gpios[n], gpios[n], pin),
                         pins_md)
        # the wire starts on that pin's pad: pins 1-20 along the pin-1 row, 21-40 back
        col, row = (pc + pin - 1, pr) if pin <= 20 else (pc + 40 - pin, pr + 7)
        pad = case_board.svg_xy(c, (col + 0.5) * layout.PITCH, (row + 0.5) * layout.PITCH)
        start, end = _points(el)[0], _points(el)[-1]
        assert start == pytest.approx(pad, abs=0.1)
        legs = [case_board.svg_xy(c, *p) for p in case_model.button_legs(layout, c.build, n)]
        assert any(end == pytest.approx(leg, abs=0.1) for leg in legs)
    for end, gpio in (("oled SDA", cfg.SDA), ("oled SCL", cfg.SCL)):
        assert int(wires[end].get("data-pin")) == PHYS[gpio]


@pytest.mark.parametrize("name", ["11-buttons", "4-buttons"])
def test_the_documented_perfboard_plans_are_current(built, name):
    committed = (ROOT / "docs" / "case" / ("perfboard-%s.svg" % name.split("-")[0])).read_text()
    assert committed == built[name][1]["perfboard.svg"], (
        "docs/case is stale: run `python tools/hardware/case.py --docs`")


# ---------------------------------------------------------------- the rendered meshes
def _need_openscad():
    why = case.missing_tools(png=False)
    if why:
        pytest.skip("case meshes not checked: " + why)


@pytest.fixture(scope="module")
def rendered(cfg, layout, built):
    _need_openscad()
    assert case.main(["--out", str(RENDERED), "--no-png"]) == 0
    return {name: case_check.load_parts(c, RENDERED / name) for name, (c, _) in built.items()}


@pytest.mark.parametrize("name", ["11-buttons", "4-buttons"])
def test_the_case_passes_every_check(built, layout, rendered, name):
    c = built[name][0]
    assert case_check.check_all(c, layout, rendered[name]) == []
    # the top: the window and a hole per button; the base: the screws and the lanyard
    # and the slots of the cells' tray and the slide switch
    assert c.holes == {"top": 1 + len(c.buttons), "base": 4 + 1 + 2, "tray": 0, "cap": 0}
    # the grips swell both sides of both halves, by their full amount
    assert c.grips and c.grip_out >= 2.0
    for part in ("base", "top"):
        (x0, _, _), (x1, _, _) = rendered[name][part].bounds
        assert x0 == pytest.approx(c.x0 - c.grip_out, abs=0.05)
        assert x1 >= c.x1 + c.grip_out - 0.05


def test_negative_a_tight_socket_is_found(built, layout, rendered, tmp_path):
    """The top drawn with sockets 0.1 mm round its lips: the meshes show 0.10 mm."""
    c = copy.copy(built["11-buttons"][0])
    c.lip_fit = 0.1
    (tmp_path / "case.scad").write_text(case_scad.scad(c, "tight", layout))
    case.openscad(tmp_path / "case.scad", "top", tmp_path / "top.stl")
    for part in ("base", "tray"):
        shutil.copy(RENDERED / "11-buttons" / (part + ".stl"), tmp_path / (part + ".stl"))
    found = case_check.lips_seat(c, case_check.load_parts(c, tmp_path))
    assert len(found) == 1 and re.fullmatch(r"a corner lip is 0\.(09|10|11) mm from its "
                                             r"socket, needs 0\.20", found[0]), found


def test_the_lipo_case_passes_every_check(cfg, layout):
    _need_openscad()
    lay = lipo_layout(layout)
    c, files = case.sources(cfg, lay)["11-buttons"]
    case.write(RENDERED / "lipo", files, png=False, parts=case.parts_of(c))
    assert case_check.check_all(c, lay, case_check.load_parts(c, RENDERED / "lipo")) == []


@pytest.mark.parametrize("name", ["11-buttons", "4-buttons"])
def test_the_soft_power_case_passes_every_check(cfg, layout, name):
    """With the latch on the floor and its button's hole, every check still holds."""
    _need_openscad()
    c, files = case.sources(edited(cfg, POWER_HOLD=18), layout)[name]
    folder = RENDERED / ("latch-" + name)
    case.write(folder, files, png=False, parts=case.parts_of(c))
    assert case_check.check_all(c, layout, case_check.load_parts(c, folder)) == []


def test_a_mesh_turned_inside_out_is_found(rendered):
    top = rendered["11-buttons"]["top"].copy()
    top.invert()
    assert case_check.watertight("top", top) == ["top is not consistently oriented outward"]


def test_a_torn_mesh_is_not_watertight(rendered):
    top = rendered["11-buttons"]["top"].copy()
    top.update_faces([i != 7 for i in range(len(top.faces))])
    assert case_check.watertight("top", top) == ["top is not watertight"]


@pytest.fixture(scope="module")
def broken(built, layout, rendered, tmp_path_factory):
    """One top with five faults, each for one check: an extra hole, a button hole 0.3 mm
    off, a window 1 mm short of the active area, 1.2 mm walls, the plate 0.5 mm lower.
    Only the top is rendered; the good base stands beside it."""
    c = copy.copy(built["11-buttons"][0])
    c.button_xy = dict(c.button_xy)
    x, y = c.button_xy["up"]
    c.button_xy["up"] = (x + 0.3, y)
    c.button_xy["stray"] = (c.board_w / 2, c.y1 - 5.0)
    wx0, wy0, wx1, wy1 = c.window
    c.window = (wx0 + 1.0 + layout.CASE["window_margin"], wy0, wx1, wy1)
    c.wall = 1.2
    c.z_plate -= 0.5
    c.z_top -= 0.5
    folder = tmp_path_factory.mktemp("broken")
    (folder / "case.scad").write_text(case_scad.scad(c, "broken", layout))
    case.openscad(folder / "case.scad", "top", folder / "top.stl")
    for part in ("base", "tray"):
        shutil.copy(RENDERED / "11-buttons" / (part + ".stl"), folder / (part + ".stl"))
    return c, case_check.load_parts(c, folder)


def test_negative_an_extra_hole_breaks_the_genus(broken):
    c, parts = broken
    assert case_check.genus("top", parts["top"], c.holes["top"]) == [
        "top has genus %d, not its %d holes" % (c.holes["top"] + 1, c.holes["top"])]


def test_negative_an_off_centre_hole_is_found(broken, layout):
    c, parts = broken
    assert case_check.buttons_centred(c, parts["top"], layout) == [
        "button up's hole is 0.30 mm off its centre"]


def test_negative_a_short_window_is_found(broken, layout):
    c, parts = broken
    assert len(case_check.window_covers(c, parts["top"], layout)) == 3


def test_negative_thin_walls_are_found(broken):
    _, parts = broken
    found = case_check.walls("top", parts["top"])
    assert len(found) == 1  # 1.2 mm, give or take the facets of the rounded corners
    assert re.fullmatch(r"top is 1\.(1[5-9]|2[0-5]) mm thin somewhere", found[0])
    assert case_check.walls("base", parts["base"]) == []  # the good base


def test_negative_a_low_plate_touches_the_panel(broken):
    c, parts = broken
    found = case_check.closes(c, parts)
    # the thin walls' sockets are too narrow for the good base's lips: that overlap too
    assert "the base and the top overlap" in found[0]
    found = found[1:]
    assert found and all("of the top" in p for p in found)
    assert any(p.startswith("glass is within 0.3 mm") for p in found)
