# Power cuts on the Pico's real filesystems (littlefs v2 and FAT, as os.VfsLfs2
# and os.VfsFat in the MicroPython unix port) at every block write and erase of
# a run of saves. argv[1]: "lfs" or "fat". host_tests/test_store.py drives it;
# prints "key value" lines.
import gc
import os
import sys

from ramdisk import CutDisk

from picoyacht.store import OsFs, Store

MNT = "/cut"
VFS, BLOCKS = {"lfs": (os.VfsLfs2, 32), "fat": (os.VfsFat, 64)}[sys.argv[1]]


def payload(i):
    n = (i * 97 + 40) % 320  # some inline in littlefs metadata, some not
    return bytes((j * 3 + i * 11) & 0xFF for j in range(n))


BASE = [payload(0), payload(1)]
SESSION = [payload(i) for i in range(2, 8)]


def run(disk, saves):
    """Mount, save each payload, unmount. Returns the write count after each."""
    os.mount(VFS(disk), MNT)
    marks = []
    try:
        st = Store(OsFs(), MNT)
        for p in saves:
            if not st.save("game", p):
                raise AssertionError("save failed: " + st.last_error)
            marks.append(disk.writes)
    finally:
        os.umount(MNT)
    return marks


def load_from(disk):
    os.mount(VFS(disk), MNT)
    try:
        st = Store(OsFs(), MNT)
        return st.load("game"), st.last_error
    finally:
        os.umount(MNT)


disk = CutDisk(512, BLOCKS)
VFS.mkfs(disk)
run(disk, BASE)
base = disk.image()
disk.writes = 0
marks = run(disk, SESSION)
total = marks[-1]
print("writes", total)
tried = 0
failures = 0
recovered = 0
msgs = {}
for n in range(total):
    j = 0
    while marks[j] <= n:
        j += 1
    ok = (SESSION[j - 1] if j else BASE[-1], SESSION[j])
    for half in (False, True):
        disk.restore(base)
        disk.writes = 0
        disk.snap_at = n
        disk.half = half
        disk.snap = None
        run(disk, SESSION)
        snap = disk.snap
        disk.snap_at = -1
        disk.restore(snap)
        snap = None
        try:
            got, msg = load_from(disk)
        except OSError as e:  # littlefs did not mount: count it as a failure
            got, msg = None, "mount failed " + str(e)
        tried += 1
        if got not in ok:
            failures += 1
            print("fail", n, half, msg)
        elif msg:
            recovered += 1
            msgs[msg] = msgs.get(msg, 0) + 1
        gc.collect()
print("tried", tried)
print("recovered", recovered)
for m in sorted(msgs):
    print("message", msgs[m], m)
print("failures", failures)
