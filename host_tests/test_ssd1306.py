"""SSD1306 driver: the exact bytes on the bus, dirty pages only, and surviving a dead bus.

The fake I2C here is an independent SSD1306 model: it parses the command stream
(addressing windows, horizontal mode) into its own 1024-byte RAM, so "the panel
shows the frame" is checked on what was sent, not on the driver's own state.
"""

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HOSTLIB = ROOT / "tools" / "hostlib"
MP_DIR = ROOT / "host_tests" / "mp"
if sys.implementation.name != "micropython" and str(HOSTLIB) not in sys.path:
    sys.path.insert(0, str(HOSTLIB))  # CPython has no framebuf; the device uses the real one

import framebuf  # noqa: E402

from picoyacht.ssd1306 import SSD1306_I2C  # noqa: E402

FULL_FRAME = 7 + 1 + 1024  # window command (ctrl + 6) and data (ctrl + 1024)
ONE_PAGE = 7 + 1 + 128
ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1,
        0xDA: 1, 0xDB: 1}  # fmt: skip


class Panel:
    """An SSD1306 on I2C, as far as this driver uses it. `fail` makes it stop answering;
    `power_cut()` also wipes its RAM and settings, like a brown-out."""

    def __init__(self, addr=0x3C):
        self.addr = addr
        self.log = []  # (addr, bytes) of every write that succeeded
        self.fail = False
        self.fail_after = None  # succeed this many more writes, then fail
        self.power_cut()

    def power_cut(self):
        self.ram = bytearray(1024)
        self.on = False
        self.contrast = 0x7F
        self.inverted = False
        self.seg_remap = self.com_remap = False
        self.pump = False
        self.horizontal = False
        self.c0, self.c1, self.p0, self.p1 = 0, 127, 0, 7
        self.col = self.page = 0
        self.pending = None

    def _command(self, b):
        if self.pending:
            cmd, args = self.pending
            args.append(b)
            if len(args) < ARGS[cmd]:
                return
            self.pending = None
            if cmd == 0x21:
                self.c0, self.c1 = args
                self.col = self.c0
            elif cmd == 0x22:
                self.p0, self.p1 = args
                self.page = self.p0
            elif cmd == 0x81:
                self.contrast = args[0]
            elif cmd == 0x8D:
                self.pump = args[0] == 0x14
            elif cmd == 0x20:
                self.horizontal = args[0] == 0
            return
        if b in ARGS:
            self.pending = (b, [])
        elif b in (0xAE, 0xAF):
            self.on = b == 0xAF
        elif b in (0xA6, 0xA7):
            self.inverted = b == 0xA7
        elif b in (0xA0, 0xA1):
            self.seg_remap = b == 0xA1
        elif b in (0xC0, 0xC8):
            self.com_remap = b == 0xC8

    def _data(self, b):
        assert self.horizontal, "data before horizontal addressing was set"
        self.ram[self.page * 128 + self.col] = b
        if self.col >= self.c1:
            self.col = self.c0
            self.page = self.p0 if self.page >= self.p1 else self.page + 1
        else:
            self.col += 1

    def _bus(self, addr, data):
        assert addr == self.addr
        if self.fail_after is not None:
            if self.fail_after == 0:
                self.fail = True
            self.fail_after -= 1
        if self.fail:
            raise OSError(5)  # EIO: no ACK
        self.log.append(bytes(data))
        ctrl = data[0]
        assert ctrl in (0x00, 0x40)
        for b in data[1:]:
            (self._data if ctrl == 0x40 else self._command)(b)

    def writeto(self, addr, buf, stop=True):
        self._bus(addr, bytes(buf))

    def writevto(self, addr, vecs, stop=True):
        assert isinstance(vecs, tuple)
        self._bus(addr, b"".join(bytes(v) for v in vecs))

    def sent(self):
        return sum(len(w) for w in self.log)


