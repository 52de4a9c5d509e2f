"""hardware/: the pin table, wiring diagram and Wokwi project can never drift from config.py.

Each generated file is regenerated into a temp dir and compared byte for byte with the
committed one (run `make hardware` after editing firmware/config.py). PINS.md and
diagram.json are also parsed on their own and checked against config.py, so a generator
bug cannot hide behind a matching regeneration.
"""

import json
import re
import xml.etree.ElementTree as ET

import pytest
import wiring

from conftest import FIRMWARE, ROOT

HW = ROOT / "hardware"
RADIO = {23, 24, 25, 29}
# Physical pin of each GPIO, written out by hand (Raspberry Pi Pico datasheet pinout).
PHYS = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16,
        13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29,
        26: 31, 27: 32, 28: 34}


@pytest.fixture(scope="module")
def cfg():
    return wiring.load_config(FIRMWARE / "config.py")


def buttons(cfg):
    return {n: g for n, g in cfg.BUTTONS.items() if g is not None}


def test_regenerated_files_match_committed(cfg, tmp_path):
    assert wiring.main(["--out", str(tmp_path)]) == 0
    for rel in ("PINS.md", "wiring.svg", "wokwi/diagram.json", "wokwi/wokwi.toml"):
        fresh = (tmp_path / rel).read_bytes()
        committed = (HW / rel).read_bytes()
        assert fresh == committed, "hardware/%s is stale: run `make hardware`" % rel


def test_generation_is_deterministic(cfg):
    assert wiring.outputs(cfg) == wiring.outputs(cfg)


def test_button_names_are_the_firmwares(cfg):
    from picoyacht.buttons import BUTTON_NAMES

    assert wiring.BUTTON_ORDER == BUTTON_NAMES
    assert set(cfg.BUTTONS) <= set(BUTTON_NAMES)


def test_config_pins_are_wireable(cfg):
    used = [cfg.SDA, cfg.SCL] + list(buttons(cfg).values())
    assert len(used) == len(set(used)), "a GPIO is used twice"
    assert not set(used) & RADIO
    assert set(used) <= set(PHYS)
    assert cfg.OLED_ADDR in (0x3C, 0x3D)
    # The config's own comments give the physical pin: keep them true too.
    src = (FIRMWARE / "config.py").read_text()
    for name, g in buttons(cfg).items():
        m = re.search(r'"%s":\s*%d,\s*#\s*pin (\d+)' % (name, g), src)
        assert m and int(m.group(1)) == PHYS[g], name


def test_pin_names_table():
    assert wiring.GPIO_PIN == PHYS
    assert wiring.GND_PINS == (3, 8, 13, 18, 23, 28, 38)
    assert wiring.PIN_NAMES[33] == "AGND"  # the Pico datasheet's pinout: the ADC's ground
    assert wiring.PIN_NAMES[36] == "3V3(OUT)" and wiring.PIN_NAMES[30] == "RUN"


def _table(md, heading):
    """Rows (lists of cells) of the first table after a '## heading...' line."""
    lines = md.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("## " + heading))
    rows = []
    for ln in lines[start + 1:]:
        if ln.startswith("## "):
            break
        if ln.startswith("|") and not ln.startswith("|---"):
            rows.append([c.strip() for c in ln.strip("|").split("|")])
    return rows[1:]  # without the header row


def test_pins_md_agrees_with_config(cfg):
    md = (HW / "PINS.md").read_text()
    full = {r[1].strip("`"): r for r in _table(md, "Buttons: full build")}
    assert set(full) == set(buttons(cfg))
    for name, g in buttons(cfg).items():
        row = full[name]
        assert row[2] == "GP%d" % g and int(row[3]) == PHYS[g], name
        assert int(re.search(r"pin (\d+)", row[4]).group(1)) in wiring.GND_PINS
    mini = {r[1].strip("`"): r for r in _table(md, "Buttons: minimal build")}
    assert set(mini) == {"up", "down", "ok", "menu"}
    for name, row in mini.items():
        assert row[2] == "GP%d" % cfg.BUTTONS[name]
    oled = {r[0]: r for r in _table(md, "Display")}
    assert oled["SDA"][3] == "GP%d" % cfg.SDA and int(oled["SDA"][2]) == PHYS[cfg.SDA]
    assert oled["SCL"][3] == "GP%d" % cfg.SCL and int(oled["SCL"][2]) == PHYS[cfg.SCL]
    assert int(oled["VCC"][2]) == 36
    assert int(oled["GND"][2]) in wiring.GND_PINS
    assert "address 0x%02X" % cfg.OLED_ADDR in md
    gpios = [int(x) for x in re.findall(r"\| GP(\d+) \|", "\n".join(
        "|".join(r) for r in _table(md, "Buttons: full build")))]
    assert len(gpios) == len(set(gpios))


