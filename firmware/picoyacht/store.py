"""Persistence that survives pulling the battery.

Three kinds of small records (``settings``, ``records``, ``game``) each live in
their own file under a root directory. Payloads are opaque bytes owned by other
modules; this module only frames, checksums and places them.

Files on flash, per kind (e.g. ``game``)::

    <root>/game.dat   primary: the newest committed copy
    <root>/game.bak   backup: the copy that was current before the last save
    <root>/game.tmp   a save in progress (normally absent)

File format (all little-endian, 16-byte header then the payload)::

    offset size field
    0      4    magic   b"PYST"
    4      1    version 1 (a reader rejects other versions with a message)
    5      1    kind    1 settings, 2 records, 3 game
    6      2    length  payload bytes (0..4096 accepted by this version)
    8      4    seq     save counter, +1 per save of this kind
    12     4    crc     CRC-32 (zlib polynomial) of bytes 0..11 then the payload

A file is valid only if it is exactly 16 + length bytes long, magic, version and
kind match, and the CRC matches. Any later format must keep magic and version
at offsets 0..4 so that this reader can reject it cleanly ("newer format").

``load`` returns the valid copy with the highest seq among .dat, .bak and
.tmp (ties: .dat, then .bak). Call that the *current* copy. Save sequence
(see ``Store.save``)::

    0. (only if the current copy is a leftover .tmp, i.e. an earlier save was
       cut after writing it) finish that save: rename .tmp -> .dat, sync
    1. write .tmp (seq = highest checksum-valid seq + 1), flush, close, sync,
       read it back and verify it
    2. if the current copy is .dat: rename .dat -> .bak, sync
       (otherwise .bak is the current copy or nothing is valid: keep .bak)
    3. rename .tmp -> .dat, sync

``write`` runs steps 0 and 1 and ``commit`` steps 2 and 3, so that a caller can give
each half a loop pass of its own; ``save`` runs both. Between the two the verified .tmp
is the current copy, as after a cut there.

A rename that fails because its target exists (FAT: EEXIST) is retried after
removing the target; any other failure leaves every file where it was, so a rename
that keeps failing never costs the backup. Why every instant is safe: until step 1
ends, the current copy is untouched (.tmp was not current, else step 0 ran). From
then on .tmp is a valid newer copy until step 3 renames it into .dat. Step 2 moves
the verified current .dat into .bak (or, on FAT, first removes .bak while .dat and .tmp are
both valid). So a power cut anywhere leaves the previous or the new payload as
the current copy, and only a file read back as valid is ever renamed into
.bak: a corrupt primary is never rotated into the backup slot. (A save reads the
three slots back first, unless this store's own last save of the kind wrote the
.dat and nothing has loaded or failed since: then it trusts that verified write.)

The filesystem is injected: ``fs`` needs ``open(path, mode)`` (modes "rb" and
"wb"; files with read/write/flush/close), ``remove(path)``, ``rename(a, b)``
and ``sync()``. ``OsFs`` adapts ``os`` + ``open`` on CPython and MicroPython.
No method of ``Store`` raises on bad data or on ``OSError``; only an unknown
kind (a programming error) raises ``ValueError``.
"""

import errno
import os
import struct

from micropython import const

try:
    from binascii import crc32 as _crc32_native
except ImportError:  # a MicroPython build without binascii.crc32
    _crc32_native = None

MAGIC = b"PYST"
VERSION = const(1)
HEADER_SIZE = const(16)
MAX_PAYLOAD = const(4096)  # bounds the read buffer a corrupt header can ask for
_HDR_FMT = "<4sBBHII"
_CRC_SPAN = const(12)  # header bytes covered by the CRC (everything before it)
_ENOENT = errno.ENOENT  # by name: the number is each port's own
_EEXIST = errno.EEXIST
_ENOSPC = getattr(errno, "ENOSPC", 28)  # MicroPython names no ENOSPC; its VFS raises 28

KINDS = {"settings": 1, "records": 2, "game": 3}
SLOTS = (".dat", ".bak", ".tmp")  # each kind's files: primary, backup, a save in progress
MAX_FILE = HEADER_SIZE + MAX_PAYLOAD  # no longer file is ever read as valid

# Messages the UI may show (``Store.last_error``); "" means all is well.
MSG_FULL = "not saved: flash full"
MSG_TOO_BIG = "not saved: too big"
MSG_BAD_WRITE = "not saved: write check failed"


# ---------------------------------------------------------------- CRC-32
# Reflected CRC-32, polynomial 0xEDB88320, as zlib/binascii. The register is
# kept as two 16-bit halves so that MicroPython on the Pico (31-bit small ints)
# never allocates a big int inside the loop. Tables: 16 entries per half,
# built once on first use.
_TLO = None
_THI = None


