"""An in-memory filesystem for tests, with power cuts and injected faults.

``FakeFs.files`` is the flash: a dict of path -> bytearray. Two models of what a
cut leaves:

* default (byte model): every byte a write call hands over lands in it at once
  (whatever reached the flash before the cut is all there is);
* ``lfs=True`` (littlefs, as MicroPython mounts it on the Pico): a file's new
  content is committed only by flush() (lfs_file_sync) or close(); a cut loses
  everything written since. Opening a new file for writing creates it empty at
  once; opening an existing one keeps its old content until the first commit.
  rename and remove are atomic, and a file open for writing follows a rename.

Mutating operations are counted in "units"; with ``cut_at=N`` the power goes at
unit N:

* open for writing (create/truncate), flush, close, rename, remove, sync: 1 unit,
  cut *before* the operation takes effect;
* write(data): byte model: len(data) units (1 for an empty write), a cut at the
  k-th unit of the call leaving only the first k-1 bytes of ``data`` on flash;
  littlefs model: 1 unit (a cut anywhere in it loses the same uncommitted data).

After a cut every call raises ``PowerCut`` (a BaseException, so no
``except OSError``/``except Exception`` in the code under test can swallow it).
``reboot()`` returns a fresh, powered FakeFs holding a copy of the surviving files.

``witness=k`` keeps, without cutting, what a cut at every k-th unit (1, 1+k, 1+2k...)
would leave: ``survivors`` is a list of (unit, files) with files a dict of path -> bytes,
so that one run of a deterministic session stands for a run cut at each of those units.

Other knobs: ``capacity`` (total bytes; a write beyond it stores what fits, then
raises OSError(ENOSPC)), ``fat=True`` (rename refuses an existing target with
OSError(EEXIST), as FAT does), ``fail(op, err)`` to make an operation raise and
``mangle`` to make writes land wrong without an error (bad flash).
"""

ENOENT = 2
EIO = 5
EEXIST = 17
ENOSPC = 28

MUTATING = ("open_w", "write", "flush", "close", "remove", "rename", "sync")


class PowerCut(BaseException):
    """The power went: nothing after this point happened."""