def make(**kw):
    panel = Panel(kw.pop("addr", 0x3C))
    d = SSD1306_I2C(128, 64, panel, addr=panel.addr, **kw)
    return d, panel


def flush_counting(d, panel):
    """(bytes_sent delta, writes) of one flush, checked against the panel's own log."""
    b0, w0 = d.bytes_sent, len(panel.log)
    assert d.flush()
    got = d.bytes_sent - b0
    assert got == sum(len(w) for w in panel.log[w0:])
    return got, len(panel.log) - w0


# --- init --------------------------------------------------------------------------


def test_init_sequence_then_blank_frame_then_display_on():
    d, panel = make()
    assert d.ok and d.errors == 0
    init, frame, on = panel.log
    assert init[:2] == b"\x00\xae"  # display off first
    for seq in (b"\xa8\x3f", b"\x8d\x14", b"\x20\x00", b"\xda\x12", b"\x81\xcf", b"\xd9\xf1",
                b"\x21\x00\x7f\x22\x00\x07"):  # fmt: skip
        assert seq in init
    assert frame == b"\x40" + bytes(1024)
    assert on == b"\x00\xaf"
    assert panel.on and panel.pump and panel.seg_remap and panel.com_remap
    assert d.bytes_sent == panel.sent() == len(init) + 1025 + 2


def test_external_vcc_and_second_address():
    d, panel = make(addr=0x3D, external_vcc=True)
    init = panel.log[0]
    assert b"\x8d\x10" in init and b"\xd9\x22" in init and not panel.pump
    assert d.ok


def test_only_128x64():
    with pytest.raises(ValueError):
        SSD1306_I2C(128, 32, Panel())


def test_dead_bus_at_boot_does_not_raise_and_recovers():
    panel = Panel()
    panel.fail = True
    d = SSD1306_I2C(128, 64, panel)
    assert not d.ok and d.errors == 1 and d.bytes_sent == 0
    d.text("hi", 0, 0)
    assert not d.flush() and d.errors == 2
    panel.fail = False
    assert d.flush() and d.ok
    assert panel.ram == d.buffer and panel.on


# --- dirty pages ----------------------------------------------------------------------


def test_one_page_change_sends_exactly_that_page():
    d, panel = make()
    d.fill_rect(10, 24, 30, 8, 1)  # rows 24..31: page 3 only
    n, writes = flush_counting(d, panel)
    assert (n, writes) == (ONE_PAGE, 2)
    assert panel.log[-2] == b"\x00\x21\x00\x7f\x22\x03\x03"
    assert panel.log[-1] == b"\x40" + bytes(d.buffer[384:512])
    assert panel.ram == d.buffer


def test_no_change_sends_nothing():
    d, panel = make()
    d.pixel(5, 5, 1)
    d.flush()
    assert flush_counting(d, panel) == (0, 0)
    d.pixel(5, 5, 1)  # drawn again, same pixels: still nothing to send
    assert flush_counting(d, panel) == (0, 0)


def test_change_and_undo_sends_nothing():
    d, panel = make()
    d.pixel(100, 60, 1)
    d.pixel(100, 60, 0)
    assert flush_counting(d, panel) == (0, 0)


def test_pages_sent_are_exactly_the_changed_ones():
    d, panel = make()
    for pages in ([0], [7], [0, 7], [2, 3, 4], list(range(7))):
        for p in pages:
            d.pixel(p * 9, p * 8 + 3, d.pixel(p * 9, p * 8 + 3) ^ 1)
        w0 = len(panel.log)
        n, writes = flush_counting(d, panel)
        assert n == ONE_PAGE * len(pages) and writes == 2 * len(pages)
        assert [w[5] for w in panel.log[w0::2]] == pages
        assert panel.ram == d.buffer


def test_all_pages_changed_goes_as_one_frame():
    d, panel = make()
    d.fill(1)
    assert flush_counting(d, panel) == (FULL_FRAME, 2)
    assert panel.ram == d.buffer