def _build_tables():
    global _TLO, _THI
    lo = []
    hi = []
    for n in range(16):
        c = n
        for _ in range(4):
            c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
        lo.append(c & 0xFFFF)
        hi.append(c >> 16)
    _TLO = tuple(lo)
    _THI = tuple(hi)


def crc32_py(data, crc=0):
    """Pure-Python CRC-32 with the same results as ``binascii.crc32``."""
    if _TLO is None:
        _build_tables()
    tlo = _TLO
    thi = _THI
    crc = crc ^ 0xFFFFFFFF
    lo = crc & 0xFFFF
    hi = crc >> 16
    for b in data:
        lo ^= b
        i = lo & 15
        lo = ((lo >> 4) | ((hi & 15) << 12)) ^ tlo[i]
        hi = (hi >> 4) ^ thi[i]
        i = lo & 15
        lo = ((lo >> 4) | ((hi & 15) << 12)) ^ tlo[i]
        hi = (hi >> 4) ^ thi[i]
    return ((hi << 16) | lo) ^ 0xFFFFFFFF


def crc32(data, crc=0):
    """CRC-32 of ``data`` continuing from ``crc``; native when available."""
    if _crc32_native is not None:
        return _crc32_native(data, crc) & 0xFFFFFFFF
    return crc32_py(data, crc)


# ---------------------------------------------------------------- framing
def encode(kind_id, seq, payload):
    """Return the 16-byte header for ``payload`` (the payload is written after it)."""
    head = struct.pack(_HDR_FMT, MAGIC, VERSION, kind_id, len(payload), seq, 0)
    c = crc32(payload, crc32(memoryview(head)[:_CRC_SPAN]))
    return head[:_CRC_SPAN] + struct.pack("<I", c)


# Outcomes of reading one file.
_OK = const(0)
_MISSING = const(1)
_CORRUPT = const(2)
_NEWER = const(3)
_UNREADABLE = const(4)
_INVALID = const(5)  # checksum fine, but the game's own check refused the payload
_REASON = ("stale", "missing", "corrupt", "from newer firmware", "unreadable", "invalid")


def _accepts(check, data):
    """The caller's check, where raising counts as a refusal."""
    try:
        return bool(check(bytes(data)))
    except Exception:
        return False


def _errno(e):
    n = getattr(e, "errno", None)
    if n is None and e.args:
        n = e.args[0]
    return n


def _prune(verdicts, res):
    """Forget the verdicts on copies no longer on flash: at most three stay."""
    for key in list(verdicts):
        if key[0] not in (res[0][1], res[1][1], res[2][1]):
            del verdicts[key]


def _close(f):
    try:
        f.close()
    except OSError:
        pass


class OsFs:
    """The real filesystem: ``os`` + builtin ``open`` (CPython and MicroPython)."""

    def open(self, path, mode):
        return open(path, mode)

    def remove(self, path):
        os.remove(path)

    def rename(self, src, dst):
        os.rename(src, dst)

    def sync(self):
        s = getattr(os, "sync", None)
        if s is not None:
            s()