def test_minimal_build_is_the_commented_line(cfg):
    src = (FIRMWARE / "config.py").read_text()
    line = next(ln for ln in src.splitlines() if re.match(r"\s*#\s*BUTTONS\s*=", ln))
    assert wiring.minimal_buttons(cfg) == eval(line.split("=", 1)[1])  # noqa: S307


def test_wokwi_diagram_agrees_with_config(cfg):
    doc = json.loads((HW / "wokwi" / "diagram.json").read_text())
    types = {p["id"]: p["type"] for p in doc["parts"]}
    assert types["pico"] == "wokwi-pi-pico"
    assert types["oled"] == "board-ssd1306"
    oled = next(p for p in doc["parts"] if p["id"] == "oled")
    assert int(oled["attrs"]["i2cAddress"], 16) == cfg.OLED_ADDR
    links = {}
    for a, b, _colour, _route in doc["connections"]:
        links.setdefault(a, set()).add(b)
        links.setdefault(b, set()).add(a)

    def pico_gpio(end):
        (pin,) = [x for x in links[end] if x.startswith("pico:")]
        m = re.fullmatch(r"pico:GP(\d+)", pin)
        return int(m.group(1)) if m else pin

    assert pico_gpio("oled:SDA") == cfg.SDA
    assert pico_gpio("oled:SCL") == cfg.SCL
    assert pico_gpio("oled:VCC") == "pico:3V3"
    assert re.fullmatch(r"pico:GND\.[1-8]", pico_gpio("oled:GND"))
    btns = {p["id"][4:]: p for p in doc["parts"] if p["type"] == "wokwi-pushbutton"}
    assert set(btns) == set(buttons(cfg))
    for name, g in buttons(cfg).items():
        ends = [e for e in links if e.startswith("btn_%s:" % name)]
        got = sorted(str(pico_gpio(e)) for e in ends)
        assert got[0] == str(g) and re.fullmatch(r"pico:GND\.[1-8]", got[1]), name
        # signal and ground on different contacts (1.x and 2.x), or the button is shorted
        assert sorted(e.split(":")[1][0] for e in ends) == ["1", "2"]
    gpios = [int(b[7:]) for a, b, _c, _r in doc["connections"] if b.startswith("pico:GP")]
    assert len(gpios) == len(set(gpios))
    assert not set(gpios) & RADIO


def test_wokwi_toml_boots_micropython():
    toml = (HW / "wokwi" / "wokwi.toml").read_text()
    assert re.search(r'^firmware = "[^"]+\.uf2"$', toml, re.M)
    assert re.search(r"^rfc2217ServerPort = \d+$", toml, re.M)


def test_svg_is_wellformed_and_shows_every_gpio(cfg):
    root = ET.parse(HW / "wiring.svg").getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    texts = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    for name, g in buttons(cfg).items():
        assert "GP%d" % g in texts
        assert wiring.LABEL[name] in texts
    for g in (cfg.SDA, cfg.SCL):
        assert "GP%d" % g in texts
    numbers = {t.text for t in root.iter("{http://www.w3.org/2000/svg}text")}
    assert {str(pin) for pin in range(1, 41)} <= numbers  # every header pin is numbered
    assert "0x%02X" % cfg.OLED_ADDR in texts


def _cfg_with(tmp_path, text):
    src = (FIRMWARE / "config.py").read_text() + "\n" + text + "\n"
    p = tmp_path / "config.py"
    p.write_text(src)
    return wiring.load_config(p)


