"""SSD1306 128x64 OLED over I2C: a framebuf.FrameBuffer that sends only changed pages.

Why not just show() every frame: a full frame is 1024 data bytes, 23.5 ms at
400 kHz, while a typical button press changes one or two of the eight 128-byte
pages. flush() compares each page with a shadow copy of what the panel holds and
sends only the pages that differ, as preallocated memoryview slices through
i2c.writevto() (control byte + page, no concatenation): a flush allocates
nothing.

A display that stops answering (loose wire, brown-out) must not stop the game:
every bus error is caught, counted in `errors`, and leaves `ok` False with all
pages dirty. The next flush() re-runs the init sequence (restoring contrast,
inversion, rotation and sleep state) and sends the whole frame.

`bytes_sent` counts every byte written after the address byte (control,
command and data bytes) of writes that succeeded; add one address byte per
write for the wire total. On the device `framebuf` is MicroPython's built-in
module; host tests use the pure-Python stand-in in tools/hostlib.
"""

import framebuf

try:
    from micropython import const
except ImportError:  # CPython (host tests)
    const = lambda x: x

WIDTH = const(128)
HEIGHT = const(64)
PAGES = const(8)
PAGE_BYTES = const(128)

_CTRL_CMD = const(0x00)  # Co = 0, D/C# = 0: every following byte is a command
_CTRL_DATA = const(0x40)  # D/C# = 1: every following byte is display RAM
_DISPLAY_OFF = const(0xAE)
_DISPLAY_ON = const(0xAF)
_SET_CONTRAST = const(0x81)
_NORMAL = const(0xA6)  # | 1 = inverted
_SEG_REMAP = const(0xA0)  # | 1 = column 127 is SEG0
_COM_SCAN = const(0xC0)  # | 8 = scan COM[N-1] -> COM0
_SET_COL_ADDR = const(0x21)
_SET_PAGE_ADDR = const(0x22)

# Init for a 128x64 panel, horizontal addressing. Offsets of the bytes that
# depend on settings are patched in place before each (re)init.
_INIT = (
    _CTRL_CMD,
    _DISPLAY_OFF,
    0xD5, 0x80,  # clock: divide 1, default oscillator
    0xA8, HEIGHT - 1,  # multiplex ratio
    0xD3, 0x00,  # display offset
    0x40,  # start line 0
    0x8D, 0x14,  # charge pump: 0x14 on (internal), 0x10 off (external VCC)
    0x20, 0x00,  # horizontal addressing
    _SEG_REMAP | 1,
    _COM_SCAN | 8,
    0xDA, 0x12,  # COM pins: alternative config, no left/right remap (128x64)
    _SET_CONTRAST, 0xCF,
    0xD9, 0xF1,  # pre-charge: 0xF1 internal, 0x22 external VCC
    0xDB, 0x40,  # VCOMH deselect level
    0x2E,  # no scrolling
    0xA4,  # output follows RAM
    _NORMAL,
    _SET_COL_ADDR, 0, WIDTH - 1,
    _SET_PAGE_ADDR, 0, PAGES - 1,
)  # fmt: skip
_I_PUMP = const(10)
_I_SEG = const(13)
_I_COM = const(14)
_I_CONTRAST = const(18)
_I_PRECHARGE = const(20)
_I_INVERT = const(25)


class SSD1306_I2C(framebuf.FrameBuffer):
    """The 128x64 panel at `addr` (0x3C, or 0x3D with SA0 high) on `i2c`."""

    def __init__(self, width, height, i2c, addr=0x3C, external_vcc=False):
        if width != WIDTH or height != HEIGHT:
            raise ValueError("128x64 only")
        self.width = width
        self.height = height
        self.i2c = i2c
        self.addr = addr
        self.external_vcc = external_vcc
        self.buffer = bytearray(PAGES * PAGE_BYTES)
        super().__init__(self.buffer, width, height, framebuf.MONO_VLSB)
        self.ok = False  # the panel answered the last write
        self.errors = 0  # I2C writes that raised OSError
        self.bytes_sent = 0
        self.flushes = 0  # flushes that sent at least one page
        self._on = True
        self._force = 0xFF  # pages to send whatever the shadow says
        # Everything a flush touches is built once, here.
        self._shadow = bytearray(PAGES * PAGE_BYTES)  # what the panel holds
        self._shadow_fb = framebuf.FrameBuffer(self._shadow, width, height, framebuf.MONO_VLSB)
        mv = memoryview(self.buffer)
        smv = memoryview(self._shadow)
        self._pages = tuple(mv[p * PAGE_BYTES : (p + 1) * PAGE_BYTES] for p in range(PAGES))
        self._spages = tuple(smv[p * PAGE_BYTES : (p + 1) * PAGE_BYTES] for p in range(PAGES))
        self._page_fbs = tuple(
            framebuf.FrameBuffer(pg, width, 8, framebuf.MONO_VLSB) for pg in self._pages
        )
        data = bytes((_CTRL_DATA,))
        self._page_vecs = tuple((data, pg) for pg in self._pages)
        self._frame_vec = (data, mv)
        self._win = bytearray((_CTRL_CMD, _SET_COL_ADDR, 0, WIDTH - 1, _SET_PAGE_ADDR, 0, 0))
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
        self.i2c.writeto(self.addr, buf)
        self.bytes_sent += len(buf)

    def _writev(self, vec, n):
        self.i2c.writevto(self.addr, vec)
        self.bytes_sent += n

    def _lost(self):
        self.ok = False
        self.errors += 1
        self._force = 0xFF

    # ------------------------------------------------------------------ frames
    def init_display(self):
        """Run the init sequence, then send the whole frame. False if the bus failed."""
        try:
            self._write(self._init)  # leaves the display off, window = whole frame
            self._writev(self._frame_vec, 1 + PAGES * PAGE_BYTES)
            self._shadow_fb.blit(self, 0, 0)
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
        """Send every page on the next flush (e.g. if the panel may have been reset)."""
        self._force = 0xFF

    def dirty(self):
        """Bit p set = page p differs from what the panel holds (or is forced)."""
        mask = self._force
        pages = self._pages
        spages = self._spages
        for p in range(PAGES):
            if pages[p] != spages[p]:
                mask |= 1 << p
        return mask

    def flush(self):
        """Send the changed pages. True if the panel is up to date, False on a bus error."""
        if not self.ok:
            return self.init_display()
        mask = self.dirty()
        if not mask:
            return True
        win = self._win
        try:
            if mask == 0xFF:
                win[5] = 0
                win[6] = PAGES - 1
                self._write(win)
                self._writev(self._frame_vec, 1 + PAGES * PAGE_BYTES)
                self._shadow_fb.blit(self, 0, 0)
            else:
                for p in range(PAGES):
                    if mask & (1 << p):
                        win[5] = p
                        win[6] = p
                        self._write(win)
                        self._writev(self._page_vecs[p], 1 + PAGE_BYTES)
                        self._shadow_fb.blit(self._page_fbs[p], 0, p * 8)
        except OSError:
            self._lost()
            return False
        self._force = 0
        self.flushes += 1
        return True

    def show(self):
        """The whole frame, whatever changed."""
        self._force = 0xFF
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

    poweroff = sleep  # micropython-lib names
    poweron = wake

    def invert(self, on):
        self._init[_I_INVERT] = _NORMAL | (1 if on else 0)
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
