"""A builder's config.py can never stop the Pico booting, and every refusal says why.

The table holds bad config.py files (the hand-made cases that left a dead device or an
unusable title before the check existed) and the line the board must print for each. Each
file is booted through the real path on the MicroPython unix port: board_pico.load_config
on the file, the real PicoBoard on a stand-in machine, the real app (host_tests/mp/
config_boot.py); the note must be on the panel, read back off the framebuffer, and two
presses of OK (on the button the settled map wires) must reach the title and then New
game's setup. `make hardware` must refuse the same files with the same line. A few of them
also boot on the emulated Pico, in `make flash`'s layout.
"""

import re
import signal

import mpy_run
import pytest
import wiring

from picoyacht import config_check

from conftest import FIRMWARE, HOST_TESTS, RIGS, ROOT, compiled_firmware, emulated_pico

FULL_MAP = "up 13, down 14, ok 15, menu 16"
BUILT_IN = "using the built-in settings"
# (case, config.py's bytes, the line the board prints after "PicoYacht: ")
BAD = [
    ("buttons_list", b"BUTTONS = [6, 7, 8]\n",
     'config.py: BUTTONS must be a dict such as {"ok": 15}, using ' + FULL_MAP),
    ("sda_string", b"SDA = '4'\n", "config.py: SDA must be a pin number, using 4"),
    ("button_pin_40", b'BUTTONS = {"up": 13, "down": 14, "ok": 40, "menu": 16}\n',
     'config.py: BUTTONS ok must be GP0-22, 26-28, using ' + FULL_MAP),
    ("button_pin_minus_1", b'BUTTONS = {"up": 13, "down": 14, "ok": 15, "menu": -1}\n',
     'config.py: BUTTONS menu must be GP0-22, 26-28, using ' + FULL_MAP),
    ("i2c_id_2", b"I2C_ID = 2\n", "config.py: I2C_ID must be 0 or 1, using 0"),
    ("i2c1_pins_on_i2c0", b"SDA = 2; SCL = 3\n",
     "config.py: I2C0 cannot use SDA 2, SCL 3 (I2C1 can), using I2C0, SDA 4, SCL 5"),
    ("wdt_string", b"WDT_MS = '8000'\n",
     "config.py: WDT_MS must be 0 (off) or 1000-8388 ms, using 8000"),
    ("i2c_freq_float", b"I2C_FREQ = 4e5\n",
     "config.py: I2C_FREQ must be a whole number of Hz, 10000-1000000, using 400000"),
    ("sample_ms_0", b"SAMPLE_MS = 0\n",
     "config.py: SAMPLE_MS must be a whole number of ms, 1-20, using 2"),
    ("sample_ms_float", b"SAMPLE_MS = 2.5\n",
     "config.py: SAMPLE_MS must be a whole number of ms, 1-20, using 2"),
    ("bad_utf8", b"SDA = 4  # caf\xe9 \xff\n", "config.py is not UTF-8 text, " + BUILT_IN),
    ("sys_exit", b"import sys\nsys.exit()\n", "config.py stopped with SystemExit, " + BUILT_IN),
    ("buttons_empty", b"BUTTONS = {}\n",
     "config.py: BUTTONS is empty, using " + FULL_MAP),
    ("no_ok", b'BUTTONS = {"up": 13, "down": 14, "menu": 16}\n',
     "config.py: BUTTONS lacks ok, using " + FULL_MAP),
    ("upper_case_ok", b'BUTTONS = {"up": 13, "down": 14, "OK": 15, "menu": 16}\n',
     'config.py: BUTTONS has "OK": write "ok", using ' + FULL_MAP),
    ("two_on_one_pin", b'BUTTONS = {"up": 13, "down": 13, "ok": 15, "menu": 16}\n',
     "config.py: BUTTONS: GP13 used twice (up, down), using " + FULL_MAP),
    ("button_on_sda", b'BUTTONS = {"up": 13, "down": 4, "ok": 15, "menu": 16}\n',
     "config.py: BUTTONS: GP4 used twice (display SDA, down), using " + FULL_MAP),
    ("piezo_on_scl", b"PIEZO = 5\n",
     "config.py: PIEZO: GP5 used twice (display SCL, piezo), using None"),
    ("syntax_error", b"SDA = = 4\n", "config.py has a syntax error ("),
    ("keyboard_interrupt", b"raise KeyboardInterrupt\n",
     "config.py stopped with KeyboardInterrupt, " + BUILT_IN),
    ("memory_error", b"x = bytearray(1 << 40)\n", "config.py stopped with "),
    ("typo", b"SLEEP_MINS = 10\n", "config.py: SLEEP_MINS is not a setting (a typo?): ignored"),
]
# Files that never end: the watchdog resets the Pico, and the boot after sets the file
# aside. Both spend their time in time.sleep, which the unix port's stand-in clock counts.
HUNG = [
    ("sleeps_an_hour", b"import time\ntime.sleep(3600)\n"),
    ("loops_for_good", b"import time\nwhile True:\n    time.sleep(1)\n"),
]
UNFINISHED = "config.py did not finish in 8 s, " + BUILT_IN
BUSY = ("busy_loop", b"while True:\n    pass\n")  # only a real timer can stop this one
# Files that must boot without a word: a whole copy, a few changed lines, none at all.
GOOD = [
    ("whole_copy", (FIRMWARE / "config.py").read_bytes()),
    ("changed_lines", b"OLED_FLIP = True\nSLEEP_MIN = 0\nI2C_ID = 1\nSDA = 26\nSCL = 27\n"),
    ("minimal_build", b'BUTTONS = {"up": 13, "down": 14, "ok": 15, "menu": 16}\n'),
]


