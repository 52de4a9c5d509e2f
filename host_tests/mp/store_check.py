# Runs under the MicroPython unix port (host_tests/test_store.py drives it).
# argv[1]: a temp dir. It holds "cpy/" (files written by CPython's Store) and
# receives "mp/" (files written here, for CPython to read back).
# Prints "key value" lines; any failure raises, so the exit status is non-zero.
import gc
import os
import sys

from ramdisk import RAMBlockDev

from picoyacht import store
from picoyacht.store import OsFs, Store

KINDS = ("settings", "records", "game")
CRC_INPUTS = (b"", b"123456789", bytes(range(256)), b"PicoYacht" * 30)


def payload(kind, i):
    # Must match mp_payload() in test_store.py.
    n = (len(kind) * 37 + i * 53) % 300
    return bytes((j * 7 + i * 13 + len(kind)) & 0xFF for j in range(n))


def hexs(b):
    return "".join("%02x" % x for x in b)


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def crcs():
    native = store._crc32_native
    for i, data in enumerate(CRC_INPUTS):
        print("crc", i, store.crc32(data), store.crc32_py(data))
    print("crc_inc", store.crc32_py(b"6789", store.crc32_py(b"12345")))
    print("native", native is not None)


def real_dir(base):
    fs = OsFs()
    mine = base + "/mp"
    try:
        os.mkdir(mine)
    except OSError:
        pass
    st = Store(fs, mine)
    for k in KINDS:
        for i in range(3):
            check(st.save(k, payload(k, i)), "save " + k)
            check(st.load(k) == payload(k, i), "load " + k)
    print("mp_saved ok")
    # Files CPython wrote: same bytes on both interpreters.
    theirs = Store(fs, base + "/cpy")
    for k in KINDS:
        got = theirs.load(k)
        print("cpy_load", k, hexs(got) if got is not None else "None", theirs.last_error or "-")
    # The pure-Python CRC writes the same files as the native one.
    saved = store._crc32_native
    store._crc32_native = None
    try:
        pure = Store(fs, base + "/pure")
        try:
            os.mkdir(base + "/pure")
        except OSError:
            pass
        check(pure.save("game", payload("game", 1)), "pure save")
        check(pure.load("game") == payload("game", 1), "pure load")
    finally:
        store._crc32_native = saved
    # Corrupt the primary on the real filesystem: the backup must be used.
    p = mine + "/game.dat"
    with open(p, "rb") as f:
        blob = bytearray(f.read())
    blob[20] ^= 0x40
    with open(p, "wb") as f:
        f.write(blob)
    got = st.load("game")
    check(got == payload("game", 1), "fallback")
    print("fallback", st.last_error)


def on_vfs(name, cls, blocks):
    bd = RAMBlockDev(512, blocks)
    cls.mkfs(bd)
    mnt = "/" + name
    os.mount(cls(bd), mnt)
    try:
        st = Store(OsFs(), mnt)
        for i in range(4):
            check(st.save("game", payload("game", i)), name + " save")
        check(st.load("game") == payload("game", 3), name + " load")
        names = sorted(os.listdir(mnt))
        print(name, "files", ",".join(names))
        # Fill the flash with closed files (littlefs drops a file whose write
        # failed), then try to save something bigger: refused cleanly.
        zeros = bytes(512)
        i = 0
        while True:
            try:
                with open(mnt + "/fill%d" % i, "wb") as f:
                    f.write(zeros)
            except OSError as e:
                check(e.args[0] == 28, name + " filler")
                break
            i += 1
        # Bigger than littlefs can inline into a directory block.
        big = bytes(range(200)) * 8
        ok = st.save("game", big)
        print(name, "full", ok, st.last_error)
        check(not ok and st.last_error == store.MSG_FULL, name + " full")
        check(st.load("game") == payload("game", 3), name + " previous kept")
        check("game.tmp" not in os.listdir(mnt), name + " tmp removed")
    finally:
        os.umount(mnt)
    bd = None
    gc.collect()


crcs()
real_dir(sys.argv[1])
gc.collect()
on_vfs("fat", os.VfsFat, 64)
on_vfs("lfs", os.VfsLfs2, 32)
print("done")
