"""Diagnostics: facts from a half-working board never crash, and the screen is exactly the
text it should be (golden frame built here from the font, not from the screen code).

Runs under CPython with a tiny MONO_VLSB framebuffer, and once under the MicroPython unix
port with the real framebuf: both frames must be byte-identical."""

import pytest

from picoyacht import diag, font
from picoyacht.board import Board
from picoyacht.screens import Canvas

from conftest import run_micropython

ALL = (1 << 11) - 1
MIN4 = (1 << 7) | (1 << 8) | (1 << 9) | (1 << 10)


class FakeFB:
    """Just the FrameBuffer calls the screens use, on a 128x64 MONO_VLSB buffer."""

    def __init__(self, buf):
        self.buf = buf

    def pixel(self, x, y, c):
        if 0 <= x < 128 and 0 <= y < 64:
            i, bit = (y >> 3) * 128 + x, 1 << (y & 7)
            self.buf[i] = (self.buf[i] | bit) if c else (self.buf[i] & ~bit)

    def fill(self, c):
        for i in range(len(self.buf)):
            self.buf[i] = 0xFF if c else 0

    def fill_rect(self, x, y, w, h, c):
        for yy in range(y, y + h):
            for xx in range(x, x + w):
                self.pixel(xx, yy, c)

    def rect(self, x, y, w, h, c):
        for xx in range(x, x + w):
            self.pixel(xx, y, c)
            self.pixel(xx, y + h - 1, c)
        for yy in range(y, y + h):
            self.pixel(x, yy, c)
            self.pixel(x + w - 1, yy, c)


def canvas():
    buf = bytearray(1024)
    return Canvas(FakeFB(buf), buf), buf


# ---------------------------------------------------------------- boards
class Bus:
    def __init__(self, found=None):
        self.found = found
        self.scans = 0

    def scan(self):
        self.scans += 1
        if self.found is None:
            raise OSError(5)  # EIO: SDA/SCL swapped or shorted
        return self.found


class HalfBoard(Board):
    """read() and present; I2C that raises; no battery sense at all."""

    present = MIN4 | 0b1111

    def __init__(self):
        self.i2c = Bus()

    def read(self):
        return (1 << 0) | (1 << 9)  # hold 1 and A held


class FullBoard(Board):
    present = ALL

    def __init__(self):
        self.i2c = Bus([0x3C, 0x68])

    def read(self):
        return 1 << 10

    def battery_mv(self):
        return 4123


class NoBattery(FullBoard):
    def battery_mv(self):
        return None


class BrokenRead(FullBoard):
    def read(self):
        raise OSError(110)

    def battery_mv(self):
        raise ValueError("ADC")


# ---------------------------------------------------------------- collect
def test_board_defaults_are_na_and_raising_calls_error():
    f = diag.collect(HalfBoard(), 0, seed=None)
    assert f.buttons == 1 | 1 << 9 and f.present == MIN4 | 0b1111
    assert f.i2c == diag.ERR
    assert f.battery_mv == diag.NA
    assert f.seed == diag.NA
    f = diag.collect(Board(), 0, seed=5)
    assert (f.buttons, f.i2c, f.battery_mv, f.seed) == (diag.NA, diag.NA, diag.NA, 5)
    assert f.present == ALL
    f = diag.collect(BrokenRead(), 0, seed=1)
    assert f.buttons == diag.ERR and f.battery_mv == diag.ERR and f.i2c == [0x3C, 0x68]
    assert diag.collect(NoBattery(), 0).battery_mv == diag.NA
    assert diag.collect(Board(), 0, buttons=0b101).buttons == 0b101  # e.g. the debouncer's
    assert diag.collect(Board(), 0).sampling == diag.NA
    soft = FullBoard()
    soft.sampling = "soft Timer"  # board_pico says which sampling really runs
    assert diag.collect(soft, 0).sampling == "soft Timer"


def test_slow_facts_once_a_second_and_in_place():
    b = FullBoard()
    f = diag.collect(b, 1000, seed=42)
    assert (f.i2c, f.battery_mv, f.seed, b.i2c.scans) == ([0x3C, 0x68], 4123, 42, 1)
    again = diag.collect(b, 1500, seed=42, prev=f)
    assert again is f and b.i2c.scans == 1 and not f.changed
    b.read = lambda: 0
    diag.collect(b, 1600, seed=42, prev=f)
    assert f.changed and f.buttons == 0 and b.i2c.scans == 1
    diag.collect(b, 2000, seed=42, prev=f)
    assert b.i2c.scans == 2
    # ticks_ms wraps at 2**30 on the rp2 port
    diag.collect(b, 0x3FFFFF00, prev=f)
    diag.collect(b, 0x100, prev=f)
    assert b.i2c.scans == 3
    diag.collect(b, 0x3FFFFF00 + 2000 - (1 << 30), prev=f)
    assert b.i2c.scans == 4


