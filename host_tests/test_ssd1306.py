"""SSD1306 driver: the exact bytes on the bus, changed column spans only, merged windows,
and surviving a dead bus.

The fake I2C here is an independent SSD1306 model: it parses the command stream
(addressing windows, the address pointer, horizontal mode) into its own 1024-byte RAM, so
"the panel shows the frame" is checked on what was sent, not on the driver's own state.
The planner is checked against a brute force over every way of cutting the 8 pages into
windows, with the same bus-byte prices.

A twin module: tests marked micropython run on CPython (tools/hostlib's framebuf) and on
the MicroPython unix port (its real framebuf), see host_tests/mp/README.md.
"""

import framebuf  # CPython: tools/hostlib's stand-in (conftest puts it on the path)
import pytest

from picoyacht.roller import Roller
from picoyacht.ssd1306 import SSD1306_I2C

from allocs import allocated

MICROPYTHON_HEAP = "2M"  # the framebuffer comparison returns 100 frames at once

WINDOW = 7  # ctrl 0x21 c0 c1 0x22 p0 p1
FULL_FRAME = WINDOW + 1 + 1024  # show(): window command and data (ctrl + 1024)
FULL_WIRE = FULL_FRAME + 2  # plus an address byte per write
ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1,
        0xDA: 1, 0xDB: 1}  # fmt: skip


class Panel:
    """An SSD1306 on I2C, as far as this driver uses it. `fail` makes it stop answering;
    `power_cut()` also wipes its RAM and settings, like a brown-out."""

    def __init__(self, addr=0x3C):
        self.addr = addr
        self.log = []  # bytes of every write that succeeded (address byte not included)
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
                assert args[0] <= args[1] <= 127, "bad column window %r" % args
                self.c0, self.c1 = args
                self.col = self.c0  # the page pointer stays where it is
            elif cmd == 0x22:
                assert args[0] <= args[1] <= 7, "bad page window %r" % args
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
        assert isinstance(vecs, (tuple, list))  # what machine.I2C.writevto accepts
        self._bus(addr, b"".join(bytes(v) for v in vecs))

    def sent(self):
        return sum(len(w) for w in self.log)

    def wire(self, since=0):
        """Bytes on the wire for the writes since log index `since` (address included)."""
        return sum(len(w) + 1 for w in self.log[since:])


def make(**kw):
    panel = Panel(kw.pop("addr", 0x3C))
    d = SSD1306_I2C(128, 64, panel, addr=panel.addr, **kw)
    return d, panel


def flush_counting(d, panel):
    """(bytes_sent delta, writes) of one flush, checked against the panel's own log, and
    the panel's RAM checked against the framebuffer."""
    b0, w0, n0 = d.bytes_sent, len(panel.log), d.writes
    assert d.flush()
    got = d.bytes_sent - b0
    assert got == sum(len(w) for w in panel.log[w0:])
    assert d.writes - n0 == len(panel.log) - w0
    assert panel.ram == d.buffer
    return got, len(panel.log) - w0


def spans(before, after):
    """(lo, hi) of the changed columns per page, None for an unchanged page."""
    out = []
    for p in range(8):
        cols = [x for x in range(128) if before[p * 128 + x] != after[p * 128 + x]]
        out.append((cols[0], cols[-1]) if cols else None)
    return out


def brute_force_wire(sp):
    """The cheapest wire bytes for these spans over every way of cutting pages 0..7 into
    consecutive groups; a group sends one window (address, control, 6 command bytes)
    over its first to last changed page, then either one full-width write of all its
    pages or one write per page of the union span (address, control, the columns)."""
    best = None
    for cuts in range(128):  # bit p: a group ends after page p
        total, group = 0, []
        for p in range(8):
            group.append(p)
            if p == 7 or cuts >> p & 1:
                dirty = [q for q in group if sp[q] is not None]
                if dirty:
                    total += group_wire(sp, dirty[0], dirty[-1])
                group = []
        best = total if best is None else min(best, total)
    return best


# --- init --------------------------------------------------------------------------


@pytest.mark.micropython
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
    assert d.writes == 3


@pytest.mark.micropython
def test_external_vcc_and_second_address():
    d, panel = make(addr=0x3D, external_vcc=True)
    init = panel.log[0]
    assert b"\x8d\x10" in init and b"\xd9\x22" in init and not panel.pump
    assert d.ok