def test_show_and_mark_all_send_the_full_frame():
    d, panel = make()
    b0 = d.bytes_sent
    assert d.show()
    assert d.bytes_sent - b0 == FULL_FRAME
    d.mark_all()
    assert flush_counting(d, panel) == (FULL_FRAME, 2)
    assert flush_counting(d, panel) == (0, 0)


def test_random_drawing_always_lands_on_the_panel():
    import random

    rnd = random.Random(5)
    d, panel = make()
    for _ in range(60):
        for _ in range(rnd.randrange(4)):
            d.fill_rect(rnd.randrange(-10, 128), rnd.randrange(-10, 64), rnd.randrange(20),
                        rnd.randrange(20), rnd.randrange(2))  # fmt: skip
        before = bytes(panel.ram)
        n, _ = flush_counting(d, panel)
        changed = sum(before[p * 128 : p * 128 + 128] != d.buffer[p * 128 : p * 128 + 128]
                      for p in range(8))  # fmt: skip
        assert n == (FULL_FRAME if changed == 8 else changed * ONE_PAGE)
        assert panel.ram == d.buffer


# --- a display that stops answering ---------------------------------------------------


def test_bus_errors_are_caught_counted_and_recovered_with_init_and_full_frame():
    d, panel = make()
    d.text("score", 0, 0)
    assert d.flush()
    panel.fail = True
    d.fill_rect(0, 40, 128, 8, 1)
    b0 = d.bytes_sent
    assert d.flush() is False
    assert not d.ok and d.errors == 1 and d.bytes_sent == b0  # failed writes not counted
    for _ in range(3):  # retries while it is still gone
        d.pixel(3, 3, 0)
        assert d.flush() is False
    assert d.errors == 4
    panel.power_cut()  # it comes back blank, off, with default settings
    panel.fail = False
    w0 = len(panel.log)
    assert d.flush() is True and d.ok
    assert panel.log[w0][:2] == b"\x00\xae"  # the init sequence again
    assert panel.log[w0 + 1] == b"\x40" + bytes(d.buffer)  # then the whole frame
    assert panel.ram == d.buffer and panel.on
    assert flush_counting(d, panel) == (0, 0)


def test_error_in_the_middle_of_a_flush_resends_everything_later():
    d, panel = make()
    d.fill_rect(0, 0, 5, 5, 1)
    d.fill_rect(0, 60, 5, 4, 1)  # pages 0 and 7: four writes
    panel.fail_after = 2  # page 0 goes through, page 7's window fails
    assert d.flush() is False and d.errors == 1
    panel.fail_after = None
    panel.fail = False
    w0 = len(panel.log)
    assert d.flush()
    assert len(panel.log) - w0 == 3  # init, full frame, display on
    assert panel.ram == d.buffer


def test_settings_survive_a_reinit():
    d, panel = make()
    d.contrast(20)
    d.invert(True)
    d.rotate(True)
    d.sleep()
    panel.fail = True
    d.mark_all()
    assert d.flush() is False and not d.ok
    panel.power_cut()
    panel.fail = False
    assert d.flush()
    assert panel.contrast == 20 and panel.inverted
    assert not panel.seg_remap and not panel.com_remap
    assert not panel.on  # it was asleep: the re-init must not light it
    assert d.wake() and panel.on


# --- commands -------------------------------------------------------------------------


def test_contrast_sleep_wake_invert_rotate_bytes():
    d, panel = make()
    b0 = d.bytes_sent
    assert d.contrast(0x42)
    assert d.contrast(300) and d.contrast(-4)
    assert d.sleep() and d.wake() and d.invert(True) and d.invert(False)
    assert d.rotate(True)
    assert panel.log[-8:] == [b"\x00\x81\x42", b"\x00\x81\xff", b"\x00\x81\x00", b"\x00\xae",
                              b"\x00\xaf", b"\x00\xa7", b"\x00\xa6", b"\x00\xa0\xc0"]  # fmt: skip
    assert d.bytes_sent - b0 == 3 * 3 + 4 * 2 + 3
    # segment remap only affects later writes: rotating resends the whole frame
    assert flush_counting(d, panel) == (FULL_FRAME, 2)


