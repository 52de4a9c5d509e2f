"""Known-bad stores and filesystems: the negative controls of the save proofs.

Each is what a proof must catch. Used by host_tests/test_store.py and the stress scripts
(tools/rigs/stress_cuts.py); runs on CPython and the MicroPython unix port.
"""

from picoyacht.store import MSG_FULL, Store

from fakefs import EIO, ENOSPC


class InPlaceStore(Store):
    """Overwrites .dat directly: no temp file, no backup (its commit has nothing to do)."""

    def write(self, kind, payload):
        dat = self._paths(kind)[0]
        try:
            f = self.fs.open(dat, "wb")
            f.write(payload)
            f.close()
        except OSError as e:
            self.last_error = MSG_FULL if e.args[0] == ENOSPC else "not saved: I/O error"
            return False
        self.last_error = ""
        return True

    def load(self, kind, check=None):
        dat = self._paths(kind)[0]
        try:
            f = self.fs.open(dat, "rb")
        except OSError:
            self.last_error = ""
            return None
        data = f.read()
        f.close()
        self.last_error = ""
        return data


class RemoveFirstStore(Store):
    """Removes the kind's copies, then saves: a cut between the two loses the game even
    where a file's write is atomic (littlefs)."""

    def write(self, kind, payload):
        for path in self._paths(kind)[:2]:
            try:
                self.fs.remove(path)
            except OSError:
                pass
        self._slots.pop(kind, None)  # the slots its last save left are gone
        return Store.write(self, kind, payload)


class NoSyncFs:
    """The store's flush, close and sync do nothing."""

    def __init__(self, fs):
        self.fs = fs

    def open(self, path, mode):
        f = self.fs.open(path, mode)
        return f if "r" in mode else _NoSyncFile(f)

    def sync(self):
        pass

    def __getattr__(self, name):  # remove, rename, reboot, ops ... of the real FakeFs
        return getattr(self.fs, name)


class _NoSyncFile:
    def __init__(self, f):
        self.write = f.write

    def flush(self):
        pass

    def close(self):
        pass


class CachedNoSyncFs(NoSyncFs):
    """No flush, close or sync reaches the filesystem, yet every read sees what was written
    (an OS cache): the store's read-back passes and its saves report success, but nothing
    it writes is durable."""

    def __init__(self, fs):
        NoSyncFs.__init__(self, fs)
        self.cache = {}

    def open(self, path, mode):
        if "r" in mode and path in self.cache:
            return _Reader(self.cache[path])
        f = self.fs.open(path, mode)
        if "r" in mode:
            return f
        buf = self.cache[path] = bytearray()
        return _CachedFile(f, buf)

    def rename(self, src, dst):
        self.fs.rename(src, dst)
        if src in self.cache:
            self.cache[dst] = self.cache.pop(src)
        else:
            self.cache.pop(dst, None)

    def remove(self, path):
        self.fs.remove(path)
        self.cache.pop(path, None)


class _CachedFile(_NoSyncFile):
    def __init__(self, f, buf):
        self.f = f
        self.buf = buf

    def write(self, data):
        n = self.f.write(data)
        self.buf.extend(data)
        return n


class _Reader:
    def __init__(self, data):
        self.data = bytes(data)
        self.pos = 0

    def read(self, n=-1):
        end = len(self.data) if n < 0 else self.pos + n
        out = self.data[self.pos:end]
        self.pos += len(out)
        return out

    def close(self):
        pass


class RenameFailsFs(NoSyncFs):
    """Every rename fails: a filesystem on which no save can commit."""

    def open(self, path, mode):
        return self.fs.open(path, mode)

    def sync(self):
        self.fs.sync()

    def rename(self, src, dst):
        raise OSError(EIO, "rename")




class RotatingStore(Store):
    """Always moves the primary into the backup slot, even a corrupt one."""

    def _commit(self, paths, res, cur):
        dat, bak, tmp = paths
        try:
            self._replace(dat, bak)
        except OSError:
            pass
        self._replace(tmp, dat)