@pytest.mark.parametrize("change, message", [
    ('BUTTONS = dict(BUTTONS, roll=13)', "used twice"),
    ('BUTTONS = dict(BUTTONS, roll=25)', "roll must be GP0-22, 26-28"),
    ('BUTTONS = dict(BUTTONS, roll=29)', "roll must be GP0-22, 26-28"),
    ("SDA = 6", "I2C0 cannot use"),
    ("OLED_ADDR = 0x78", "OLED_ADDR"),
    ('BUTTONS = dict(BUTTONS, menu=None)', "lacks menu"),
    ('BUTTONS = dict(BUTTONS, jump=3)', "unknown button"),
    ("POWER_HOLD = 13", "used twice"),
    ("POWER_HOLD = 24", "POWER_HOLD must be GP0-22, 26-28 or None"),
])
def test_bad_pin_maps_are_refused(tmp_path, change, message):
    with pytest.raises(wiring.ConfigError, match=message):
        wiring.check(_cfg_with(tmp_path, change))


def test_other_pin_maps_still_draw_every_connection(tmp_path):
    """A rewired build (OLED on I2C1 at GP26/27 on the right, a piezo) still generates."""
    cfg = _cfg_with(tmp_path, "I2C_ID = 1\nSDA = 26\nSCL = 27\nPIEZO = 22\nBATTERY_SENSE = True")
    out = wiring.outputs(cfg)
    ET.fromstring(out["wiring.svg"].split("\n", 1)[1])
    doc = json.loads(out["wokwi/diagram.json"])
    ends = {(a, b) for a, b, _c, _r in doc["connections"]}
    assert ("oled:SDA", "pico:GP26") in ends and ("oled:SCL", "pico:GP27") in ends
    assert any(b == "pico:GP22" for _a, b in ends)
    assert "Piezo" in out["PINS.md"] and "BATTERY_SENSE = True" in out["PINS.md"]


def test_check_mode(capsys):
    assert wiring.main(["--check"]) == 0
    assert "pin map OK" in capsys.readouterr().out


def test_missing_display_message_names_the_fix():
    """board_pico's console line for a silent display: the scan result and what to edit.
    machine is stubbed: only the pure formatter is exercised."""
    import sys
    import types

    stub = types.ModuleType("machine")
    stub.Pin = object
    sys.modules.setdefault("machine", stub)
    try:
        from picoyacht.board_pico import display_help
    finally:
        if sys.modules.get("machine") is stub:
            del sys.modules["machine"]
    cfg = types.SimpleNamespace(I2C_ID=0, SDA=4, SCL=5)
    assert "set OLED_ADDR = 0x3D" in display_help(0x3C, cfg, [0x3D])
    assert "scan found nothing" in display_help(0x3C, cfg, [])
    assert "swapped" in display_help(0x3C, cfg, [])
    assert "bus error" in display_help(0x3C, cfg, None)


def test_the_soft_power_latch_is_wired_where_config_says(tmp_path):
    """POWER_HOLD = 18 puts the latch's hold wire on GP18 (pin 24) in the table, the header
    map and the diagram. Breaks if any of them forgets it or puts it on another pin."""
    cfg = _cfg_with(tmp_path, "POWER_HOLD = 18")
    out = wiring.outputs(cfg)
    assert "- **Soft power**: GP18 (pin 24)" in out["PINS.md"]
    header = {r[2]: r[0] for r in _table(out["PINS.md"], "Every header pin")}
    header.update({r[3]: r[5] for r in _table(out["PINS.md"], "Every header pin")})
    assert header["24"] == wiring.LATCH_LABEL
    root = ET.fromstring(out["wiring.svg"].split("\n", 1)[1])
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "%s  GP18" % wiring.LATCH_LABEL in texts
    plain = wiring.outputs(wiring.load_config(FIRMWARE / "config.py"))
    assert "Soft power**: not fitted" in plain["PINS.md"]
    assert wiring.LATCH_LABEL not in plain["wiring.svg"]