def test_commands_on_a_dead_bus_return_false():
    d, panel = make()
    panel.fail = True
    assert d.contrast(10) is False and not d.ok and d.errors == 1
    assert d.sleep() is False and d.errors == 1  # known lost: no bus traffic attempted
    panel.fail = False
    assert d.flush() and panel.contrast == 10 and not panel.on


# --- framebuf: the host stand-in vs MicroPython's own ------------------------------------


def load(name):
    spec = importlib.util.spec_from_file_location(name, MP_DIR / (name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_hostlib_framebuf_matches_micropython_pixel_for_pixel(mp_run):
    chk = load("fb_check")
    assert chk.framebuf is framebuf and "hostlib" in framebuf.__file__
    ours = []
    chk.draw_steps(lambda tag, buf: ours.append("FB %d %s" % (tag, bytes(buf).hex())))
    proc = mp_run(MP_DIR / "fb_check.py")
    assert proc.returncode == 0, proc.stderr + proc.stdout
    lines = proc.stdout.strip().splitlines()
    theirs = [ln for ln in lines if ln.startswith("FB ")]
    assert len(theirs) == len(ours) == 100
    assert theirs == ours
    assert lines[-1] == "PIX None None 0"
    fb = framebuf.FrameBuffer(bytearray(8), 8, 8, framebuf.MONO_VLSB)
    assert (fb.pixel(8, 0), fb.pixel(-1, 3), fb.pixel(0, 0)) == (None, None, 0)


def test_hostlib_font_has_95_distinct_glyphs():
    seen = set()
    for code in range(33, 127):
        buf = bytearray(8)
        framebuf.FrameBuffer(buf, 8, 8, framebuf.MONO_VLSB).text(chr(code), 0, 0)
        assert any(buf), chr(code)
        assert buf[0] == 0 and buf[6] == 0 and buf[7] == 0  # glyphs sit in columns 1..5
        seen.add(bytes(buf))
    assert len(seen) == 94
    blank = bytearray(8)
    framebuf.FrameBuffer(blank, 8, 8, framebuf.MONO_VLSB).text(" ", 0, 0)
    assert not any(blank)


def test_hostlib_framebuf_rejects_other_formats():
    with pytest.raises(ValueError):
        framebuf.FrameBuffer(bytearray(64), 8, 8, 1)


# --- MicroPython: the real framebuf, no allocation per flush -----------------------------


def test_micropython_flush_bytes_and_zero_allocation(mp_run):
    proc = mp_run(MP_DIR / "ssd1306_check.py")
    assert proc.returncode == 0, proc.stderr + proc.stdout
    got = dict(line.split(" ", 1) for line in proc.stdout.strip().splitlines())
    assert int(got["BYTES_ONE_PAGE"]) == ONE_PAGE
    assert int(got["BYTES_TWO_PAGES"]) == 2 * ONE_PAGE
    assert int(got["BYTES_NO_CHANGE"]) == 0
    assert int(got["BYTES_SHOW"]) == FULL_FRAME
    for what in ("ONE_PAGE", "TWO_PAGES", "NO_CHANGE", "SHOW"):
        assert int(got["ALLOC_" + what]) == 0, what
    assert int(got["SENT_ONE_PAGE"]) == 300 * ONE_PAGE  # every measured flush sent a page
    assert int(got["SENT_TWO_PAGES"]) > 0 and int(got["SENT_NO_CHANGE"]) == 0
    assert int(got["SENT_SHOW"]) == 300 * FULL_FRAME
    assert got["OK"] == "True 0 True"
    d, _ = make()
    assert got["INIT"] == "%d %d" % (d.bytes_sent, d.bytes_sent)  # same init on both