@pytest.mark.micropython
def test_only_128x64():
    with pytest.raises(ValueError):
        SSD1306_I2C(128, 32, Panel())


@pytest.mark.micropython
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


# --- changed spans and windows -------------------------------------------------------


@pytest.mark.micropython
def test_one_span_sends_exactly_those_columns():
    d, panel = make()
    d.fill_rect(10, 24, 30, 8, 1)  # rows 24..31, columns 10..39: page 3 only
    assert flush_counting(d, panel) == (WINDOW + 1 + 30, 2)
    assert panel.log[-2] == b"\x00\x21\x0a\x27\x22\x03\x03"
    assert panel.log[-1] == b"\x40" + bytes(d.buffer[384 + 10 : 384 + 40])


@pytest.mark.micropython
@pytest.mark.parametrize("w", [1, 7, 8, 9, 15, 16, 17, 63, 64, 100, 127, 128])
def test_every_width_goes_out_exact(w):
    """w = 8q + r columns travel as scratch views A[:r] and B[:8q]: every split."""
    d, panel = make()
    x0 = 128 - w if w > 64 else 5
    for x in range(x0, x0 + w):
        d.pixel(x, 44, 1)  # page 5
    n, writes = flush_counting(d, panel)
    assert (n, writes) == ((WINDOW + 1 + w, 2) if w < 128 else (4 + 1 + 128, 2))
    assert panel.log[-1] == b"\x40" + bytes(d.buffer[640 + x0 : 640 + x0 + w])


@pytest.mark.micropython
def test_same_window_again_costs_no_command_and_halves_cost_one():
    d, panel = make()
    d.fill_rect(20, 8, 10, 3, 1)  # page 1, columns 20..29
    assert flush_counting(d, panel) == (WINDOW + 11, 2)
    d.fill_rect(20, 8, 10, 3, 0)  # the same columns change back: the window is still set
    assert flush_counting(d, panel) == (11, 1)
    d.fill_rect(20, 16, 10, 3, 1)  # same columns, page 2: the page command only
    assert flush_counting(d, panel) == (4 + 11, 2)
    assert panel.log[-2] == b"\x00\x22\x02\x02"
    d.fill_rect(40, 16, 10, 3, 1)  # page 2 again, other columns: the column command only
    assert flush_counting(d, panel) == (4 + 11, 2)
    assert panel.log[-2] == b"\x00\x21\x28\x31"


@pytest.mark.micropython
def test_no_change_sends_nothing():
    d, panel = make()
    d.pixel(5, 5, 1)
    d.flush()
    assert flush_counting(d, panel) == (0, 0)
    d.pixel(5, 5, 1)  # drawn again, same pixels: still nothing to send
    assert flush_counting(d, panel) == (0, 0)


@pytest.mark.micropython
def test_change_and_undo_sends_nothing():
    d, panel = make()
    d.pixel(100, 60, 1)
    d.pixel(100, 60, 0)
    assert flush_counting(d, panel) == (0, 0)


@pytest.mark.micropython
def test_adjacent_pages_share_a_window():
    d, panel = make()
    d.fill_rect(30, 12, 40, 8, 1)  # rows 12..19: pages 1 and 2, columns 30..69
    w0 = len(panel.log)
    assert flush_counting(d, panel) == (WINDOW + 2 * 41, 3)
    assert panel.log[w0] == b"\x00\x21\x1e\x45\x22\x01\x02"
    assert panel.log[w0 + 1] == b"\x40" + bytes(d.buffer[128 + 30 : 128 + 70])
    assert panel.log[w0 + 2] == b"\x40" + bytes(d.buffer[256 + 30 : 256 + 70])


@pytest.mark.micropython
def test_far_apart_spans_get_their_own_windows():
    d, panel = make()
    d.fill_rect(0, 0, 4, 4, 1)  # page 0, columns 0..3
    d.fill_rect(120, 8, 4, 4, 1)  # page 1, columns 120..123: a shared window would be 124 wide
    assert flush_counting(d, panel) == (2 * (WINDOW + 5), 4)