def test_versions_and_formats():
    assert diag.volts(4123) == "4.12 V" and diag.volts(3005) == "3.01 V"
    assert diag.volts(999) == "1.00 V"
    assert diag.i2c_text([]) == "none found"
    assert diag.i2c_text([0x3C]) == "3C"
    assert diag.i2c_text([1, 2, 3, 4, 5, 6]) == "01 02 03 04 +2"
    ver, mpy = diag.versions()  # CPython has no _mpy
    assert mpy == diag.NA and ver.count(".") == 2


# ---------------------------------------------------------------- the screen
def golden(lines, keys="", keys_text=None, header="Diagnostics", hint="hold Menu",
           sampling="n/a"):
    """The expected frame, drawn straight from font.GLYPHS: one text line per 8-pixel page."""
    buf = bytearray(1024)

    def put(s, x, page, inverse=False):
        for ch in s:
            for i in range(5):
                if 0 <= x + i < 128:
                    b = font.GLYPHS[ord(ch) * 5 + i]
                    j = page * 128 + x + i
                    buf[j] = buf[j] & ~b if inverse else buf[j] | b
            x += 6

    for x in range(128):
        buf[x] = 0xFF
    put(header, 1, 0, True)
    put(hint, 128 - 6 * len(hint) + 1, 0, True)
    put("Keys", 1, 1)
    if keys_text is not None:
        put(keys_text, 29, 1)
    else:
        for i, state in enumerate(keys):  # "." not fitted, "#" held, else fitted
            x = 29 + 8 * i
            if state == ".":
                put(chr(font.DOT), x, 1)
            elif state == "#":
                for xx in range(x - 1, x + 6):
                    buf[128 + xx] = 0xFF
                put(diag.KEY_LABELS[i], x, 1, True)
            else:
                put(diag.KEY_LABELS[i], x, 1)
    for page, s in enumerate(lines, start=2):
        put(s, 1, page)
    put(sampling[:4], 129 - 6 * len(sampling[:4]), 6)  # the seed's row, right-aligned
    return bytes(buf)


def fixed(board, seed):
    f = diag.collect(board, 0, seed=seed)
    f.heap, f.version, f.mpy = 183424, "1.29.0", "6.3 armv6m"
    return f


def test_screen_half_board():
    cv, buf = canvas()
    diag.draw(cv, fixed(HalfBoard(), None))
    want = golden(["I2C error", "Free heap 183424", "MicroPython 1.29.0", ".mpy 6.3 armv6m",
                   "Seed n/a", "Battery n/a"], keys="#bbb...bb#b")
    assert bytes(buf) == want


def test_screen_full_board():
    board = FullBoard()
    board.sampling = "hard Timer"
    cv, buf = canvas()
    diag.draw(cv, fixed(board, 123456789))
    want = golden(["I2C 3C 68", "Free heap 183424", "MicroPython 1.29.0", ".mpy 6.3 armv6m",
                   "Seed 123456789", "Battery 4.12 V"], keys="bbbbbbbbbb#", sampling="hard")
    assert bytes(buf) == want
    assert bytes(buf) != golden(["I2C 3C 68", "Free heap 183424", "MicroPython 1.29.0",
                                 ".mpy 6.3 armv6m", "Seed 123456789", "Battery 4.12 V"],
                                keys="bbbbbbbbbb#", sampling="soft")


def test_screen_broken_board_and_golden_can_fail():
    cv, buf = canvas()
    diag.draw(cv, fixed(BrokenRead(), 7))
    want = golden(["I2C 3C 68", "Free heap 183424", "MicroPython 1.29.0", ".mpy 6.3 armv6m",
                   "Seed 7", "Battery error"], keys_text="error")
    assert bytes(buf) == want
    assert bytes(buf) != golden(["I2C 3C 68", "Free heap 183424", "MicroPython 1.29.0",
                                 ".mpy 6.3 armv6m", "Seed 8", "Battery error"], keys_text="error")


