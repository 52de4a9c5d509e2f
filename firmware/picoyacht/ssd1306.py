"""SSD1306 128x64 OLED over I2C: a framebuf.FrameBuffer that sends only what changed.

Why not just show() every frame: a full frame is 1024 data bytes, a long wait on a 400 kHz
bus, while a button press typically changes a few dozen columns of one or two of the eight
128-byte pages. flush() compares each page with a shadow copy of what the panel holds,
finds the changed column span of every page that differs, and plans windows:

* a window is a rectangle of columns c0..c1 and pages p0..p1 (commands 0x21 and 0x22 in
  horizontal addressing); the controller takes (c1 - c0 + 1) bytes per page, page after
  page, and its address pointer returns to (c0, p0) when the window is full;
* adjacent dirty pages share one window (the union of their spans) when that costs fewer
  bus bytes than a window each: a small exact plan over the 8 pages, counting the
  address, control and command bytes of every write;
* a narrower window is split where enough columns in between are unchanged on all its
  pages (the gaps between a roll's five dice): each part costs a column command, an
  address and control byte a page, and the time of those writes (each costs the Pico
  time of its own, counted as _WRITE_COST bus bytes), and the columns skipped pay;
* the controller's window is remembered: a window equal to the last one costs no command
  at all, a change of pages only or of columns only costs 3 command bytes instead of 6.

No allocation per flush. A full-width window's pages are contiguous in the framebuffer,
which sits one byte into a larger buffer: the byte before the window's first page is set
to the data control byte for the write and restored after it, and one preallocated view
(one per first page and page count) goes out with i2c.writeto. One buffer, because the rp2
port's writevto copies several into a heap block of their total length (a full frame then
needs one free block as long as itself, which a fragmented heap may not have). A narrower
window goes page by page through two small scratch buffers: w = 8q + r bytes are copied
into scratch A (r < 8 bytes) and scratch B (8q bytes), and sent as the preallocated views
A[:r] and B[:8q] (7 + 17 views instead of one per length) with writevto, whose copy is
then at most 129 bytes and freed at once. The compare, the gap search and the copies are
fast.span, fast.gap and fast.copy: native code on the Pico. The planning and the sending
run with the heap locked (heap.locked), so that their call frames take none of it on a
fragmented heap; each write alone lets go of the lock (heap.i2c_write).

A display that stops answering (loose wire, brown-out) must not stop the game: every bus
error is caught, counted in `errors`, and leaves `ok` False with everything to resend.
The next flush() re-runs the init sequence (restoring contrast, inversion, rotation and sleep state)
and sends the whole frame.

`bytes_sent` counts every byte written after the address byte (control, command and data
bytes) of writes that succeeded; `writes` counts those writes: add one address byte per
write for the wire total. On the device `framebuf` is MicroPython's built-in module; host
tests use the pure-Python stand-in in tools/hostlib.
"""

import framebuf
from micropython import const

from picoyacht.fast import copy, gap, span
from picoyacht.heap import i2c_write, locked

_WIDTH = const(128)
_HEIGHT = const(64)
_PAGES = const(8)
_PAGE_BYTES = const(128)

_CTRL_CMD = const(0x00)  # Co = 0, D/C# = 0: every following byte is a command
_CTRL_DATA = const(0x40)  # D/C# = 1: every following byte is display RAM
_DISPLAY_OFF = const(0xAE)
_DISPLAY_ON = const(0xAF)
_SET_CONTRAST = const(0x81)
_SEG_REMAP = const(0xA0)  # | 1 = column 127 is SEG0
_COM_SCAN = const(0xC0)  # | 8 = scan COM[N-1] -> COM0
_SET_COL_ADDR = const(0x21)
_SET_PAGE_ADDR = const(0x22)

# Bus bytes the planner counts: a write = address + control byte + payload.
_WIN_COST = const(8)  # address, control, 0x21 c0 c1 0x22 p0 p1 (a fresh window)
_COLWIN_COST = const(5)  # address, control, 0x21 c0 c1 (new columns, same pages)
_WRITE_COST = const(5)  # the Pico's time for one more write, in bus bytes
_UNKNOWN = const(255)  # controller window not known: send it in full