@pytest.mark.micropython
def test_columns_far_apart_on_the_same_pages_get_windows_of_their_own():
    """A roll's new faces: pips in columns 3..13 of five dice 25 columns apart, pages 2
    and 3. Each die goes in its own column window, the pages kept; the 14 columns between
    them are not sent. A gap pays for a window when its columns outweigh the window's
    command, two more writes' address and control bytes and their time (5 bytes each)."""
    d, panel = make()
    for x in (8, 33, 58, 83, 108):
        d.fill_rect(x, 20, 11, 11, 1)  # rows 20..30: pages 2 and 3, 11 columns
    w0 = len(panel.log)
    assert flush_counting(d, panel) == (WINDOW + 4 * 4 + 5 * 2 * 12, 5 + 5 * 2)
    assert panel.log[w0] == b"\x00\x21\x08\x12\x22\x02\x03"
    assert panel.log[w0 + 3] == b"\x00\x21\x21\x2b"  # columns 33..43, same pages
    d, panel = make()
    for x, w in ((8, 11), (31, 4), (48, 11)):  # gaps of 12 columns and of 13
        d.fill_rect(x, 20, w, 11, 1)
    w0 = len(panel.log)  # two pages: a split pays from 13 columns on
    assert flush_counting(d, panel) == (WINDOW + 2 * 28 + 4 + 2 * 12, 6)
    assert panel.log[w0 + 3] == b"\x00\x21\x30\x3a"


@pytest.mark.micropython
def test_full_width_pages_go_in_one_write():
    d, panel = make()
    d.fill_rect(0, 16, 128, 24, 1)  # pages 2, 3 and 4, every column
    w0 = len(panel.log)
    assert flush_counting(d, panel) == (4 + 1 + 3 * 128, 2)  # columns already 0..127
    assert panel.log[w0] == b"\x00\x22\x02\x04"
    assert panel.log[w0 + 1] == b"\x40" + bytes(d.buffer[256:640])


class OneBufferPanel(Panel):
    """A panel on a bus like the rp2 port's, where writevto copies its buffers into one
    heap block of their total length: the largest such copy is recorded."""

    def __init__(self, addr=0x3C):
        super().__init__(addr)
        self.joined = 0

    def writevto(self, addr, vecs, stop=True):
        self.joined = max(self.joined, sum(len(v) for v in vecs if len(v)))
        super().writevto(addr, vecs, stop)


@pytest.mark.micropython
def test_full_width_writes_are_one_buffer_and_the_borrowed_byte_comes_back():
    """A full-width window goes out as one buffer (a writevto of a full frame needs 1,025
    contiguous bytes of heap on the Pico); the framebuffer byte it borrows for the control
    byte is restored, also when the bus fails mid-write."""
    panel = OneBufferPanel()
    d = SSD1306_I2C(128, 64, panel, addr=panel.addr)
    assert panel.ram == d.buffer
    for p0 in range(1, 8):
        d.fill(0)
        d.pixel(127, 8 * p0 - 1, 1)  # the last byte of page p0 - 1: the borrowed one
        d.flush()
        d.fill_rect(0, 8 * p0, 128, 8, 1)  # page p0, every column
        before = bytes(d.buffer)
        flush_counting(d, panel)
        assert bytes(d.buffer) == before and d.buffer[p0 * 128 - 1] == 0x80
    d.mark_all()
    flush_counting(d, panel)  # the whole frame
    assert panel.joined <= 1 + 128, panel.joined  # only a narrow window's page is joined
    d.fill_rect(0, 24, 128, 16, 1)  # pages 3 and 4; the borrowed byte ends page 2
    d.pixel(127, 23, 1)
    before = bytes(d.buffer)
    panel.fail_after = 1  # the window command goes, the data write fails
    assert not d.flush()
    assert bytes(d.buffer) == before


@pytest.mark.micropython
def test_all_pages_changed_goes_as_one_frame():
    d, panel = make()
    d.fill(1)
    assert flush_counting(d, panel) == (1 + 1024, 1)  # the init left the window on the frame


@pytest.mark.micropython
def test_show_and_mark_all_send_the_full_frame_with_its_window():
    d, panel = make()
    b0 = d.bytes_sent
    assert d.show()
    assert d.bytes_sent - b0 == FULL_FRAME
    d.mark_all()
    assert flush_counting(d, panel) == (FULL_FRAME, 2)
    assert panel.log[-2] == b"\x00\x21\x00\x7f\x22\x00\x07"
    assert flush_counting(d, panel) == (0, 0)