def write_cases(tmp_path, cases):
    paths = []
    for name, src in cases:
        p = tmp_path / (name + ".py")
        p.write_bytes(src)
        paths.append(str(p))
    return paths


def boots(paths):
    """{case: {"console": [...], "screen": name, "panel": [...], "after": [...]}} from one
    unix-port run of host_tests/mp/config_boot.py over the files."""
    out = mpy_run.compile_scripts(compiled_firmware(), (
        ROOT / "tools" / "sim" / "board_sim.py", RIGS / "fakefs.py", RIGS / "ui_play.py",
        RIGS / "stress_rig.py", RIGS / "stress_wdt.py",
        HOST_TESTS / "mp" / "panel_read.py", HOST_TESTS / "mp" / "config_boot.py"))
    r = mpy_run.run(mpy_run.call("config_boot", paths), [out], "512k", timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    got = {}
    case = None
    for line in r.stdout.splitlines():
        key, _, rest = line.partition(" ")
        if key == "CASE":
            case = got[rest.rsplit("/", 1)[-1][:-3]] = {"console": [], "panel": []}
        elif key == "PicoYacht:":
            case["console"].append(rest)
        elif key == "SCREEN":
            case["screen"] = rest
        elif key == "PANEL":
            case["panel"].append(rest)
        elif key == "AFTER":
            case["after"] = rest.split()
        elif key == "REBOOT":
            case["console"] = []
        elif key in ("RESETS", "ARMED"):
            case[key.lower()] = int(rest)
        elif key == "CRASH":
            case["crash"] = rest
    return got


@pytest.fixture(scope="module")
def booted(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("configs")
    return boots(write_cases(tmp, [c[:2] for c in BAD] + HUNG + GOOD))


def on_panel(panel, line):
    """The panel's note lines as one text (the screen wraps at spaces)."""
    return line in " ".join(s for s in panel[:5] if s)


@pytest.mark.parametrize("name, src, line", BAD + [h + (UNFINISHED,) for h in HUNG],
                         ids=[c[0] for c in BAD + HUNG])
def test_a_bad_config_boots_to_a_playable_title_saying_why(booted, name, src, line):
    b = booted[name]
    assert "crash" not in b, b
    # one watchdog reset for a file that never ends, none otherwise; never a watchdog
    # left running for the game's boot
    assert (b["resets"], b["armed"]) == (int(line == UNFINISHED), 0)
    assert [c for c in b["console"] if c.startswith("config.py")] and \
        b["console"][0].startswith(line), b["console"]
    assert b["screen"] == "message"
    assert on_panel(b["panel"], line), b["panel"]
    # the minimal map names OK and Menu A and B, as a 4-button build does
    assert b["panel"][5] == ("A" if line.endswith(FULL_MAP) else "OK") + ": continue"
    assert b["after"] == ["title", "setup"]


@pytest.mark.parametrize("name", [c[0] for c in GOOD])
def test_a_good_config_boots_straight_to_the_title(booted, name):
    b = booted[name]
    assert "crash" not in b, b
    assert not [c for c in b["console"] if "config" in c] and b["screen"] == "title"
    assert (b["resets"], b["armed"]) == (0, 0)
    assert b["after"][0] == "setup"


@pytest.mark.parametrize("name, src, line", BAD, ids=[c[0] for c in BAD])
def test_make_hardware_refuses_the_same_file_with_the_same_line(tmp_path, capsys, name, src,
                                                                line):
    (path,) = write_cases(tmp_path, [(name, src)])
    assert wiring.main(["--check", "--config", path]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err and err[0].startswith(line), err


@pytest.mark.parametrize("name, src", HUNG + [BUSY], ids=[c[0] for c in HUNG + [BUSY]])
@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="no interval timer here")
def test_make_hardware_stops_a_file_that_never_ends(tmp_path, capsys, monkeypatch, name,
                                                    src):
    """Stopped after RUN_LIMIT_S (a fraction of a second here) and refused with the line
    the Pico shows after its watchdog reset."""
    monkeypatch.setattr(wiring, "RUN_LIMIT_S", 0.2)
    (path,) = write_cases(tmp_path, [(name, src)])
    assert wiring.main(["--check", "--config", path]) == 1
    assert capsys.readouterr().err.splitlines() == [UNFINISHED]


@pytest.mark.parametrize("name, src", GOOD, ids=[c[0] for c in GOOD])
def test_make_hardware_takes_a_good_file(tmp_path, capsys, name, src):
    (path,) = write_cases(tmp_path, [(name, src)])
    assert wiring.main(["--check", "--config", path]) == 0


def test_the_built_in_settings_are_config_pys():
    """`make flash` puts config.py on the drive as the whole map: the package's own copy
    of its values is what a broken one falls back to, so they must stay equal."""
    ns = {}
    exec((FIRMWARE / "config.py").read_text(), ns)
    assert config_check.names(ns) == config_check.DEFAULTS
    assert config_check.settle(config_check.DEFAULTS, config_check.DEFAULTS)[1] == []


@pytest.mark.parametrize("value", [True, 1.0, "13", None, -1, 29, 30, 2 ** 40])
def test_a_pin_is_a_header_gpio_and_nothing_else(value):
    assert config_check.pin_problem(value)
    assert not [g for g in range(-5, 60) if g not in (23, 24, 25, 29) and 0 <= g <= 28
                and config_check.pin_problem(g)]


def test_settled_settings_always_settle_without_a_word():
    """Whatever the file held, what settle() returns passes settle() again."""
    for _, src, _ in BAD:
        ns = dict(config_check.DEFAULTS)
        ns["BUTTONS"] = dict(ns["BUTTONS"])
        try:
            exec(src.decode("utf-8", "replace"), ns)
        except BaseException:  # noqa: BLE001  (the file's own exit, as on the board)
            continue
        values, notes = config_check.settle(config_check.names(ns), config_check.DEFAULTS)
        assert config_check.settle(values, config_check.DEFAULTS)[1] == []


# ---------------------------------------------------------------- on the emulated Pico
EMULATED = ("sda_string", "buttons_empty", "sys_exit")


@pytest.fixture(scope="module")
def pico():
    import emulator as p

    return emulated_pico(p)


@pytest.mark.parametrize("name", EMULATED)
def test_a_bad_config_boots_on_the_emulated_pico(pico, name):
    """make flash's layout with the case's /config.py, powered on: the note on the panel,
    then OK (GP15, the fallback map's ok) leaves it for the title."""
    src = dict((n, s) for n, s, _ in BAD)[name]
    line = dict((n, ln) for n, _, ln in BAD)[name]
    r = pico.boot_main(4200, config=src, shotsAtMs=[2600], presses=[[2700, 15, 100]],
                       tables=False)
    assert "Traceback" not in r["out"], r["out"]
    assert "PicoYacht: " + line in r["out"], r["out"]
    shot = bytes.fromhex(r["shots"][0]["hex"])
    text = " ".join(panel_text(shot))
    assert re.sub(" +", " ", line) in text, text
    title = (HOST_TESTS / "golden" / "title.hex").read_text().strip()
    assert r["frame"] == title


def test_a_config_that_never_ends_is_set_aside_on_the_emulated_pico(pico):
    """`while True: pass` as /config.py on the real firmware, at the boot after the
    watchdog reset it: a power-on with the watchdog's scratch registers as that reset
    leaves them (the mark and the file's CRC; the emulator has no reset of its own, and
    emulating the 8 s busy loop before it takes far longer than a test may). The note is
    on the panel, nothing reset this boot, and OK leaves it for the title."""
    import binascii

    scratch = [config_check.RUNNING, binascii.crc32(BUSY[1]) & 0xFFFFFF, 0, 0, 0, 0, 0, 0]
    r = pico.boot_main(4200, config=BUSY[1], tables=False, scratch=scratch,
                       shotsAtMs=[2600], presses=[[2700, 15, 100]])
    assert "watchdog" not in r and "Traceback" not in r["out"], r["out"]
    assert "PicoYacht: " + UNFINISHED in r["out"], r["out"]
    text = " ".join(panel_text(bytes.fromhex(r["shots"][0]["hex"])))
    assert UNFINISHED in text, text
    assert r["frame"] == (HOST_TESTS / "golden" / "title.hex").read_text().strip()


def panel_text(buf):
    """The message lines of a frame."""
    from panel_read import panel_lines

    return [s for s in panel_lines(buf)[:5] if s]


def test_every_note_fits_the_five_lines_above_the_hint():
    """A bad value of every setting, and of every button, and each pin clash: the board's
    line wraps to at most five lines of the boot screen (menus.Message's room)."""
    from picoyacht.buttons import BUTTON_NAMES
    from picoyacht.menus import wrap

    bad = ["x", 2.5, -1, 25, 10 ** 9, None, True]
    changes = [{k: b} for k in config_check.DEFAULTS if k != "BUTTONS" for b in bad]
    full = config_check.DEFAULTS["BUTTONS"]
    changes += [{"BUTTONS": dict(full, **{n: b})} for n in BUTTON_NAMES for b in bad + [4, 13]]
    changes += [{"BUTTONS": dict(full, hold6_x=3)}, {"I2C_ID": 1, "SDA": 14, "SCL": 15},
                {"SDA": 26, "SCL": 27}, {"SAVE_DIR": "/" + "x" * 40}]
    for change in changes:
        values = dict(config_check.DEFAULTS, **change)
        for note in config_check.settle(values, config_check.DEFAULTS)[1]:
            assert len(wrap(["config.py: " + note], 21)) <= 5, note
    for why in ("is not UTF-8 text", "stopped with KeyboardInterrupt", config_check.UNFINISHED,
                "has a syntax error (invalid syntax)", "cannot be read (MemoryError)"):
        assert len(wrap([config_check.set_aside(why)], 21)) <= 5, why


@pytest.fixture()
def board_pico():
    """picoyacht.board_pico on CPython, over a stand-in machine (only load_config runs)."""
    import importlib
    import sys
    import types

    stub = types.ModuleType("machine")
    stub.Pin = object
    had = sys.modules.get("machine")
    sys.modules["machine"] = stub
    try:
        sys.modules.pop("picoyacht.board_pico", None)
        sys.modules.pop("picoyacht.board_power", None)
        yield importlib.import_module("picoyacht.board_pico")
    finally:
        sys.modules.pop("picoyacht.board_pico", None)
        sys.modules.pop("picoyacht.board_power", None)
        if had is None:
            del sys.modules["machine"]
        else:
            sys.modules["machine"] = had


def test_a_bad_value_falls_back_to_the_frozen_config(board_pico, tmp_path, monkeypatch):
    """A `make uf2` firmware built from a rewired firmware/config.py: the drive file's bad
    value falls back to what was frozen in, not to the package's defaults; a bad frozen
    value falls back to those, said as the built-in config's."""
    import types

    frozen = types.ModuleType("config")
    frozen.__dict__.update(config_check.DEFAULTS, SDA=20, SCL=21, SAMPLE_MS=0)
    monkeypatch.setattr(board_pico, "_frozen_config", lambda: frozen)
    drive = tmp_path / "config.py"
    drive.write_text("SDA = '4'\nOLED_FLIP = True\n")
    cfg = board_pico.load_config(str(drive))
    assert (cfg.SDA, cfg.SCL, cfg.OLED_FLIP, cfg.SAMPLE_MS) == (20, 21, True, 2)
    assert cfg.notes == ["built-in config: SAMPLE_MS must be a whole number of ms, 1-20,"
                         " using 2", "config.py: SDA must be a pin number, using 20"]
    assert board_pico.load_config(str(tmp_path / "none.py")).notes == cfg.notes[:1]


def test_pins_that_clash_after_a_fall_back_take_every_built_in_pin():
    """The display moved onto I2C1's GP14/15 and a button map using GP14: the map falls
    back to the built-in up/down/ok/menu, which needs GP14 and GP15 too, so every pin
    goes back to the built-in ones (which never clash)."""
    values = dict(config_check.DEFAULTS, I2C_ID=1, SDA=14, SCL=15,
                  BUTTONS={"up": 13, "down": 14, "ok": 12, "menu": 16})
    got, notes = config_check.settle(values, config_check.DEFAULTS)
    assert notes[-1] == "pins still clash: using every built-in pin", notes
    for k in ("I2C_ID", "SDA", "SCL", "BUTTONS", "PIEZO", "POWER_HOLD"):
        assert got[k] == config_check.DEFAULTS[k], k


class WatchdogReset(BaseException):
    """The stand-in chip's reset: raised by a real interval timer, so `while True: pass`
    is stopped too."""


class Hang(BaseException):
    """Raised by the chip fixture's backstop."""


class StandInChip:
    """machine.mem32 and machine.WDT of an RP2040 for board_pico.load_config on CPython.
    The watchdog fires on SIGALRM after 1/100 of its timeout; a run it fired in writes
    nothing more (on the chip it is over, whatever catches the exception). Words read back
    as written until power_on()."""

    CTRL_CLEAR = 0x4005B000

    def __init__(self):
        self.words = {}
        self.dead = False
        self.armed = None  # the running watchdog's timeout

    def __setitem__(self, addr, value):
        if self.dead:
            return
        self.words[addr] = value
        if addr == self.CTRL_CLEAR and value & 1 << 30:
            signal.setitimer(signal.ITIMER_REAL, 0)
            self.armed = None

    def __getitem__(self, addr):
        return self.words.get(addr, 0)

    def WDT(self, timeout):  # noqa: N802  (machine's name)
        self.armed = timeout
        signal.signal(signal.SIGALRM, self._fire)
        signal.setitimer(signal.ITIMER_REAL, timeout / 100000)

    def _fire(self, _signum, _frame):
        self.dead = True
        raise WatchdogReset

    def backstop(self, _signum, _frame):
        raise Hang  # no watchdog stopped the file: the test fails instead of hanging

    def reset(self):
        """The chip comes back up: the scratch registers keep what the last run wrote."""
        self.dead = False
        self.armed = None

    def power_on(self):
        self.reset()
        self.words = {}


@pytest.fixture()
def chip(board_pico, monkeypatch):
    import sys

    c = StandInChip()
    machine = sys.modules["machine"]
    monkeypatch.setattr(machine, "mem32", c, raising=False)
    monkeypatch.setattr(machine, "WDT", c.WDT, raising=False)
    monkeypatch.setattr(board_pico, "_chip", lambda: "Raspberry Pi Pico with RP2040")
    monkeypatch.setattr(board_pico, "_frozen_config", lambda: None)  # `make flash`'s layout
    old = signal.signal(signal.SIGVTALRM, c.backstop)
    signal.setitimer(signal.ITIMER_VIRTUAL, 20)  # CPU seconds: no test loops for good
    yield c
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.setitimer(signal.ITIMER_VIRTUAL, 0)
    signal.signal(signal.SIGVTALRM, old)


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="no interval timer here")
def test_a_config_that_never_ends_is_set_aside_after_the_watchdog_reset(board_pico, chip,
                                                                          tmp_path):
    """`while True: pass` as /config.py: the watchdog resets the boot that runs it; every
    boot after sets it aside without running it, until the file changes or the power goes
    (the record is in the watchdog's scratch registers). No boot leaves a watchdog on."""
    drive = tmp_path / "config.py"
    drive.write_bytes(BUSY[1])

    def boot():
        cfg = board_pico.load_config(str(drive))
        return cfg, chip.dead

    _, reset = boot()
    assert reset and chip.armed == 8000  # the guard's watchdog ended that boot
    for _ in range(2):
        chip.reset()
        cfg, reset = boot()
        assert not reset and chip.armed is None
        assert cfg.notes == [UNFINISHED]
    drive.write_bytes(b"OLED_FLIP = True\n")  # fixed: it runs again, and ends
    chip.reset()
    cfg, reset = boot()
    assert not reset and chip.armed is None and (cfg.notes, cfg.OLED_FLIP) == ([], True)
    drive.write_bytes(BUSY[1])
    chip.reset()
    assert boot()[1]  # broken again: one more reset
    chip.power_on()  # a power cycle forgets the record: it hangs once more, then not
    assert boot()[1]
    chip.reset()
    assert boot()[0].notes == [UNFINISHED]


@pytest.mark.parametrize("src", [b"raise KeyboardInterrupt\n", b"WDT_MS = 0\n", b""])
@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="no interval timer here")
def test_the_guard_leaves_no_watchdog_and_no_record(board_pico, chip, tmp_path, src):
    """Ctrl-C in the file (mpremote, Thonny), WDT_MS = 0 (the game's watchdog off) or an
    empty file: the guard's watchdog ran only while the file did."""
    drive = tmp_path / "config.py"
    drive.write_bytes(src)
    cfg = board_pico.load_config(str(drive))
    assert chip.armed is None and not chip.dead and chip[0x4005800C] == 0  # SCRATCH0
    assert chip.words[0x4005B000] == 1 << 30  # disarmed by the clear alias
    assert cfg.WDT_MS == (0 if src.startswith(b"WDT") else 8000)
    import sys

    assert "picoyacht.config_check" not in sys.modules  # nothing of it stays for the game