class Store:
    """Saves and loads the three record kinds; see the module docstring."""

    def __init__(self, fs, root="/"):
        self.fs = fs
        if root and not root.endswith("/"):
            root += "/"
        self.root = root  # "" means relative to the current directory
        self.last_error = ""
        self._checks = {}  # kind -> the caller's payload check, from load()
        self._verdicts = {}  # kind -> {(seq, crc): accepted} for the copies on flash
        # kind -> the three slots as this store's last save of it left them: the next save
        # starts from them instead of reading all three back (three file objects on the
        # heap, per save). Any load, delete or failed save forgets them.
        self._slots = {}
        # kind -> (res, cur) of a write() whose commit() has not run: its .tmp is current
        self._pending = {}

    # ---------------------------------------------------------------- paths
    def _paths(self, kind):
        if kind not in KINDS:
            raise ValueError("unknown kind: " + str(kind))
        base = self.root + kind
        return base + SLOTS[0], base + SLOTS[1], base + SLOTS[2]

    # ---------------------------------------------------------------- reading
    def _read(self, path, kind_id, want, check=None, verdicts=None):
        """Return (status, seq, payload or None). Never raises OSError.

        ``verdicts`` maps (seq, crc) to what ``check`` said of that copy: the check runs
        once per copy, not at every save (a game's check rebuilds the whole game)."""
        try:
            f = self.fs.open(path, "rb")
        except OSError as e:
            return (_MISSING if _errno(e) == _ENOENT else _UNREADABLE), 0, None
        try:
            head = f.read(HEADER_SIZE)
            if not head or len(head) < HEADER_SIZE:
                return _CORRUPT, 0, None
            magic, ver, kid, n, seq, c = struct.unpack(_HDR_FMT, head)
            if magic != MAGIC:
                return _CORRUPT, 0, None
            if ver != VERSION:
                return (_NEWER if ver > VERSION else _CORRUPT), 0, None
            if kid != kind_id or n > MAX_PAYLOAD:
                return _CORRUPT, 0, None
            data = f.read(n) if n else b""
            if data is None or len(data) != n or f.read(1):
                return _CORRUPT, 0, None
            if crc32(data, crc32(memoryview(head)[:_CRC_SPAN])) != c:
                return _CORRUPT, 0, None
            if check is not None:
                key = (seq, c)
                ok = verdicts.get(key) if verdicts is not None else None
                if ok is None:
                    ok = _accepts(check, data)
                    if verdicts is not None:
                        verdicts[key] = ok
                if not ok:
                    return _INVALID, seq, None
            return _OK, seq, (bytes(data) if want else None)
        except (OSError, ValueError, MemoryError):
            return _UNREADABLE, 0, None
        finally:
            _close(f)

    def _scan(self, kind, want):
        """Read the three slots. Returns (paths, results, best index or -1).

        The best slot is the valid one with the highest seq; ties go to the
        earlier slot (primary, then backup, then temp)."""
        paths = self._paths(kind)
        kid = KINDS[kind]
        check = self._checks.get(kind)
        verdicts = self._verdicts.get(kind)
        if verdicts is None:
            verdicts = self._verdicts[kind] = {}
        res = [self._read(p, kid, want, check, verdicts) for p in paths]
        _prune(verdicts, res)
        best = -1
        for i in range(3):
            if res[i][0] == _OK and (best < 0 or res[i][1] > res[best][1]):
                best = i
        return paths, res, best

    def load(self, kind, check=None):
        """Return the newest valid payload of ``kind`` or None. Sets ``last_error``.

        ``check(payload)`` (optional) is the game's own test of a payload: a copy whose
        checksum is right but that it refuses counts as corrupt, so the backup is used and
        a later save never rotates that copy into the backup slot. It is remembered for
        the kind's saves, where it runs only on copies it has not judged yet (its verdicts
        are kept) and never on the copies this store wrote itself."""
        if check is not None:
            self._checks[kind] = check
            self._verdicts.pop(kind, None)
        self._slots.pop(kind, None)
        self._pending.pop(kind, None)  # its .tmp is current: the next save finishes it
        paths, res, best = self._scan(kind, True)
        status = res[0][0]
        if best == 0:
            self.last_error = ""
            return res[0][2]
        if best < 0:
            if res[0][0] == _MISSING and res[1][0] == _MISSING:
                # No save of this kind ever completed (at most a first one was cut):
                # nothing was lost, so there is nothing to report.
                self.last_error = ""
            elif any(r[0] == _NEWER for r in res):
                self.last_error = "save from newer firmware: ignored"
            else:
                self.last_error = "save corrupt: lost"
            return None
        if best == 2 and status in (_MISSING, _OK):
            self.last_error = "save interrupted: recovered"
        else:
            where = ": using backup" if best == 1 else ": using temp"
            self.last_error = "save " + _REASON[status] + where
        return res[best][2]

    # ---------------------------------------------------------------- writing
    def _replace(self, src, dst):
        """Rename src over dst; where rename cannot replace (FAT), remove dst first.

        Callers only do this when src holds a valid copy, so removing dst never
        leaves the kind without a readable current or previous payload."""
        err = None
        try:
            self.fs.rename(src, dst)
        except OSError as e:
            err = e
        if err is not None:
            if _errno(err) != _EEXIST:
                raise err  # not a target in the way: removing it would lose a copy
            removed = True
            try:
                self.fs.remove(dst)
            except OSError:
                removed = False
            if not removed:
                raise err  # dst was not in the way: report the rename failure
            self.fs.rename(src, dst)
        self.fs.sync()

    def _remove(self, path):
        """Remove ``path``; a missing file is fine."""
        try:
            self.fs.remove(path)
        except OSError as e:
            if _errno(e) != _ENOENT:
                raise

    def _commit(self, paths, res, cur):
        """Make the verified temp copy the primary.

        ``cur`` is the slot that load() returns right now (-1: none): it is the
        copy that must survive as the backup. A primary is only moved into the
        backup slot if it was read back as valid and is that current copy."""
        dat, bak, tmp = paths
        if cur == 0:
            self._replace(dat, bak)  # .bak := the good old primary
        # Otherwise a primary that is still there is bad or stale: it is simply
        # replaced and .bak (the current copy, if any) is left alone.
        self._replace(tmp, dat)

    def save(self, kind, payload):
        """Atomically store ``payload`` (bytes-like) as ``kind``. Returns True on success."""
        return self.write(kind, payload) and self.commit(kind)

    def write(self, kind, payload):
        """A save's first half, steps 0 and 1: ``payload`` written to .tmp and verified,
        which makes it the current copy. commit() does steps 2 and 3, the renames: a
        caller may run the halves in separate loop passes, each shorter than the whole.
        Until the commit, load() returns this payload, and the next save finishes it."""
        self._pending.pop(kind, None)
        kid = KINDS.get(kind)
        if kid is None:
            raise ValueError("unknown kind: " + str(kind))
        n = len(payload)
        if n > MAX_PAYLOAD:
            self.last_error = MSG_TOO_BIG
            return False
        res = self._slots.pop(kind, None)  # gone until this save has succeeded
        if res is None:
            paths, res, cur = self._scan(kind, False)
        else:
            paths, cur = self._paths(kind), 0  # its own last save left the current .dat
        tmp = paths[2]
        seq = 1
        for r in res:
            if (r[0] == _OK or r[0] == _INVALID) and r[1] >= seq:
                seq = r[1] + 1
        # Saturate (after 4e9 saves): a tie still resolves to .dat, then .bak.
        seq = min(seq, 0xFFFFFFFF)
        f = None
        mine = False  # True once the temp file holds our (partial) write
        try:
            if cur == 2:
                # An earlier save was cut after its temp file was complete, and
                # that copy is what load() returns: finish that save first
                # (writing the temp file now would destroy it).
                self._commit(paths, res, 2)
                res[0] = res[2]
                res[2] = (_MISSING, 0, None)
                cur = 0
            mine = True
            f = self.fs.open(tmp, "wb")
            head = encode(kid, seq, payload)
            f.write(head)
            if n:
                f.write(payload)
            f.flush()
            f.close()
            f = None
            self.fs.sync()
            if self._read(tmp, kid, False)[:2] != (_OK, seq):
                self.last_error = MSG_BAD_WRITE
                self._discard(tmp)
                return False
            # The caller made this payload itself: its check need not rebuild it at the
            # next save (a game's check would cost a whole Game per scored box).
            verdicts = self._verdicts.get(kind)
            if verdicts is not None:
                verdicts[(seq, struct.unpack("<I", head[_CRC_SPAN:])[0])] = True
            self._pending[kind] = (res, cur, seq)
        except OSError as e:
            if f is not None:
                _close(f)
            if mine:
                self._discard(tmp)
            self._failed(e)
            return False
        self.last_error = ""
        return True

    def commit(self, kind):
        """A save's second half (see write()); True at once if no write waits for it. Cut
        short (a power cut, or a MemoryError between its renames), the .tmp stays the
        current copy, and the next save or boot finishes it."""
        paths = self._paths(kind)
        pending = self._pending.pop(kind, None)
        if pending is None:
            return True
        res, cur, seq = pending
        try:
            self._commit(paths, res, cur)
        except OSError as e:
            self._discard(paths[2])
            self._failed(e)
            return False
        res = [(_OK, seq, None), res[0] if cur == 0 else res[1], (_MISSING, 0, None)]
        verdicts = self._verdicts.get(kind)
        if verdicts is not None:
            _prune(verdicts, res)
        self._slots[kind] = res
        self.last_error = ""
        return True

    def _failed(self, e):
        code = _errno(e)
        if code == _ENOSPC:
            self.last_error = MSG_FULL
        else:
            self.last_error = "not saved: I/O error " + str(code)

    def _discard(self, path):
        """Remove ``path`` on a failed save's way out: any error is left to the first."""
        try:
            self.fs.remove(path)
        except OSError:
            pass

    def delete(self, kind):
        """Remove every copy of ``kind``. Returns True if nothing is left.

        Order: temp, backup, primary -- a cut midway leaves the primary, so in
        the usual state (no leftover temp) a half-done delete looks like no
        delete, never like an older save."""
        dat, bak, tmp = self._paths(kind)
        self._slots.pop(kind, None)
        self._pending.pop(kind, None)
        try:
            for p in (tmp, bak, dat):
                self._remove(p)
            self.fs.sync()
        except OSError as e:
            self.last_error = "not deleted: I/O error " + str(_errno(e))
            return False
        self.last_error = ""
        return True