class Rnd:
    """randrange() over the project's Roller: the same scenes on both interpreters."""

    def __init__(self, seed):
        self.r = Roller(seed)

    def randrange(self, a, b=None):
        lo, hi = (0, a) if b is None else (a, b)
        return lo + ((self.r.rand15() << 15) | self.r.rand15()) % (hi - lo)


def _random_scene(rnd, d):
    for _ in range(rnd.randrange(5)):
        kind = rnd.randrange(4)
        c = rnd.randrange(2)
        if kind == 0:
            d.fill_rect(rnd.randrange(-10, 128), rnd.randrange(-10, 64), rnd.randrange(20),
                        rnd.randrange(20), c)  # fmt: skip
        elif kind == 1:
            d.pixel(rnd.randrange(128), rnd.randrange(64), c)
        elif kind == 2:
            d.text("%d" % rnd.randrange(1000), rnd.randrange(-8, 128), rnd.randrange(-8, 64), c)
        else:
            d.hline(rnd.randrange(-20, 128), rnd.randrange(64), rnd.randrange(140), c)


def planned_groups(d):
    """The driver's last plan: (first page, last page) of each window group."""
    out = []
    i = 8
    while i > 0:
        j = d._from[i]
        if j == 255:
            i -= 1
            continue
        out.append((j, i - 1))
        i = j
    return out


def union_span(sp, p0, p1):
    """(lo, hi): the union of the changed spans of pages p0..p1."""
    dirty = [sp[q] for q in range(p0, p1 + 1) if sp[q] is not None]
    return min(s[0] for s in dirty), max(s[1] for s in dirty)


def group_wire(sp, p0, p1):
    """Wire bytes of one group of pages sent through one window, as the planner prices it."""
    a, b = union_span(sp, p0, p1)
    n = p1 - p0 + 1
    return 8 + min(n * (b - a + 3), 128 * n + 2)


def split_windows(sp, groups, before, after):
    """The windows (c0, c1, p0, p1) the groups go out in: full width when the planner
    prices it cheaper or the span is all 128 columns, else the group's union span split
    at every run of g columns unchanged on all its n pages with g * n > 10 + 7n: a column
    window (address, control, 0x21 c0 c1) and an address and control byte a page, plus
    5 bytes' worth of the Pico's time for each of those 1 + n writes, buy the columns."""
    out = []
    for p0, p1 in groups:
        a, b = union_span(sp, p0, p1)
        n = p1 - p0 + 1
        if 128 * n + 2 < n * (b - a + 3) or b - a == 127:
            out.append((0, 127, p0, p1))
            continue
        start = a
        run = 0
        for c in range(a, b + 1):
            if all(before[q * 128 + c] == after[q * 128 + c] for q in range(p0, p1 + 1)):
                run += 1
                continue
            if run * n > 10 + 7 * n:
                out.append((start, c - run - 1, p0, p1))
                start = c
            run = 0
        out.append((start, b, p0, p1))
    return out


def windows_wire(windows, known):
    """Wire bytes of these windows' commands and data: a window's command costs 8 bytes,
    5 when only its columns or only its pages differ from the controller's last (`known`,
    None when cold), 0 when it is the same; full width goes in one write."""
    total = 0
    for c0, c1, p0, p1 in windows:
        n = p1 - p0 + 1
        if known is None or (known[0:2] != (c0, c1) and known[2:4] != (p0, p1)):
            total += 8
        elif known != (c0, c1, p0, p1):
            total += 5
        known = (c0, c1, p0, p1)
        total += 128 * n + 2 if c1 - c0 == 127 else n * (c1 - c0 + 3)
    return total