# Init for a 128x64 panel, horizontal addressing: a literal, so nothing is built at import.
# The bytes that depend on settings (offsets _I_*) are patched in the copy each (re)init sends.
_INIT = (
    b"\x00"  # _CTRL_CMD: every following byte is a command
    b"\xae"  # _DISPLAY_OFF
    b"\xd5\x80"  # clock: divide 1, default oscillator
    b"\xa8\x3f"  # multiplex ratio: _HEIGHT - 1
    b"\xd3\x00"  # display offset
    b"\x40"  # start line 0
    b"\x8d\x14"  # charge pump: 0x14 on (internal), 0x10 off (external VCC)
    b"\x20\x00"  # horizontal addressing
    b"\xa1"  # _SEG_REMAP | 1: column 127 is SEG0
    b"\xc8"  # _COM_SCAN | 8: scan COM[N-1] -> COM0
    b"\xda\x12"  # COM pins: alternative config, no left/right remap (128x64)
    b"\x81\xcf"  # _SET_CONTRAST, 0xCF (0x9F external VCC)
    b"\xd9\xf1"  # pre-charge: 0xF1 internal, 0x22 external VCC
    b"\xdb\x40"  # VCOMH deselect level
    b"\x2e"  # no scrolling
    b"\xa4"  # output follows RAM
    b"\xa6"  # normal display (0xA7 inverts it)
    b"\x21\x00\x7f"  # _SET_COL_ADDR, 0, _WIDTH - 1
    b"\x22\x00\x07"  # _SET_PAGE_ADDR, 0, _PAGES - 1
)
_I_PUMP = const(10)
_I_SEG = const(13)
_I_COM = const(14)
_I_CONTRAST = const(18)
_I_PRECHARGE = const(20)
_I_INVERT = const(25)


def plan(lo, hi, cost, frm):
    """Cheapest split of the dirty pages (columns lo[p]..hi[p], lo 255: clean) into runs
    of adjacent pages, one window per run: cost[i] = bus bytes for pages [0, i),
    frm[i] = first page of the run ending at page i - 1 (255: page i - 1 is clean).
    A pure function of its tables, so the driver's class holds only the bus work."""
    cost[0] = 0
    for i in range(1, _PAGES + 1):
        if lo[i - 1] == _UNKNOWN:
            cost[i] = cost[i - 1]
            frm[i] = _UNKNOWN
            continue
        best = 0x7FFF
        a = _WIDTH
        b = 0
        for j in range(i - 1, -1, -1):  # the run j .. i-1, growing downwards
            if lo[j] == _UNKNOWN:
                continue  # a clean page inside a run is sent too, but can't start it
            if lo[j] < a:
                a = lo[j]
            if hi[j] > b:
                b = hi[j]
            n = i - j
            c = n * (b - a + 3)  # per page: address, control, the columns
            if _WIDTH * n + 2 < c:
                c = _WIDTH * n + 2  # full width: all pages in one write
            c += cost[j] + _WIN_COST
            if c < best:
                best = c
                frm[i] = j
        cost[i] = best


def _send(d, _b, _c):
    """Display d's planned runs (d._from), the last pages first. Its flush() runs this with
    the heap locked, so that the runs' call frames take no heap; the writes themselves let
    go of the lock (heap.i2c_write). Safe to repeat: a run sent again sends the same bytes."""
    frm = d._from
    i = _PAGES
    while i > 0:
        j = frm[i]
        if j == _UNKNOWN:
            i -= 1
            continue
        d._run(j, i - 1)
        i = j


