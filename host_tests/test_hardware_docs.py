"""The builder's documents agree: BOM.md, PINS.md, wiring.svg and both perfboard plans name
the same ground pins (never AGND, pin 33, for a return), the BOM's LiPo is the cell the case
is sized for, and the BOM lists every consumable the plans need.

The expectations come from config.py (through the pin plan) and hardware/layout.py; each
document is read as a builder reads it (table rows, SVG attributes, sentences). A negative
control feeds each check a document with one wrong pin or one missing line.
"""

import re
import xml.etree.ElementTree as ET

import case
import case_model
import pytest
import wiring

from conftest import ROOT

HW = ROOT / "hardware"
SVG = "{http://www.w3.org/2000/svg}"
AGND = 33


@pytest.fixture(scope="module")
def cfg():
    return wiring.load_config()


@pytest.fixture(scope="module")
def docs():
    return {"PINS.md": (HW / "PINS.md").read_text(), "wiring.svg": (HW / "wiring.svg").read_text(),
            "BOM.md": (HW / "BOM.md").read_text(),
            "perfboard-11.svg": (ROOT / "docs" / "case" / "perfboard-11.svg").read_text(),
            "perfboard-4.svg": (ROOT / "docs" / "case" / "perfboard-4.svg").read_text()}


def expected_grounds(cfg):
    """{what: Pico pin} from config.py's pin plan: the OLED, each button, the battery."""
    p = wiring.plan(cfg)
    want = {"oled": p["oled"]["gnd_pin"], "battery": p["gnd"]["battery"]}
    want.update({b["name"]: b["gnd_pin"] for b in p["buttons"]})
    return want


def ground_disagreements(cfg, docs):
    """Every place a document's ground differs from the plan's, in words."""
    want = expected_grounds(cfg)
    out = []
    pins = docs["PINS.md"]
    m = re.search(r"^\| GND \| GND \| (\d+) \| - \|$", pins, re.M)
    if not m or int(m.group(1)) != want["oled"]:
        out.append("PINS.md: OLED GND is not pin %d" % want["oled"])
    for label, name in ((wiring.LABEL[n], n) for n in wiring.BUTTON_ORDER if n in want):
        for row in re.findall(r"^\| %s \| `%s` \|.*\| GND \(pin (\d+)\) \|" % (
                re.escape(label), name), pins, re.M):
            if int(row) != want[name]:
                out.append("PINS.md: %s's ground is pin %s, not %d" % (name, row, want[name]))
    if not re.search(r"^\| %d \| GND \| battery -" % want["battery"], pins, re.M):
        out.append("PINS.md: no battery return on pin %d" % want["battery"])
    if re.search(r"^\| %d \| A?GND \| (?!nothing)" % AGND, pins, re.M):
        out.append("PINS.md: AGND (pin 33) carries a return")
    svg = docs["wiring.svg"]
    if "- to GND (pin %d)" % want["battery"] not in svg:
        out.append("wiring.svg: the battery's return is not pin %d" % want["battery"])
    for name in ("perfboard-11.svg", "perfboard-4.svg"):
        for el in ET.fromstring(docs[name]).iter(SVG + "polyline"):
            if el.get("data-net") != "GND":
                continue
            to, pin = el.get("data-to"), int(el.get("data-pin"))
            key = ("oled" if to == "oled GND" else "battery" if to.endswith(" -")
                   else to[:-4] if to.endswith(" GND") else None)
            if pin == AGND or (key in want and pin != want[key]):
                out.append("%s: %s on pin %d, not %s" % (name, to, pin, want.get(key)))
    bom = docs["BOM.md"]
    if "GND pin %d" % want["battery"] not in bom or "never to AGND (pin 33)" not in bom:
        out.append("BOM.md: the battery's return is not GND pin %d" % want["battery"])
    return out


def bom_omissions(docs, layout):
    """What the BOM leaves out: the LiPo the case is sized for, and the consumables."""
    bom = docs["BOM.md"]
    lipo = layout.POWER["lipo"]
    out = []
    row = next((ln for ln in bom.splitlines() if "LiPo" in ln and "cell" in ln), "")
    if not ("103450" in row and "%d mAh" % lipo["mah"] in row and "%.1f mm" % lipo["h"] in row):
        out.append("BOM.md: the LiPo row is not the 103450, %d mAh cell the case fits"
                   % lipo["mah"])
    for what, pattern in (("hook-up wire", r"\| Hook-up wire"),
                          ("tape or glue for the floor parts", r"tape \(or hot glue\).*floor"),
                          ("insulation under the Pico", r"Insulating tape.*under the Pico")):
        if not re.search(pattern, bom):
            out.append("BOM.md: no " + what)
    return out


def test_the_documents_are_regenerated(cfg, docs):
    """The perfboard plans committed in docs/case are what the generators give now."""
    built = case.sources(cfg, case_model.load_layout())
    for name, (_, files) in built.items():
        assert docs["perfboard-%s.svg" % name.split("-")[0]] == files["perfboard.svg"]


def test_every_document_names_the_same_grounds(cfg, docs):
    want = expected_grounds(cfg)
    assert want["battery"] != AGND and want["oled"] != AGND
    assert AGND not in want.values()
    assert ground_disagreements(cfg, docs) == []


@pytest.mark.parametrize("doc, old, new, problem", [
    ("perfboard-11.svg", 'data-pin="38" data-gpio="" data-to="power -"',
     'data-pin="33" data-gpio="" data-to="power -"', "perfboard-11.svg: power - on pin 33"),
    ("PINS.md", "| GND | GND | 28 | - |", "| GND | GND | 33 | - |", "PINS.md: OLED GND"),
    ("PINS.md", "| 33 | AGND | nothing", "| 33 | AGND | OLED GND", "PINS.md: AGND"),
    ("PINS.md", "| `menu` | GP16 | 21 | GND (pin 23) |", "| `menu` | GP16 | 21 | GND (pin 33) |",
     "PINS.md: menu's ground"),
    ("wiring.svg", "- to GND (pin 38)", "- to GND (pin 33)", "wiring.svg: the battery"),
    ("BOM.md", "GND pin 38", "GND pin 33", "BOM.md: the battery"),
])
def test_negative_a_wrong_ground_is_named(cfg, docs, doc, old, new, problem):
    assert old in docs[doc]
    bad = dict(docs, **{doc: docs[doc].replace(old, new)})
    found = ground_disagreements(cfg, bad)
    assert found and all(f.startswith(problem) for f in found), found


def test_the_bom_lists_the_cases_lipo_and_every_consumable(docs):
    assert bom_omissions(docs, case_model.load_layout()) == []


@pytest.mark.parametrize("old, new, problem", [
    ("1800 mAh", "1000 mAh", "BOM.md: the LiPo row"),
    ("| Hook-up wire", "| Wire", "BOM.md: no hook-up wire"),
    ("| Insulating tape", "| Tape", "BOM.md: no insulation under the Pico"),
])
def test_negative_a_missing_bom_line_is_named(docs, old, new, problem):
    assert old in docs["BOM.md"]
    found = bom_omissions(dict(docs, **{"BOM.md": docs["BOM.md"].replace(old, new)}),
                          case_model.load_layout())
    assert len(found) == 1 and found[0].startswith(problem), found