@pytest.mark.micropython
@pytest.mark.parametrize("seed", range(4))
def test_random_drawing_lands_on_the_panel_at_the_brute_force_optimum(seed):
    """Cold window: the plan's page groups cost the cheapest single window each over every
    way of grouping pages, and the bytes on the wire are those groups split at every gap
    worth a window of its own. Warm window (the driver remembers it): never more."""
    rnd = Rnd(seed)
    d, panel = make()
    splits = 0
    known = None
    for step in range(150):
        _random_scene(rnd, d)
        before = bytes(panel.ram)
        after = bytes(d.buffer)
        sp = spans(before, after)
        cold = step % 2 == 0
        if cold:
            d._cw[0] = d._cw[2] = 255  # forget the window: each one is sent in full
            known = None
        w0 = len(panel.log)
        flush_counting(d, panel)
        wire = panel.wire(w0)
        if all(s is None for s in sp):
            assert wire == 0
            continue
        groups = planned_groups(d)
        whole = sum(group_wire(sp, p0, p1) for p0, p1 in groups)
        assert whole == brute_force_wire(sp), (step, sp)
        windows = split_windows(sp, groups, before, after)
        assert wire == windows_wire(windows, known), (step, sp)
        if cold:
            assert wire <= whole, (step, sp)
        splits += len(windows) > len(groups)
        known = windows[-1]
        assert panel.ram == d.buffer == d._shadow
    assert splits >= 10  # the scenes do make gaps worth splitting at


@pytest.mark.micropython
def test_random_drawing_with_bus_errors_and_power_cuts():
    """The panel RAM equals the framebuffer after every successful flush, whatever
    failed before: writes that die half way, brown-outs, forced frames, settings."""
    rnd = Rnd(99)
    d, panel = make()
    recovered = 0
    for _ in range(400):
        _random_scene(rnd, d)
        ev = rnd.randrange(12)
        if ev == 0:
            panel.fail_after = rnd.randrange(4)  # dies within the next few writes
        elif ev == 1:
            d.mark_all()
        elif ev == 2:
            d.contrast(rnd.randrange(256))
        elif ev == 3 and not d.ok:
            panel.power_cut()  # it came back blank, off and in page addressing
        ok = d.flush()
        if ok:
            assert panel.ram == d.buffer and panel.horizontal
            recovered += 1
        else:
            assert not d.ok
            panel.fail = False
            panel.fail_after = None
    assert d.errors > 10 and recovered > 300
    assert d.flush() and panel.ram == d.buffer


# --- a display that stops answering ---------------------------------------------------


@pytest.mark.micropython
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


@pytest.mark.micropython
def test_error_in_the_middle_of_a_flush_resends_everything_later():
    d, panel = make()
    d.fill_rect(0, 0, 5, 5, 1)
    d.fill_rect(0, 60, 5, 4, 1)  # pages 0 and 7: two windows, four writes
    panel.fail_after = 2  # one page goes through, the other's window fails
    assert d.flush() is False and d.errors == 1
    panel.fail_after = None
    panel.fail = False
    w0 = len(panel.log)
    assert d.flush()
    assert len(panel.log) - w0 == 3  # init, full frame, display on
    assert panel.ram == d.buffer


@pytest.mark.micropython
def test_error_after_a_window_change_does_not_trust_the_window():
    d, panel = make()
    d.fill_rect(10, 0, 5, 5, 1)
    panel.fail_after = 1  # the window command goes through, the data does not
    assert d.flush() is False
    panel.fail_after = None
    panel.fail = False
    assert d.flush()  # re-init: window back on the whole frame
    d.fill_rect(10, 0, 5, 5, 0)
    n, writes = flush_counting(d, panel)
    assert writes == 2 and panel.log[-2][:2] == b"\x00\x21"


@pytest.mark.micropython
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


@pytest.mark.micropython
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
    assert flush_counting(d, panel) == (1 + 1024, 1)


@pytest.mark.micropython
def test_commands_on_a_dead_bus_return_false():
    d, panel = make()
    panel.fail = True
    assert d.contrast(10) is False and not d.ok and d.errors == 1
    assert d.sleep() is False and d.errors == 1  # known lost: no bus traffic attempted
    panel.fail = False
    assert d.flush() and panel.contrast == 10 and not panel.on


# --- framebuf: the host stand-in vs MicroPython's own ------------------------------------
# Random drawing on a framebuf: CPython draws with tools/hostlib's, MicroPython with the real
# one, and the buffers must match after every few operations.

SIZES = ((128, 64, 128), (37, 21, 40))  # width, height, stride (the second: odd sizes)
STEPS = 150