def test_screen_shows_the_frozen_build_instead_of_mpy(monkeypatch):
    monkeypatch.setattr(diag, "build", lambda: "v1.2-14-g268b45a-dirty")
    assert diag.collect(FullBoard(), 0).build == "v1.2-14-g268b45a-dirty"
    cv, buf = canvas()
    diag.draw(cv, fixed(FullBoard(), 5))
    # "Build " leaves 15 columns: a long describe is cut, never wrapped over the next row.
    want = golden(["I2C 3C 68", "Free heap 183424", "MicroPython 1.29.0",
                   "Build v1.2-14-g268b45", "Seed 5", "Battery 4.12 V"], keys="bbbbbbbbbb#")
    assert bytes(buf) == want


def test_no_frozen_build_off_the_uf2():
    assert diag.build() == diag.NA  # no picoyacht/version.py outside `make uf2`


MP_SCRIPT = r"""
import binascii, framebuf
from picoyacht import diag
from picoyacht.board import Board
from picoyacht.screens import Canvas

class Bus:
    def __init__(self, found):
        self.found = found
    def scan(self):
        if self.found is None:
            raise OSError(5)
        return self.found

class HalfBoard(Board):
    present = (1 << 7) | (1 << 8) | (1 << 9) | (1 << 10) | 0b1111
    i2c = Bus(None)
    def read(self):
        return (1 << 0) | (1 << 9)

class FullBoard(Board):
    present = (1 << 11) - 1
    def read(self):
        return 1 << 10
    i2c = Bus([0x3C, 0x68])
    def battery_mv(self):
        return 4123

for board, seed in ((HalfBoard(), None), (FullBoard(), 123456789)):
    f = diag.collect(board, 0, seed=seed)
    print("REAL|%s|%s|%s|%s|%s" % (f.heap, f.version, f.mpy, f.i2c, f.battery_mv))
    f.heap, f.version, f.mpy = 183424, "1.29.0", "6.3 armv6m"
    buf = bytearray(1024)
    cv = Canvas(framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB), buf)
    diag.draw(cv, f)
    print("FRAME", binascii.hexlify(buf).decode())
"""


def test_micropython_same_frames_and_real_facts():
    r = run_micropython(MP_SCRIPT, heap="128k")
    assert r.returncode == 0, r.stderr
    frames = [ln.split()[1] for ln in r.stdout.splitlines() if ln.startswith("FRAME")]
    real = [ln.split("|") for ln in r.stdout.splitlines() if ln.startswith("REAL")]
    cpy = []
    for board, seed in ((HalfBoard(), None), (FullBoard(), 123456789)):
        cv, buf = canvas()
        diag.draw(cv, fixed(board, seed))
        cpy.append(bytes(buf).hex())
    assert frames == cpy
    for _, heap, version, mpy, _i2c, _mv in real:
        assert int(heap) > 0 and version.count(".") == 2
        assert int(mpy.split(".")[0]) >= 6
    assert real[0][4:] == ["error", "n/a"] and real[1][4:] == ["[60, 104]", "4123"]


def test_interpreter_facts_can_be_pinned(monkeypatch):
    monkeypatch.setattr(diag, "heap_free", lambda: 1234)
    monkeypatch.setattr(diag, "versions", lambda: ("9.9.9", "6.3 x64"))
    f = diag.collect(Board(), 0)
    assert (f.heap, f.version, f.mpy) == (1234, "9.9.9", "6.3 x64")


@pytest.mark.parametrize("mv, text", [(0, "0.00 V"), (5000, "5.00 V"), (3694, "3.69 V")])
def test_volts_integer_only(mv, text):
    assert diag.volts(mv) == text


def test_diagnostics_out_of_ram_at_boot_is_a_note_not_a_crash(monkeypatch):
    """Menu held at power-on with too little heap for the diagnostics module: the app
    boots anyway and says why, instead of dying in its constructor."""
    import board_sim

    from picoyacht import app as A
    from picoyacht.buttons import B_MENU

    find = A.App.find

    def starved(self, name):
        if name == "diag":
            raise MemoryError("memory allocation failed")
        return find(self, name)

    monkeypatch.setattr(A.App, "find", starved)
    runner = A.Runner(board_sim.HeadlessBoard(boot_buttons=1 << B_MENU))
    assert runner.app.screen.NAME == "message"
    assert "MemoryError" in " ".join(runner.app.screen.lines)
