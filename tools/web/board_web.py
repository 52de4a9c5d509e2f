"""The browser board: the unchanged firmware on MicroPython's WebAssembly port, driven by
the page (tools/web/page.js), which never calls the blocking Runner.run().

The page calls pump(now, raw) once an animation frame with the time and the raw button
mask (bit i is 1 while button i is held down, as its GPIO reads low): pump runs
Runner.step() one sample period at a time until the firmware's clock has caught up, so the
firmware's own debouncer makes the presses, long presses and repeats. The panel is
board_sim's emulated SSD1306, so the canvas shows what the real driver sent; the page
reads its RAM straight from the wasm heap (ram_address).

Everything else comes from `host`, an object of the page's: entropy (crypto.getRandomValues),
tones (WebAudio), the page's storage, and its messages. In Node, tools/rigs/node_run.mjs
gives one of its own (the web tests: a Map for the storage).
"""

import io
import os
import time

from board_sim import FOUR, FULL, HeadlessBoard

from picoyacht import strategy_table
from picoyacht.store import KINDS, MAX_FILE, SLOTS, Store
from picoyacht.ticks import ticks_add, ticks_diff

try:
    from errno import ENOENT
except ImportError:  # a port without errno: the C library's numbers
    ENOENT = 2
try:
    from errno import ENOSPC
except ImportError:  # MicroPython names no ENOSPC; its filesystems (and the store) use 28
    ENOSPC = 28

SAVE_DIR = "/saves"
# The only keys the page's storage is read for: the store's files. Anything else under the
# page's prefix (another version's, or planted) is never read into the heap.
KNOWN_FILES = tuple(SAVE_DIR + "/" + kind + slot for kind in KINDS for slot in SLOTS)
# A file is stored as hex: a longer value can never be a valid copy, and reading it whole
# could take the heap (a copy refused here counts as corrupt, so its backup is used).
MAX_STORED = 2 * MAX_FILE
TABLE_DIR = "/tables"
CATCH_UP_MS = 100  # the most a pump replays: a page hidden for a minute does not replay it
PUMP_US = 8000  # a pump stops stepping after this, so a frame keeps time for drawing
TABLE_LEVEL = 2  # CPU seats of this level and up read Expert's table (coach.py: Normal, Expert)


def _ticks_us():
    f = getattr(time, "ticks_us", None)
    return f() if f is not None else int(time.perf_counter() * 1e6) & 0x3FFFFFFF


class PageFile:
    """A file being written: its bytes go to the PageFs when it is closed."""

    def __init__(self, fs, path):
        self.fs = fs
        self.path = path
        self.buf = bytearray()

    def write(self, data):
        self.buf += data
        return len(data)

    def flush(self):
        pass

    def close(self):
        if self.buf is not None:
            self.fs.put(self.path, bytes(self.buf))
            self.buf = None


class PageFs:
    """The Store's filesystem (open, remove, rename, sync): files in memory, written to
    the page's storage (one key a file, in hex) at every sync(), in the order they changed,
    so the store's own ordering of writes and renames is what storage sees. A full storage
    raises ENOSPC there, which the store reports as "flash full" and survives.

    Only the store's own files are read, and a value longer than any valid copy is kept as
    an empty file (corrupt) without reading it: the store falls back to the backup, as on
    the Pico for a damaged file, and `refused` names it for the page. A value that is not
    hex is kept as its text's bytes: the store finds that copy corrupt too."""

    def __init__(self, host):
        self.host = host
        self.files = {}
        self.changed = []
        self.refused = []  # (path, characters) of each value too long to be a save
        for name in KNOWN_FILES:
            size = host.storage_size(name)
            if size is None or size < 0:
                continue
            if size > MAX_STORED:
                self.files[name] = b""
                self.refused.append((name, size))
                continue
            text = host.storage_get(name)
            if text is None:
                continue
            try:
                self.files[name] = bytes.fromhex(text)
            except ValueError:
                self.files[name] = text.encode()

    def put(self, path, data):
        self.files[path] = data
        self.changed.append(path)

    def open(self, path, mode):
        if "w" in mode:
            return PageFile(self, path)
        data = self.files.get(path)
        if data is None:
            raise OSError(ENOENT)
        return io.BytesIO(data)

    def remove(self, path):
        if path not in self.files:
            raise OSError(ENOENT)
        del self.files[path]
        self.changed.append(path)

    def rename(self, src, dst):
        if src not in self.files:
            raise OSError(ENOENT)
        self.put(dst, self.files.pop(src))
        self.changed.append(src)

    def sync(self):
        changed = self.changed
        self.changed = []
        for path in changed:
            data = self.files.get(path)
            if data is None:
                self.host.storage_remove(path)
            elif not self.host.storage_put(path, data.hex()):
                raise OSError(ENOSPC)