def _c(r, lo, hi):
    return lo + r.rand15() % (hi - lo + 1)


def draw_steps(emit, seed=777):
    """Apply STEPS random operations to each size; emit(tag, buffer) every 3."""
    r = Roller(seed)
    for w, h, stride in SIZES:
        buf = bytearray(((h + 7) // 8) * stride)
        fb = framebuf.FrameBuffer(buf, w, h, framebuf.MONO_VLSB, stride)
        sbuf = bytearray(2 * 11)
        src = framebuf.FrameBuffer(sbuf, 11, 13, framebuf.MONO_VLSB)
        for i in range(len(sbuf)):
            sbuf[i] = r.rand15() & 0xFF
        for step in range(STEPS):
            op = r.rand15() % 10
            x, y = _c(r, -20, w + 20), _c(r, -20, h + 20)
            a, b = _c(r, -20, w + 20), _c(r, -20, h + 20)
            c = r.rand15() & 1
            if op == 0:
                fb.line(x, y, a, b, c)
            elif op == 1:
                fb.line(x, y, x + _c(r, -3, 3), y + _c(r, -40, 40), c)
            elif op == 2:
                fb.rect(x, y, a - x, b - y, c)
            elif op == 3:
                fb.rect(x, y, _c(r, 0, 40), _c(r, 0, 30), c, True)
            elif op == 4:
                fb.fill_rect(x, y, _c(r, -2, 50), _c(r, -2, 30), c)
            elif op == 5:
                fb.hline(x, y, _c(r, -5, 60), c)
                fb.vline(a, b, _c(r, -5, 40), c)
            elif op == 6:
                for _ in range(8):
                    fb.pixel(_c(r, -2, w + 1), _c(r, -2, h + 1), c)
            elif op == 7:
                fb.blit(src, x, y, r.rand15() % 3 - 1)
            elif op == 8:
                fb.scroll(_c(r, -9, 9), _c(r, -9, 9))
            elif step % 20 == 9:
                fb.fill(c)
            else:
                fb.line(x, y, a, y + (a - x), c)  # 45 degrees
            if step % 3 == 2:
                emit(w * 1000 + step, buf)


def framebuf_steps():
    """"<tag> <hex of the buffer>" every 3 random operations (compared across interpreters)."""
    out = []
    draw_steps(lambda tag, buf: out.append("%d %s" % (tag, bytes(buf).hex())))
    return out


def test_hostlib_framebuf_matches_micropython_pixel_for_pixel():
    from conftest import micropython_call

    assert "hostlib" in framebuf.__file__
    ours = framebuf_steps()
    assert len(ours) == 100
    assert micropython_call("test_ssd1306", "framebuf_steps", heap=MICROPYTHON_HEAP) == ours


@pytest.mark.micropython
def test_pixel_outside_the_buffer_reads_none():
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


# --- flush shapes: bus bytes, and no allocation per flush on the device ------------------


class CountingI2C:
    """Counts bytes and writes; allocates nothing itself."""

    def __init__(self):
        self.bytes = 0
        self.writes = 0

    def writeto(self, addr, buf, stop=True):
        self.bytes += len(buf)
        self.writes += 1

    def writevto(self, addr, vec, stop=True):
        for i in range(len(vec)):
            self.bytes += len(vec[i])
        self.writes += 1


def one_span(d, i):
    x, y = 40 + (i & 15), 24 + (i & 7)  # page 3, columns 40..55: a pixel always changes
    d.pixel(x, y, d.pixel(x, y) ^ 1)
    d.flush()


def widths(d, i):
    """A 1..128 column span on page 5: every split into scratch views, window changes."""
    w = (i * 37) % 128 + 1
    d.fill_rect(0, 40, 128, 8, 0)
    d.fill_rect(128 - w, 40, w, 8, 1)
    d.flush()


def two_pages(d, i):
    d.fill_rect(i & 63, 6, 9, 4, i & 1)  # straddles pages 0 and 1: one merged window
    d.flush()


def wide(d, i):
    d.fill_rect(0, 16, 128, 24, i & 1)  # pages 2..4, full width: one write
    d.flush()


def scattered(d, i):
    d.fill_rect((i * 13) & 127, (i * 29) & 63, 7, 11, i & 1)
    d.fill_rect((i * 71) & 127, (i * 5) & 63, 3, 2, (i >> 1) & 1)
    d.flush()


def no_change(d, i):
    d.flush()


def show(d, i):
    d.show()


def numbered(fn, d):
    """fn(d, i) with i = 0, 1, 2, ... on successive calls of the result."""
    i = [0]

    def step():
        fn(d, i[0])
        i[0] += 1

    return step


SHAPES = (one_span, widths, two_pages, wide, scattered, no_change, show)


def shape_runs(n=300):
    """{shape: (bytes sent, bytes allocated or None)} over n flushes of each, after a warm-up,
    through a counting bus that allocates nothing itself."""
    i2c = CountingI2C()
    d = SSD1306_I2C(128, 64, i2c)
    d.fill(0)
    d.flush()
    res = {}
    for fn in SHAPES:
        sent = d.bytes_sent
        used = allocated(numbered(fn, d), n, warmup=3)
        res[fn.__name__] = (d.bytes_sent - sent, used)
    assert d.ok and d.errors == 0 and d.bytes_sent == i2c.bytes and d.writes == i2c.writes
    return res


def bytes_of(fn, i=1):
    d = SSD1306_I2C(128, 64, CountingI2C())
    d.fill(0)
    d.flush()
    b0 = d.bytes_sent
    fn(d, i)
    return d.bytes_sent - b0


@pytest.mark.micropython
def test_flush_bus_bytes_per_shape():
    assert bytes_of(one_span) == WINDOW + 1 + 1  # one pixel: one column
    assert bytes_of(two_pages) == WINDOW + 2 * (1 + 9)  # 9 columns, pages 0-1
    assert bytes_of(no_change) == 0
    assert bytes_of(show) == FULL_FRAME
    n = 20  # hostlib's framebuf is slow; the allocation check below does 300
    runs = shape_runs(n)
    for name, (sent, _) in runs.items():
        if name != "no_change":
            assert sent > n, name  # every measured flush sent data
    assert runs["no_change"][0] == 0
    assert runs["show"][0] == (n + 3) * FULL_FRAME  # 3 warm-up frames, then n


@pytest.mark.micropython(only=True)
def test_flushes_allocate_nothing():
    for name, (_, used) in shape_runs().items():
        assert used == 0, name


@pytest.mark.micropython
def test_a_flushs_planning_needs_no_heap():
    """flush() finds the changed columns and plans its windows with the heap locked, so
    their call frames go on the C stack (on the emulated Pico, unlocked, a score's frame
    took longer to send on a fragmented heap). If they allocated, the locked
    heap would refuse (a MemoryError) and every flush would plan twice. CPython: plain."""
    from picoyacht import heap

    lock = heap.heap_lock
    d, panel = make()
    r = Roller(7)
    for _ in range(20):
        for _ in range(1 + r.d6() * 5):  # a few pixels scattered over the frame
            d.pixel(r.rand15() & 127, r.rand15() & 63, 1)
        if lock is not None:  # locked, with no retry: an allocation fails the test
            lock()
        try:
            n = d._find_changes(None, None)
        finally:
            if lock is not None:
                heap.heap_unlock()
        assert n and flush_counting(d, panel)[0] > 0


@pytest.mark.micropython
def test_a_flushs_sending_needs_no_heap_but_its_writes():
    """flush() sends its runs with the heap locked too, letting go of it for each write
    alone (the rp2 port's writevto copies into a heap block; this fake bus's log
    allocates): the runs' call frames then take no heap, which on a fragmented heap made
    a page of the scores miss its 20 ms. If the sending allocated, the locked heap would
    refuse and it would run twice. Breaks if a write keeps the lock (heap.i2c_write) or
    _send allocates. CPython: plain."""
    from picoyacht import ssd1306

    d, panel = make()
    calls = [0]
    send = ssd1306._send

    def counted(disp, b, c):
        calls[0] += 1
        send(disp, b, c)

    ssd1306._send = counted
    try:
        r = Roller(11)
        for k in range(20):
            for _ in range(1 + r.d6() * 5):
                d.pixel(r.rand15() & 127, r.rand15() & 63, 1)
            assert flush_counting(d, panel)[1] > 0
            assert calls[0] == k + 1
    finally:
        ssd1306._send = send