class FakeFile:
    def __init__(self, fs, path, writing):
        self.fs = fs
        self.path = path
        self.writing = writing
        self.pos = 0
        self.closed = False
        self.pending = bytearray() if writing and fs.lfs else None  # littlefs: uncommitted

    def _check(self):
        if self.fs.dead:
            raise PowerCut("dead")
        if self.closed:
            raise ValueError("I/O operation on closed file")

    def read(self, n=-1):
        self._check()
        self.fs._fault("read", self.path)
        if self.writing:
            raise OSError(EIO, "not readable")
        data = self.fs.files.get(self.path, bytearray())
        end = len(data) if n is None or n < 0 else min(len(data), self.pos + n)
        out = bytes(data[self.pos : end])
        self.pos = max(self.pos, end)
        return out

    def readinto(self, buf):
        out = self.read(len(buf))
        buf[: len(out)] = out
        return len(out)

    def write(self, data):
        self._check()
        if not self.writing:
            raise OSError(EIO, "not writable")
        fs = self.fs
        data = bytes(data)
        fs._fault("write", self.path)
        if fs.mangle is not None:
            data = bytes(fs.mangle(self.path, data))
        room = len(data)
        if fs.capacity is not None:
            room = max(0, min(room, fs.capacity - fs.used()))
        units = 1 if fs.lfs else max(1, room)
        dst = fs.files[self.path] if self.pending is None else self.pending
        if fs.witness:
            fs._witness_write(dst, data, units)
        if fs.cut_at is not None and fs.ops < fs.cut_at <= fs.ops + units:
            keep = fs.cut_at - fs.ops - 1
            dst += data[:keep]
            fs.ops = fs.cut_at
            fs.dead = True
            raise PowerCut("write " + self.path + " after %d bytes" % keep)
        fs.ops += units
        dst += data[:room]
        fs.count("write")
        if room < len(data):
            raise OSError(ENOSPC, "no space left on device")
        return len(data)

    def flush(self):
        self._check()
        if self.writing:
            self.fs._tick("flush", self.path)
            self._commit()

    def close(self):
        if self.fs.dead:
            raise PowerCut("dead")
        if self.closed:
            return
        if self.writing:
            self.fs._tick("close", self.path)
            self._commit()
            if self.pending is not None:
                self.fs.writers.remove(self)
        self.closed = True

    def _commit(self):
        if self.pending is not None:
            self.fs.files[self.path] = bytearray(self.pending)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class FakeFs:
    def __init__(self, files=None, cut_at=None, capacity=None, fat=False, lfs=False,
                 witness=0):
        self.files = {} if files is None else files
        self.cut_at = cut_at
        self.witness = witness
        self.survivors = []
        self._seen = {}  # path -> the bytes last kept for it (survivors share them)
        self.capacity = capacity
        self.fat = fat
        self.lfs = lfs
        self.writers = []  # littlefs model: files open for writing
        self.ops = 0
        self.dead = False
        self.faults = []  # see fail()
        self.fired = 0
        self.mangle = None  # callable(path, data) -> the bytes that really land
        self.counts = {}  # operation -> calls (a count, not a log: long runs stay flat)

    # ------------------------------------------------------------ test hooks
    def fail(self, op, err, path=None, times=None, skip=0):
        """Make ``op`` (one of MUTATING, "open_r" or "read") raise ``err``.

        ``path`` restricts it to paths containing that text; ``skip`` lets that
        many matching calls through first; ``times`` limits how many then fail.
        ``fired`` counts the faults raised so far."""
        self.faults.append({"op": op, "err": err, "path": path, "times": times, "skip": skip})

    def reboot(self):
        """A fresh powered filesystem with a copy of what survived."""
        files = {p: bytearray(d) for p, d in self.files.items()}
        return FakeFs(files, capacity=self.capacity, fat=self.fat, lfs=self.lfs)

    def _survivor(self, unit, partial=None, extra=b""):
        """Keeps what a cut at `unit` leaves: the files as they are, with `extra` on the
        end of the bytearray `partial` (a byte-model write cut part way)."""
        seen = self._seen
        files = {}
        for p, d in self.files.items():
            if d is partial:
                files[p] = bytes(d) + extra
                continue
            kept = seen.get(p)
            if kept is None or kept != d:
                kept = seen[p] = bytes(d)
            files[p] = kept
        last = self.survivors[-1][1] if self.survivors else None
        if last == files:
            files = last
        self.survivors.append((unit, files))

    def _witness_op(self):
        if self.ops % self.witness == 0:  # the next unit, ops + 1, is a cut point
            self._survivor(self.ops + 1)

    def _witness_write(self, dst, data, units):
        k = self.witness
        n = self.ops + 1 + (-self.ops) % k  # the first cut point of this call's units
        while n <= self.ops + units:
            self._survivor(n, dst, data[: n - self.ops - 1])
            n += k

    def used(self):
        return sum(len(d) for d in self.files.values())

    def _fault(self, op, path):
        for f in self.faults:
            if f["op"] != op or (f["path"] is not None and f["path"] not in path):
                continue
            if f["skip"]:
                f["skip"] -= 1
                continue
            if f["times"] == 0:
                continue
            if f["times"] is not None:
                f["times"] -= 1
            self.fired += 1
            raise f["err"]

    def _tick(self, op, path):
        if self.dead:
            raise PowerCut("dead")
        if self.witness:
            self._witness_op()
        self.ops += 1
        if self.cut_at is not None and self.ops == self.cut_at:
            self.dead = True
            raise PowerCut(op + " " + path)
        self._fault(op, path)
        self.count(op)

    def count(self, op):
        self.counts[op] = self.counts.get(op, 0) + 1

    # ------------------------------------------------------------ fs interface
    def open(self, path, mode):
        if self.dead:
            raise PowerCut("dead")
        if "r" in mode and "+" not in mode:
            self._fault("open_r", path)
            if path not in self.files:
                raise OSError(ENOENT, "no such file: " + path)
            return FakeFile(self, path, False)
        if "w" not in mode:
            raise ValueError("FakeFs supports modes r, rb, w, wb")
        self._tick("open_w", path)
        f = FakeFile(self, path, True)
        if not self.lfs:
            self.files[path] = bytearray()
        else:
            self.writers.append(f)
            if path not in self.files:
                self.files[path] = bytearray()  # littlefs commits a new file's creation
        return f

    def remove(self, path):
        self._tick("remove", path)
        if path not in self.files:
            raise OSError(ENOENT, "no such file: " + path)
        del self.files[path]

    def rename(self, src, dst):
        self._tick("rename", src + " -> " + dst)
        if src not in self.files:
            raise OSError(ENOENT, "no such file: " + src)
        if self.fat and dst in self.files:
            raise OSError(EEXIST, "file exists: " + dst)
        self.files[dst] = self.files.pop(src)
        for f in self.writers:
            if f.path == src:
                f.path = dst

    def sync(self):
        self._tick("sync", "")

    def stat(self, path):
        if self.dead:
            raise PowerCut("dead")
        if path not in self.files:
            raise OSError(ENOENT, "no such file: " + path)
        return (0o100644, 0, 0, 1, 0, 0, len(self.files[path]), 0, 0, 0)

    def listdir(self, path="/"):
        if self.dead:
            raise PowerCut("dead")
        prefix = path.rstrip("/") + "/"
        return sorted(p[len(prefix) :] for p in self.files if p.startswith(prefix))