class PageStore(Store):
    """The firmware's Store, telling the page what went wrong with a load or a save (the
    device shows it on its panel; the page says it in words beside it)."""

    def __init__(self, fs, root, tell):
        super().__init__(fs, root)
        self.tell = tell

    def load(self, kind, check=None):
        data = super().load(kind, check)
        if self.last_error:
            self.tell("load", kind + ": " + self.last_error)
        return data

    def write(self, kind, payload):  # a save's first half: said if it fails
        ok = super().write(kind, payload)
        if not ok:
            self.tell("save", kind + ": " + self.last_error)
        return ok

    def commit(self, kind):  # its second half, and the save's outcome
        ok = super().commit(kind)
        self.tell("save", "" if ok else kind + ": " + self.last_error)
        return ok


class WebBoard(HeadlessBoard):
    """HeadlessBoard with the page's clock, buttons, entropy, piezo and storage."""

    SAMPLE_MS = 4

    def __init__(self, host, present, now):
        fs = PageFs(host)
        super().__init__(present, PageStore(fs, SAVE_DIR, host.message))
        for path, size in fs.refused:  # said before the boot's own load messages
            host.message("refused", "%s %d" % (path[len(SAVE_DIR) + 1:], size))
        self.host = host
        self.t = now
        self.runner = None
        self.seen = None  # the game whose table was looked for
        self.wanted = ""  # table files a game needs and the page is fetching ("" none)
        self.longest_us = 0  # the longest loop pass since the page last read it

    def urandom(self, n):
        return bytes.fromhex(self.host.random_hex(n))

    def tone(self, freq_hz, duty):
        self.host.tone(freq_hz, duty)

    def start(self):
        from picoyacht.app import Runner

        try:
            os.mkdir(TABLE_DIR)
        except OSError:
            pass
        strategy_table.on_demand = True  # the site's tables come when a game needs one
        self.runner = Runner(self)  # which attaches its app
        self._look_for_table()

    def pump(self, now, raw):
        """Step the firmware up to `now` with the buttons `raw`; returns the panel's state
        for the page: its write count (low 16 bits; the page redraws when it moves), lit
        (bit 16), dimmed (bit 17), and a table wanted (bit 18: the page fetches it, then
        calls table_ready, and until then the game waits)."""
        self.raw = raw
        if ticks_diff(now, self.t) > CATCH_UP_MS:
            self.t = ticks_add(now, -CATCH_UP_MS)
        began = _ticks_us()
        while not self.wanted and ticks_diff(now, self.t) >= 0:
            t0 = _ticks_us()
            self.runner.step()  # its idle() moves the clock on by SAMPLE_MS
            took = ticks_diff(_ticks_us(), t0)
            if took > self.longest_us:
                self.longest_us = took
            self._look_for_table()
            if ticks_diff(_ticks_us(), began) > PUMP_US:
                self.t = now  # behind: let the clock slip rather than the frame
                break
        i2c = self.i2c
        return ((i2c.writes & 0xFFFF) | (0x10000 if i2c.on else 0)
                | (0x20000 if i2c.contrast < 0x20 else 0) | (0x40000 if self.wanted else 0))

    def take_longest_us(self):
        us = self.longest_us
        self.longest_us = 0
        return us

    def ram_address(self):
        import uctypes

        return uctypes.addressof(self.i2c.ram)

    def _look_for_table(self):
        """A new game whose CPUs or coach read Expert's table, and none of its files here:
        ask the page for them before the engine opens one."""
        game = self.app.turn.game
        if game is self.seen:
            return
        self.seen = game
        if game is None or (max(game.kinds) < TABLE_LEVEL and not self.app.settings.coach):
            return
        o = game.options
        names = strategy_table.file_names(game.rs.id, o.joker, game.rs.sharp and o.sharp)
        for name in names:
            try:
                os.stat(TABLE_DIR + "/" + name)
                return
            except OSError:
                pass
        self.wanted = " ".join(names)

    def table_ready(self):
        """The page has put a table into TABLE_DIR, or has none to give: play on."""
        self.wanted = ""

    def rules_id(self):
        """The rule set of the game on, else the one setup would start: the rules panel
        opens it."""
        game = self.app.turn.game
        return game.rs.id if game is not None else self.app.settings.rid


def start(host, buttons, now):
    """The board and its Runner, for the page; `buttons` 4 for the minimal build."""
    board = WebBoard(host, FOUR if buttons == 4 else FULL, now)
    board.start()
    return board