class SSD1306_I2C(framebuf.FrameBuffer):
    """The 128x64 panel at `addr` (0x3C, or 0x3D with SA0 high) on `i2c`."""

    def __init__(self, width, height, i2c, addr=0x3C, external_vcc=False):
        if width != _WIDTH or height != _HEIGHT:
            raise ValueError("128x64 only")
        self.width = width
        self.height = height
        self.i2c = i2c
        self.addr = addr
        self.external_vcc = external_vcc
        raw = bytearray(1 + _PAGES * _PAGE_BYTES)  # a control byte's room, then the frame
        raw[0] = _CTRL_DATA
        self._raw = raw
        self.buffer = memoryview(raw)[1:]
        super().__init__(self.buffer, width, height, framebuf.MONO_VLSB)
        self.ok = False  # the panel answered the last write
        self.errors = 0  # I2C writes that raised OSError
        self.bytes_sent = 0
        self.writes = 0
        self.flushes = 0  # flushes that sent something
        self._on = True
        self._force = 0xFF  # pages to send in full whatever the shadow says
        # The controller's window (c0, c1, p0, p1), pointer at its start; 255 = unknown.
        self._cw = bytearray((_UNKNOWN, _UNKNOWN, _UNKNOWN, _UNKNOWN))
        # Everything a flush touches is built once, here.
        self._shadow = bytearray(_PAGES * _PAGE_BYTES)  # what the panel holds
        mv = self.buffer
        smv = memoryview(self._shadow)
        self._pages = tuple(mv[p * _PAGE_BYTES : (p + 1) * _PAGE_BYTES] for p in range(_PAGES))
        self._spages = tuple(smv[p * _PAGE_BYTES : (p + 1) * _PAGE_BYTES] for p in range(_PAGES))
        # Full-width writes: _runs[p0][n - 1] is the control byte's slot before page p0,
        # then pages p0 .. p0 + n - 1.
        rmv = memoryview(raw)
        self._runs = tuple(
            tuple(rmv[p * _PAGE_BYTES : (p + n) * _PAGE_BYTES + 1]
                  for n in range(1, _PAGES - p + 1))
            for p in range(_PAGES))
        self._narrow = [bytes((_CTRL_DATA,)), b"", b""]  # a narrower window's page: A, B
        sa = bytearray(8)
        sb = bytearray(_PAGE_BYTES)
        self._sa_buf = sa
        self._sb_buf = sb
        amv = memoryview(sa)
        bmv = memoryview(sb)
        self._sa = tuple(amv[:r] for r in range(8))
        self._sb = tuple(bmv[: 8 * q] for q in range(_PAGE_BYTES // 8 + 1))
        # The planner's tables: span per page, best cost of pages [0, i), where runs start.
        self._lo = bytearray(_PAGES)
        self._hi = bytearray(_PAGES)
        self._cost = [0] * (_PAGES + 1)
        self._from = bytearray(_PAGES + 1)
        self._win = bytearray((_CTRL_CMD, _SET_COL_ADDR, 0, 0, _SET_PAGE_ADDR, 0, 0))
        self._colwin = memoryview(self._win)[:4]  # ctrl 0x21 c0 c1: columns only
        self._pwin = bytearray((_CTRL_CMD, _SET_PAGE_ADDR, 0, 0))
        self._cmd1 = bytearray((_CTRL_CMD, 0))
        self._cmd2 = bytearray((_CTRL_CMD, 0, 0))
        self._cmd3 = bytearray((_CTRL_CMD, 0, 0))
        self._init = bytearray(_INIT)
        self._init[_I_PUMP] = 0x10 if external_vcc else 0x14
        self._init[_I_PRECHARGE] = 0x22 if external_vcc else 0xF1
        self._init[_I_CONTRAST] = 0x9F if external_vcc else 0xCF
        self.init_display()

    # ------------------------------------------------------------------ bus
    def _write(self, buf):
        i2c_write(self.i2c, self.addr, buf, False)
        self.bytes_sent += len(buf)
        self.writes += 1

    def _write_pages(self, p0, n):
        """Pages p0 .. p0 + n - 1, full width, in one single-buffer write."""
        raw = self._raw
        at = p0 * _PAGE_BYTES  # the last byte of page p0 - 1 (or the spare byte): borrowed
        keep = raw[at]
        raw[at] = _CTRL_DATA
        try:
            self._write(self._runs[p0][n - 1])
        finally:
            raw[at] = keep

    def _lost(self):
        self.ok = False
        self.errors += 1
        self._forget()

    def _forget(self):
        """Resend everything: every page in full, and the window."""
        self._force = 0xFF
        self._set_cw(_UNKNOWN, _UNKNOWN, _UNKNOWN, _UNKNOWN)

    # ------------------------------------------------------------------ frames
    def init_display(self):
        """Run the init sequence, then send the whole frame. False if the bus failed."""
        try:
            self._write(self._init)  # leaves the display off, window = whole frame
            self._write_pages(0, _PAGES)
            copy(self._shadow, 0, self.buffer, 0, _PAGES * _PAGE_BYTES)
            self._set_cw(0, _WIDTH - 1, 0, _PAGES - 1)
            if self._on:
                self._cmd1[1] = _DISPLAY_ON
                self._write(self._cmd1)
        except OSError:
            self._lost()
            return False
        self.ok = True
        self._force = 0
        self.flushes += 1
        return True

    def mark_all(self):
        """Resend every page and the window on the next flush (the panel may have been
        reset, or a benchmark wants real full frames)."""
        self._forget()

    def _spans(self):
        """Changed columns lo..hi per page (lo = 255: unchanged); the number of such pages."""
        buf = self.buffer
        sh = self._shadow
        lo = self._lo
        hi = self._hi
        pages = self._pages
        spages = self._spages
        force = self._force
        n = 0
        for p in range(_PAGES):
            if force >> p & 1:
                lo[p] = 0
                hi[p] = _WIDTH - 1
            elif pages[p] != spages[p]:  # compared in C; then the span from both ends
                d = span(buf, sh, p * _PAGE_BYTES, _PAGE_BYTES)
                lo[p] = d & 0xFF
                hi[p] = d >> 8
            else:
                lo[p] = _UNKNOWN
                continue
            n += 1
        return n

    def _find_changes(self, _b, _c):
        """_spans, then plan() if a page changed: their number. flush() runs it with the heap
        locked (it allocates nothing), and then _send()."""
        n = self._spans()
        if n:
            plan(self._lo, self._hi, self._cost, self._from)
        return n

    def _window(self, c0, c1, p0, p1):
        """Point the controller at a window, sending only what differs from the last."""
        cw = self._cw
        if cw[0] != c0 or cw[1] != c1:
            win = self._win
            win[2] = c0
            win[3] = c1
            if cw[2] != p0 or cw[3] != p1:
                win[5] = p0
                win[6] = p1
                self._write(win)
            else:
                self._write(self._colwin)
        elif cw[2] != p0 or cw[3] != p1:
            pw = self._pwin
            pw[2] = p0
            pw[3] = p1
            self._write(pw)
        else:
            return
        self._set_cw(c0, c1, p0, p1)

    def _set_cw(self, c0, c1, p0, p1):
        cw = self._cw
        cw[0] = c0
        cw[1] = c1
        cw[2] = p0
        cw[3] = p1

    def _run(self, p0, p1):
        """Send pages p0..p1 through one window: the union of their spans."""
        lo = self._lo
        hi = self._hi
        a = _WIDTH
        b = 0
        for p in range(p0, p1 + 1):
            if lo[p] != _UNKNOWN:
                if lo[p] < a:
                    a = lo[p]
                if hi[p] > b:
                    b = hi[p]
        n = p1 - p0 + 1
        w = b - a + 1
        if _WIDTH * n + 2 < n * (w + 2):
            a = 0
            w = _WIDTH
        if w == _WIDTH:
            self._window(0, _WIDTH - 1, p0, p1)
            self._write_pages(p0, n)
        else:
            self._narrow_run(a, a + w - 1, p0, p1)
        at = p0 * _PAGE_BYTES
        copy(self._shadow, at, self.buffer, at, (p1 - p0 + 1) * _PAGE_BYTES)

    def _narrow_run(self, c0, c1, p0, p1):
        """Pages p0..p1 in columns c0..c1, split where enough columns in between are the
        same on every page: a split costs a column window (address, control, 0x21 c0 c1),
        an address and control byte a page, and the Pico's time for those 1 + n writes,
        and saves the columns it skips."""
        n = p1 - p0 + 1
        least = (_COLWIN_COST + _WRITE_COST + (2 + _WRITE_COST) * n) // n + 1
        buf = self.buffer
        vec = self._narrow
        while True:
            g = gap(buf, self._shadow, p0 * _PAGE_BYTES, n, c0, c1, least)
            e = c1 if g < 0 else (g & 0xFF) - 1
            self._window(c0, e, p0, p1)
            w = e - c0 + 1
            r = w & 7
            q = w >> 3
            for p in range(p0, p1 + 1):
                at = p * _PAGE_BYTES + c0
                copy(self._sa_buf, 0, buf, at, r)
                copy(self._sb_buf, 0, buf, at + r, w - r)
                vec[1] = self._sa[r]
                vec[2] = self._sb[q]
                i2c_write(self.i2c, self.addr, vec, True)
                self.bytes_sent += 1 + w
                self.writes += 1
            if g < 0:
                return
            c0 = (g >> 8) + 1

    def flush(self):
        """Send what changed. True if the panel is up to date, False on a bus error."""
        if not self.ok:
            return self.init_display()
        if not locked(SSD1306_I2C._find_changes, self, None, None):
            return True
        try:
            locked(_send, self, None, None)
        except OSError:
            self._lost()
            return False
        self._force = 0
        self.flushes += 1
        return True

    def show(self):
        """The whole frame and its window, whatever changed."""
        self.mark_all()
        return self.flush()

    # ------------------------------------------------------------------ settings
    def _command(self, buf):
        if not self.ok:
            return False  # applied by the re-init
        try:
            self._write(buf)
        except OSError:
            self._lost()
            return False
        return True

    def contrast(self, value):
        value = 0 if value < 0 else 255 if value > 255 else value
        self._init[_I_CONTRAST] = value
        self._cmd2[1] = _SET_CONTRAST
        self._cmd2[2] = value
        return self._command(self._cmd2)

    def sleep(self):
        """Display off (RAM kept): a few uA instead of mA while idle."""
        self._on = False
        self._cmd1[1] = _DISPLAY_OFF
        return self._command(self._cmd1)

    def wake(self):
        self._on = True
        self._cmd1[1] = _DISPLAY_ON
        return self._command(self._cmd1)

    def invert(self, on):
        self._init[_I_INVERT] = 0xA6 | (1 if on else 0)  # normal display | 1: inverted
        self._cmd1[1] = self._init[_I_INVERT]
        return self._command(self._cmd1)

    def rotate(self, flip):
        """Turn the picture 180 degrees (panel mounted upside down); resends the frame."""
        self._init[_I_SEG] = _SEG_REMAP | (0 if flip else 1)
        self._init[_I_COM] = _COM_SCAN | (0 if flip else 8)
        self._cmd3[1] = self._init[_I_SEG]
        self._cmd3[2] = self._init[_I_COM]
        self._force = 0xFF  # segment remap applies only to data written after it
        return self._command(self._cmd3)
