"""store.py: framing, atomic saves, power cuts at every step, corruption fuzz,
full flash, and the same files and CRCs on MicroPython, whose real littlefs and FAT take
a power cut at every block write.

A twin module: tests marked micropython run on the MicroPython unix port too
(host_tests/mp/README.md); hypothesis properties run on CPython."""

import os
import random
import struct
from binascii import crc32  # the oracle's CRC: zlib's on CPython

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from picoyacht import store
from picoyacht.roller import Roller
from picoyacht.store import HEADER_SIZE, MSG_FULL, OsFs, Store

from brokenfs import CachedNoSyncFs, InPlaceStore, RotatingStore
from fakefs import EIO, ENOSPC, FakeFile, FakeFs, PowerCut

STRESS = os.getenv("PICOYACHT_STRESS") == "1"
KINDS = ("settings", "records", "game")
KIND_IDS = {"settings": 1, "records": 2, "game": 3}
SLOTS = (".dat", ".bak", ".tmp")


def snapshot(i, n):
    """A stand-in game snapshot: a small header and n-4 bytes of 'scores'."""
    r = Roller(i)  # random bytes on both interpreters
    body = bytes(r.rand15() & 0xFF for _ in range(max(0, n - 4)))
    return (struct.pack("<HBB", i & 0xFFFF, 4, i % 13) + body)[:n]


# ------------------------------------------------------------------ oracle
# An independent reading of the documented format (zlib for the CRC), used
# to say what load() must return for any set of files.
def decode(blob, kind):
    if blob is None or len(blob) < 16:
        return None
    magic, ver, kid, n, seq, crc = struct.unpack("<4sBBHII", bytes(blob[:16]))
    if magic != b"PYST" or ver != 1 or kid != KIND_IDS[kind] or len(blob) != 16 + n:
        return None
    if n > 4096 or crc32(bytes(blob[16:]), crc32(bytes(blob[:12]))) != crc:
        return None
    return seq, bytes(blob[16:])


def expected(files, kind, root="/"):
    """(payload, slot) of the newest valid copy; ties go to .dat, then .bak."""
    best = None
    for slot in SLOTS:
        d = decode(files.get(root + kind + slot), kind)
        if d is not None and (best is None or d[0] > best[0]):
            best = (d[0], d[1], slot)
    return (None, None) if best is None else (best[1], best[2])


def frame(kind, seq, payload, version=1, kid=None):
    head = struct.pack("<4sBBHI", b"PYST", version, kid or KIND_IDS[kind], len(payload), seq)
    return head + struct.pack("<I", crc32(payload, crc32(head))) + payload


# ------------------------------------------------------------------ CRC
CRC_INPUTS = (b"", b"123456789", bytes(range(256)), b"PicoYacht" * 30)


def test_crc32_pure_matches_zlib():
    assert store.crc32_py(b"123456789") == 0xCBF43926  # the standard check value
    rng = random.Random(1)
    for n in list(range(40)) + [255, 256, 300, 1000]:
        data = bytes(rng.randrange(256) for _ in range(n))
        start = rng.choice((0, 1, 0xFFFFFFFF, rng.randrange(1 << 32)))
        assert store.crc32_py(data, start) == crc32(data, start)
        assert store.crc32(data, start) == crc32(data, start)
        assert store.crc32_py(memoryview(data)) == crc32(data)
        cut = n // 3
        assert store.crc32_py(data[cut:], store.crc32_py(data[:cut])) == crc32(data)


def test_header_layout_and_size():
    fs = FakeFs()
    s = Store(fs)
    payload = snapshot(7, 123)
    assert s.save("game", payload)
    blob = bytes(fs.files["/game.dat"])
    assert HEADER_SIZE == 16
    assert len(blob) == HEADER_SIZE + len(payload)
    assert blob[:4] == b"PYST" and blob[4] == 1 and blob[5] == 3
    assert blob == frame("game", 1, payload)
    assert s.save("game", payload)
    assert struct.unpack("<I", fs.files["/game.dat"][8:12])[0] == 2  # seq counts saves


def test_pure_crc_writes_identical_files(monkeypatch):
    a, b = FakeFs(), FakeFs()
    for k in KINDS:
        Store(a).save(k, snapshot(len(k), 200))
    monkeypatch.setattr(store, "_crc32_native", None)
    for k in KINDS:
        Store(b).save(k, snapshot(len(k), 200))
        assert Store(a).load(k) == snapshot(len(k), 200)  # read with pure CRC
    assert a.files == b.files


# ------------------------------------------------------------------ round trips
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("backend", ["osfs", "fakefs", "fakefs-fat"])
def test_round_trip(kind, backend, tmp_path):
    if backend == "osfs":
        fs, root = OsFs(), str(tmp_path)
    else:
        fs, root = FakeFs(fat=backend.endswith("fat")), "/data"
    s = Store(fs, root)
    assert s.load(kind) is None and s.last_error == ""
    for i, n in enumerate((0, 1, 100, 300, 4096)):
        p = snapshot(i, n)
        assert s.save(kind, p) is True and s.last_error == ""
        assert s.load(kind) == p and s.last_error == ""
        assert Store(fs, root + "/").load(kind) == p
    for other in KINDS:
        if other != kind:
            assert s.load(other) is None  # kinds do not leak into each other
    names = sorted(os.listdir(root)) if backend == "osfs" else fs.listdir(root)
    assert names == [kind + ".bak", kind + ".dat"]
    assert s.delete(kind) and s.load(kind) is None and s.last_error == ""
    assert s.delete(kind)  # deleting nothing is fine


def test_osfs_falls_back_to_backup_on_real_files(tmp_path):
    s = Store(OsFs(), str(tmp_path))
    assert s.save("records", b"old") and s.save("records", b"new")
    p = tmp_path / "records.dat"
    p.write_bytes(p.read_bytes()[:-1])
    assert s.load("records") == b"old"
    assert s.last_error == "save corrupt: using backup"
    assert s.save("records", b"newer")
    assert (tmp_path / "records.bak").read_bytes() == frame("records", 1, b"old")
    assert s.load("records") == b"newer"


def test_bytes_like_payloads_and_limits():
    s = Store(FakeFs())
    assert s.save("game", bytearray(b"abc")) and s.load("game") == b"abc"
    assert s.save("game", memoryview(b"xyz")) and s.load("game") == b"xyz"
    assert s.save("game", bytes(store.MAX_PAYLOAD))
    assert not s.save("game", bytes(store.MAX_PAYLOAD + 1))
    assert s.last_error == "not saved: too big"
    assert s.load("game") == bytes(store.MAX_PAYLOAD)
    with pytest.raises(ValueError):
        s.save("highscores", b"x")
    with pytest.raises(ValueError):
        s.load("highscores")


def test_messages_for_each_fallback():
    fs = FakeFs()
    s = Store(fs)
    for p in (b"one", b"two"):
        assert s.save("game", p)
    good = dict(fs.files)

    def with_files(**change):
        fs.files = {k: bytearray(v) for k, v in good.items()}
        for slot, blob in change.items():
            path = "/game." + slot
            if blob is None:
                fs.files.pop(path, None)
            else:
                fs.files[path] = bytearray(blob)
        return s.load("game"), s.last_error

    assert with_files() == (b"two", "")
    assert with_files(dat=b"junk") == (b"one", "save corrupt: using backup")
    assert with_files(dat=None) == (b"one", "save missing: using backup")
    assert with_files(dat=frame("game", 9, b"v2", version=2)) == (
        b"one",
        "save from newer firmware: using backup",
    )
    assert with_files(dat=frame("game", 9, b"x", kid=1)) == (b"one", "save corrupt: using backup")
    assert with_files(dat=b"", bak=b"") == (None, "save corrupt: lost")
    assert with_files(dat=frame("game", 9, b"v2", version=2), bak=None) == (
        None,
        "save from newer firmware: ignored",
    )
    assert with_files(tmp=frame("game", 3, b"three")) == (b"three", "save interrupted: recovered")
    assert with_files(dat=None, tmp=frame("game", 3, b"three")) == (
        b"three",
        "save interrupted: recovered",
    )
    assert with_files(tmp=frame("game", 1, b"stale")) == (b"two", "")  # older leftover ignored
    assert with_files(dat=good["/game.bak"], bak=good["/game.dat"]) == (
        b"two",
        "save stale: using backup",
    )
    assert with_files(dat=good["/game.dat"] + b"\0") == (b"one", "save corrupt: using backup")
    fs.fail("open_r", OSError(EIO, "io"), path="game.dat", times=1)
    assert with_files() == (b"one", "save unreadable: using backup")


def test_a_copy_the_game_refuses_never_replaces_the_good_backup():
    """Checksum right, content wrong (a firmware bug could write that): with the game's
    check, load falls back to the backup, and the next save keeps that good backup."""
    fs = FakeFs()
    s = Store(fs)
    assert s.save("settings", b"good")
    assert s.save("settings", b"BAD!")  # stands for garbage written with a valid CRC

    def check(p):
        return p != b"BAD!"

    boot = Store(fs.reboot())
    assert boot.load("settings", check) == b"good"
    assert boot.last_error == "save invalid: using backup"
    assert boot.save("settings", b"new")
    assert boot.load("settings", check) == b"new"
    fs.files["/settings.dat"][-1] ^= 1  # now lose the new primary too
    assert Store(fs.reboot()).load("settings", check) == b"good"  # not the refused copy
    # Without the check, the same files would have rotated the refused copy into .bak.
    fs2 = FakeFs()
    s2 = Store(fs2)
    s2.save("settings", b"good")
    s2.save("settings", b"BAD!")
    s2.save("settings", b"new")
    fs2.files["/settings.dat"][-1] ^= 1
    assert Store(fs2.reboot()).load("settings") == b"BAD!"


def test_check_that_raises_counts_as_a_refusal():
    fs = FakeFs()
    s = Store(fs)
    s.save("records", b"r1")
    s.save("records", b"r2")

    def check(p):
        if p == b"r2":
            raise ValueError("unparseable")
        return True

    assert Store(fs.reboot()).load("records", check) == b"r1"


def test_first_save_cut_is_not_reported_as_a_loss():
    """Power lost during the very first save of a kind: nothing had been saved, so boot
    is silent (no "corrupt: lost")."""
    for cut in range(1, HEADER_SIZE + 7):
        fs = FakeFs()
        fs.files["/game.tmp"] = bytearray(frame("game", 1, b"partial")[:cut])
        boot = Store(fs.reboot())
        assert boot.load("game") is None
        assert boot.last_error == ""


# ------------------------------------------------------------------ power cuts
# A play session: mostly game snapshots of varying length, with settings and
# records saved in between.
SESSION = [
    ("game", snapshot(1, 120)),
    ("settings", snapshot(50, 9)),
    ("game", snapshot(2, 37)),
    ("game", snapshot(3, 300)),
    ("records", snapshot(60, 64)),
    ("game", snapshot(4, 0)),
    ("game", snapshot(5, 211)),
    ("settings", snapshot(51, 12)),
    ("game", snapshot(6, 1)),
    ("game", snapshot(7, 160)),
]


def play(fs, session):
    """Save the session in order until done or the power goes.

    Returns the index of the save in progress at the cut (len(session) if none)."""
    s = Store(fs)
    for i, (kind, payload) in enumerate(session):
        try:
            ok = s.save(kind, payload)
        except PowerCut:
            return i
        assert ok, s.last_error
    return len(session)


def allowed(session, upto, kind):
    """What load(kind) may return after a cut during save number ``upto``:
    the last completed save of that kind, or the one that was being written."""
    last = None
    for k, p in session[:upto]:
        if k == kind:
            last = p
    ok = {last}
    if upto < len(session) and session[upto][0] == kind:
        ok.add(session[upto][1])
    return ok


def count_units(files, fat, fn, lfs=False):
    fs = FakeFs({p: bytearray(d) for p, d in files.items()}, fat=fat, lfs=lfs)
    fn(fs)
    return fs.ops


@pytest.mark.parametrize("fat,lfs", [(False, False), (True, False), (False, True)],
                         ids=["rename-replaces", "fat-rename", "littlefs"])
def test_power_cut_at_every_step(fat, lfs):
    """A cut at every unit of a session's saves, and a second cut in the save after it.
    Controls (test_power_cut_proof_catches_a_broken_store): a store writing in place, and
    one that never flushes nor syncs but reads back what it wrote, both fail this proof."""
    rng = random.Random(2024)
    total = count_units({}, fat, lambda fs: play(fs, SESSION), lfs)
    tried = failures = 0
    for cut in range(1, total + 1):
        fs = FakeFs(cut_at=cut, fat=fat, lfs=lfs)
        upto = play(fs, SESSION)
        assert fs.dead and upto < len(SESSION)
        tried += 1
        after = fs.reboot()
        s = Store(after)
        got = {}
        for kind in KINDS:
            got[kind] = s.load(kind)
            if got[kind] not in allowed(SESSION, upto, kind):
                failures += 1
            if got[kind] != expected(after.files, kind)[0]:
                failures += 1
        # Second cut at a random point of the next save, from this state on.
        new = snapshot(1000 + cut, rng.randrange(301))

        def resave(fs2, payload=new):
            Store(fs2).save("game", payload)

        units = count_units(after.files, fat, resave, lfs)
        cut2 = rng.randrange(1, units + 1)
        fs2 = FakeFs({p: bytearray(d) for p, d in after.files.items()}, cut_at=cut2, fat=fat,
                     lfs=lfs)
        with pytest.raises(PowerCut):
            resave(fs2)
        tried += 1
        again = Store(fs2.reboot())
        if again.load("game") not in (got["game"], new):
            failures += 1
        # And the store still works after all that.
        assert again.save("game", b"final") and again.load("game") == b"final"
    print(
        "\npower cuts (%s): %d cut points tried, %d failures"
        % ("fat" if fat else "littlefs model" if lfs else "byte model", tried, failures)
    )
    assert total > 0 and tried == 2 * total
    assert failures == 0


def _saves_then_delete(fs):
    """SESSION's saves, then the game's delete (every kind of unit), until a cut."""
    if play(fs, SESSION) == len(SESSION):
        try:
            Store(fs).delete("game")
        except PowerCut:
            pass


@pytest.mark.parametrize("lfs,every", [(False, 1), (False, 7), (True, 1), (True, 3)])
def test_witness_keeps_what_each_cut_leaves(lfs, every):
    """FakeFs(witness=k) lets one run stand for a run cut at each k-th unit (the app-level
    cut proof, tools/rigs/stress_cuts.py, rests on it): what it keeps for unit n is what a
    run with cut_at=n leaves. Control: test_witness_proof_catches_a_wrong_witness."""
    fs = FakeFs(lfs=lfs, witness=every)
    _saves_then_delete(fs)
    assert [n for n, _ in fs.survivors] == list(range(1, fs.ops + 1, every))
    for n, files in fs.survivors:
        cut = FakeFs(cut_at=n, lfs=lfs)
        _saves_then_delete(cut)
        assert cut.dead, n
        assert {p: bytes(d) for p, d in cut.reboot().files.items()} == files, n


@pytest.mark.parametrize("lfs,wrong", [(False, "whole"), (True, "after"), (False, "skip")])
def test_witness_proof_catches_a_wrong_witness(monkeypatch, lfs, wrong):
    """Witnesses that keep a cut write's bytes whole, take the files after the unit
    instead of before it, or skip the units of writes must each fail the proof above."""
    if wrong == "whole":
        keep = FakeFs._survivor
        monkeypatch.setattr(FakeFs, "_survivor",
                            lambda fs, n, partial=None, extra=b"": keep(fs, n))
    elif wrong == "after":
        monkeypatch.setattr(FakeFs, "_witness_op", lambda fs: None)

        def late(cls, name, fs_of):
            call = getattr(cls, name)

            def after(obj, *args):
                fs = fs_of(obj)
                before = fs.ops
                try:
                    return call(obj, *args)
                finally:
                    if fs.witness and fs.ops != before:
                        fs._survivor(fs.ops)  # the unit's files once it took effect
            monkeypatch.setattr(cls, name, after)
        for name in ("open", "remove", "rename", "sync"):
            late(FakeFs, name, lambda fs: fs)
        for name in ("flush", "close"):
            late(FakeFile, name, lambda f: f.fs)
    else:
        monkeypatch.setattr(FakeFs, "_witness_write", lambda fs, dst, data, units: None)
    with pytest.raises(AssertionError):
        test_witness_keeps_what_each_cut_leaves(lfs, 1)


def _no_sync_store(fs, root="/"):
    return store.Store(CachedNoSyncFs(fs), root)  # (the module's: the control patches Store)


@pytest.mark.parametrize("broken,fat,lfs", [(InPlaceStore, False, False),
                                            (_no_sync_store, False, True)],
                         ids=["in-place", "no-sync-reads-back"])
def test_power_cut_proof_catches_a_broken_store(monkeypatch, broken, fat, lfs):
    """The negative control of test_power_cut_at_every_step: the same proof, run over a
    store that writes game.dat in place, or one whose saves all read back fine but never
    reach the flash (no flush, close or sync: littlefs keeps none of it), must fail."""
    import sys

    monkeypatch.setattr(sys.modules[__name__], "Store", broken)
    with pytest.raises(AssertionError):
        test_power_cut_at_every_step(fat, lfs)


@pytest.mark.parametrize("fat", [False, True], ids=["rename-replaces", "fat-rename"])
def test_power_cut_every_step_of_recovery(fat):
    """Every cut of the save that has to finish an interrupted one first."""
    tried = 0
    base_total = count_units({}, fat, lambda fs: play(fs, SESSION[:4]))
    for cut in range(base_total - 40, base_total + 1):
        fs = FakeFs(cut_at=cut, fat=fat)
        upto = play(fs, SESSION[:4])
        before = fs.reboot()
        if expected(before.files, "game")[1] != ".tmp":
            continue  # only states with a complete, newer temp file
        was = Store(before).load("game")
        assert was == SESSION[upto][1]

        def resave(fs2):
            Store(fs2).save("game", b"after recovery")

        units = count_units(before.files, fat, resave)
        for cut2 in range(1, units + 1):
            fs2 = FakeFs({p: bytearray(d) for p, d in before.files.items()}, cut_at=cut2, fat=fat)
            with pytest.raises(PowerCut):
                resave(fs2)
            tried += 1
            assert Store(fs2.reboot()).load("game") in (was, b"after recovery")
    print("\nrecovery cuts (%s): %d cut points tried" % ("fat" if fat else "littlefs", tried))
    assert tried > 50


def test_power_cut_during_delete():
    fs = FakeFs()
    play(fs, SESSION)
    last = [p for k, p in SESSION if k == "game"][-1]
    total = count_units(fs.files, False, lambda f: Store(f).delete("game"))
    assert total >= 3
    for cut in range(1, total + 1):
        f = FakeFs({p: bytearray(d) for p, d in fs.files.items()}, cut_at=cut)
        with pytest.raises(PowerCut):
            Store(f).delete("game")
        assert Store(f.reboot()).load("game") in (last, None)


def test_steady_state_files_after_each_save():
    fs = FakeFs()
    s = Store(fs)
    prev = None
    for i in range(6):
        p = snapshot(i, 50 + 40 * i)
        assert s.save("game", p)
        assert decode(fs.files["/game.dat"], "game") == (i + 1, p)
        if prev is not None:
            assert decode(fs.files["/game.bak"], "game") == (i, prev)
        assert "/game.tmp" not in fs.files
        prev = p


@pytest.mark.micropython
def test_a_save_in_two_halves():
    """write() leaves the verified .tmp as the current copy, which a boot (a new store on
    the same files) loads; commit() then renames it into .dat with the old .dat as .bak,
    as one save() does. A load, a delete or another write in between leaves nothing for
    the commit to do, and no copy comes back that should not."""
    fs = FakeFs()
    s = Store(fs)
    assert s.save("game", b"one")
    assert s.write("game", b"two")
    assert decode(fs.files["/game.tmp"], "game") == (2, b"two")
    assert fs.files["/game.dat"][16:] == b"one"
    assert Store(fs.reboot()).load("game") == b"two"
    assert s.commit("game")
    assert fs.files["/game.dat"][16:] == b"two" and fs.files["/game.bak"][16:] == b"one"
    assert "/game.tmp" not in fs.files
    assert s.commit("game")  # nothing waits: nothing changes
    assert fs.files["/game.dat"][16:] == b"two" and fs.files["/game.bak"][16:] == b"one"
    assert s.write("game", b"three") and s.write("game", b"four")  # the second ends the first
    assert s.commit("game")
    assert fs.files["/game.dat"][16:] == b"four" and fs.files["/game.bak"][16:] == b"three"
    assert s.write("game", b"five") and s.delete("game")
    assert s.commit("game")
    assert not [p for p in fs.files if p.startswith("/game.")]
    assert Store(fs.reboot()).load("game") is None


# ------------------------------------------------------------------ corruption fuzz
def _base_states():
    """Real on-flash states: the session cut at many points, plus clean ends."""
    states = []
    total = count_units({}, False, lambda fs: play(fs, SESSION))
    for cut in list(range(1, total + 1, 7)) + [None]:
        for fat in (False, True):
            fs = FakeFs(cut_at=cut, fat=fat)
            play(fs, SESSION)
            states.append(fs.files)
    return states


SAVED_GAMES = {p for k, p in SESSION if k == "game"}
OTHER_FILE = frame("settings", 5, b"not a game")


def mutate(files, rng):
    """Apply one random damage to one of the game files; returns its name."""
    slot = "/game" + rng.choice(SLOTS)
    blob = files.get(slot)
    op = rng.randrange(12)
    if blob is None or op >= 9:
        if op == 9:  # swap two slots (either may be missing)
            other = "/game" + rng.choice(SLOTS)
            a, b = files.pop(slot, None), files.pop(other, None)
            if a is not None:
                files[other] = a
            if b is not None:
                files[slot] = b
            return "swap"
        if op == 10:  # a copy of another slot (or another kind's file)
            src = files.get("/game" + rng.choice(SLOTS))
            files[slot] = bytearray(OTHER_FILE if src is None else src)
            return "copy"
        files[slot] = bytearray(rng.randbytes(rng.randrange(0, 80)))
        return "garbage"
    if op == 0 and blob:
        i = rng.randrange(len(blob))
        blob[i] ^= 1 << rng.randrange(8)
        return "bitflip"
    if op == 1 and blob:
        i = rng.randrange(len(blob))
        blob[i] ^= rng.randrange(1, 256)
        return "byte"
    if op == 2 and blob:
        del blob[rng.randrange(len(blob)) :]
        return "truncate"
    if op == 3:
        blob += rng.randbytes(rng.randrange(1, 30))
        return "extend"
    if op == 4:
        del blob[:]
        return "empty"
    if op == 5:
        del files[slot]
        return "delete"
    if op == 6 and len(blob) >= 16:  # consistent header, other version / kind / length
        head = bytearray(blob[:12])
        field = rng.randrange(3)
        if field == 0:
            head[4] = rng.choice((0, 2, 3, 255))
        elif field == 1:
            head[5] = rng.choice((0, 1, 2, 4))
        else:
            head[6:8] = struct.pack("<H", (len(blob) - 16 + rng.randrange(1, 9)) & 0xFFFF)
        body = bytes(blob[16:])
        files[slot] = bytearray(
            head + struct.pack("<I", crc32(body, crc32(bytes(head)))) + body
        )
        return "header"
    if op == 7 and blob:  # a write that stopped part way (zero-filled tail)
        i = rng.randrange(len(blob))
        blob[i:] = bytes(len(blob) - i)
        return "zerotail"
    blob[rng.randrange(len(blob) + 1) :] = b"\xff" * rng.randrange(1, 8)
    return "erased"


def corrupt_for_sure(blob, rng):
    """A damage the CRC/length checks must catch."""
    op = rng.randrange(5)
    if op == 0:
        blob[rng.randrange(len(blob))] ^= 1 << rng.randrange(8)
    elif op == 1:
        blob[rng.randrange(len(blob))] ^= rng.randrange(1, 256)
    elif op == 2:
        del blob[rng.randrange(len(blob)) :]
    elif op == 3:
        blob += rng.randbytes(rng.randrange(1, 30))
    else:
        del blob[:]


def test_corruption_fuzz():
    """Damage of every kind to a session's files: load() returns what the oracle reads, and
    a save on top keeps the copy load() used as the backup. Control
    (test_corruption_fuzz_catches_a_store_that_rotates_bad_copies): a store that moves even
    a damaged primary into the backup slot fails it."""
    rng = random.Random(0xC0FFEE)
    states = _base_states()
    iterations = 10_000 * (10 if STRESS else 1)
    mutations = checks = 0
    for it in range(iterations):
        files = {p: bytearray(d) for p, d in rng.choice(states).items()}
        for _ in range(rng.randrange(1, 4)):
            mutate(files, rng)
            mutations += 1
        fs = FakeFs(files, fat=rng.random() < 0.5)
        s = Store(fs)
        want, slot = expected(fs.files, "game")
        got = s.load("game")
        checks += 1
        assert got == want
        assert got is None or got in SAVED_GAMES
        never_saved = want is None and not {"/game.dat", "/game.bak"} & set(fs.files)
        if slot == ".dat" or never_saved or not any(p.startswith("/game") for p in fs.files):
            assert s.last_error == ""
        else:
            assert s.last_error.startswith("save "), s.last_error
        # A save on top of the damage keeps what load() showed as the backup,
        # and never moves a bad file into the backup slot.
        best = bytes(fs.files["/game" + slot]) if slot else None
        bak_before = fs.files.get("/game.bak")
        bak_before = None if bak_before is None else bytes(bak_before)
        new = snapshot(10_000 + it, rng.randrange(0, 301))
        assert s.save("game", new) and s.last_error == ""
        bak = fs.files.get("/game.bak")
        if best is not None:
            assert bytes(bak) == best
        else:
            assert (None if bak is None else bytes(bak)) == bak_before
        assert "/game.tmp" not in fs.files
        assert Store(fs.reboot()).load("game") == new
        corrupt_for_sure(fs.files["/game.dat"], rng)
        mutations += 1
        again = s.load("game")
        assert again == want  # the old good copy, or nothing -- never garbage
        assert s.last_error.startswith("save ")
        checks += 1
    print("\ncorruption fuzz: %d mutations over %d loads, 0 failures" % (mutations, checks))
    assert mutations >= 10_000


def test_corruption_fuzz_catches_a_store_that_rotates_bad_copies(monkeypatch):
    import sys

    monkeypatch.setattr(sys.modules[__name__], "Store", RotatingStore)
    with pytest.raises(AssertionError):
        test_corruption_fuzz()


# Hypothesis: any interleaving of saves, damage, reboots and deletes.
ACTIONS = st.one_of(
    st.tuples(st.just("save"), st.sampled_from(KINDS), st.binary(max_size=300)),
    st.tuples(
        st.just("damage"),
        st.sampled_from(KINDS),
        st.sampled_from(SLOTS),
        st.integers(0, 5),
        st.integers(0, 400),
        st.integers(1, 255),
    ),
    st.tuples(st.just("reboot")),
    st.tuples(st.just("delete"), st.sampled_from(KINDS)),
)


@settings(
    max_examples=300 if STRESS else 60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(st.lists(ACTIONS, max_size=25), st.booleans())
def test_property_any_history(actions, fat):
    fs = FakeFs(fat=fat)
    s = Store(fs)
    saved = {k: set() for k in KINDS}
    last = {k: None for k in KINDS}
    clean = {k: True for k in KINDS}  # no damage since the last save/delete
    for act in actions:
        if act[0] == "save":
            _, kind, payload = act
            assert s.save(kind, payload)
            saved[kind].add(payload)
            last[kind] = payload
            clean[kind] = True
        elif act[0] == "damage":
            _, kind, slot, how, pos, val = act
            blob = fs.files.get("/" + kind + slot)
            if blob is None:
                continue
            if how == 0 and blob:
                blob[pos % len(blob)] ^= val
            elif how == 1:
                del blob[pos % (len(blob) + 1) :]
            elif how == 2:
                blob += bytes([val]) * (pos % 9 + 1)
            elif how == 3:
                fs.files["/" + kind + SLOTS[(SLOTS.index(slot) + 1) % 3]] = bytearray(blob)
            elif how == 4:
                del fs.files["/" + kind + slot]
            else:
                other = KINDS[(KINDS.index(kind) + 1) % 3]
                fs.files["/" + other + slot] = bytearray(blob)
                kind = other
            clean[kind] = False
        elif act[0] == "reboot":
            fs = fs.reboot()
            s = Store(fs)
        else:
            assert s.delete(act[1])
            last[act[1]] = None
            clean[act[1]] = True
        for kind in KINDS:
            got = s.load(kind)
            assert got == expected(fs.files, kind)[0]
            assert got is None or got in saved[kind]
            if clean[kind]:
                assert got == last[kind]


# ------------------------------------------------------------------ full flash, I/O errors
def test_full_flash_keeps_previous():
    fs = FakeFs(capacity=400)
    s = Store(fs)
    assert s.save("game", snapshot(1, 100))
    assert s.save("game", snapshot(2, 100))  # .dat + .bak = 232 bytes
    assert not s.save("game", snapshot(3, 200))
    assert s.last_error == MSG_FULL == "not saved: flash full"
    assert "/game.tmp" not in fs.files
    assert s.load("game") == snapshot(2, 100) and s.last_error == ""
    assert Store(fs.reboot()).load("game") == snapshot(2, 100)
    assert s.save("game", snapshot(4, 100))  # room again once it fits


@pytest.mark.parametrize("fat", [False, True])
def test_full_flash_at_every_capacity(fat):
    """Whatever the free space, save either works or says 'flash full', and
    load returns the last save that worked. Control
    (test_full_flash_proof_catches_a_store_that_writes_in_place): a store that writes
    game.dat in place fails it (a full flash leaves half a file)."""
    session = [p for k, p in SESSION if k == "game"]
    need = 3 * (HEADER_SIZE + max(len(p) for p in session))
    refusals = 0
    for cap in range(0, need + 1, 3):
        fs = FakeFs(capacity=cap, fat=fat)
        s = Store(fs)
        last = None
        for p in session:
            if s.save("game", p):
                last = p
            else:
                refusals += 1
                assert s.last_error == MSG_FULL
                assert "/game.tmp" not in fs.files
            assert Store(fs.reboot()).load("game") == last
    assert refusals > 0


def test_full_flash_proof_catches_a_store_that_writes_in_place(monkeypatch):
    import sys

    monkeypatch.setattr(sys.modules[__name__], "Store", InPlaceStore)
    with pytest.raises(AssertionError):
        test_full_flash_at_every_capacity(False)


@pytest.mark.parametrize("op", ["open_w", "write", "flush", "close", "rename", "sync", "remove"])
def test_io_error_at_every_step(op):
    """An OSError at any one operation: no exception, a message, and the
    previous (or, if the error came after the commit, the new) payload loads."""
    tried = 0
    for nth in range(8):
        fs = FakeFs(fat=op == "remove")  # FAT mode makes the store call remove
        s = Store(fs)
        assert s.save("game", b"before") and s.save("game", b"previous")
        fs.fail(op, OSError(EIO, "io"), skip=nth, times=1)
        ok = s.save("game", b"next")
        if not fs.fired:
            assert ok  # fewer than nth+1 calls of op in a save
            continue
        tried += 1
        if not ok:
            assert s.last_error.startswith("not saved: I/O error "), s.last_error
        got = Store(fs.reboot()).load("game")
        assert got in (b"previous", b"next")
        if not ok and op in ("open_w", "write", "flush", "close"):
            assert got == b"previous"
        assert "/game.tmp" not in fs.files or got == b"next"
        assert s.save("game", b"later") and s.load("game") == b"later"
    assert tried > 0


def test_write_that_lands_wrong_is_caught_by_read_back():
    fs = FakeFs()
    s = Store(fs)
    assert s.save("game", b"one") and s.save("game", b"two")
    fs.mangle = lambda path, data: data[:-1] + bytes([data[-1] ^ 1])
    assert not s.save("game", b"three")
    assert s.last_error == "not saved: write check failed"
    assert sorted(fs.files) == ["/game.bak", "/game.dat"]
    fs.mangle = None
    assert s.load("game") == b"two"
    assert decode(fs.files["/game.bak"], "game") == (1, b"one")


def test_osfs_sync_with_and_without_os_sync(monkeypatch):
    calls = []
    monkeypatch.setattr(store.os, "sync", lambda: calls.append(1), raising=False)
    OsFs().sync()
    assert calls == [1]
    monkeypatch.delattr(store.os, "sync")
    OsFs().sync()  # MicroPython's unix port has no os.sync: a no-op
    assert calls == [1]


def test_enospc_on_rename_is_flash_full():
    fs = FakeFs()
    s = Store(fs)
    assert s.save("settings", b"a") and s.save("settings", b"b")
    fs.fail("rename", OSError(ENOSPC, "full"), times=1)
    assert not s.save("settings", b"c")
    assert s.last_error == MSG_FULL
    assert s.load("settings") == b"b"


# ------------------------------------------------------------------ MicroPython
CRC_INPUTS = (b"", b"123456789", bytes(range(256)), b"PicoYacht" * 30)


def mp_payload(kind, i):
    n = (len(kind) * 37 + i * 53) % 300
    return bytes((j * 7 + i * 13 + len(kind)) & 0xFF for j in range(n))


def crcs():
    """Both CRCs of each input, and one computed in two pieces (compared with zlib)."""
    out = [(store.crc32(data), store.crc32_py(data)) for data in CRC_INPUTS]
    return out, store.crc32_py(b"6789", store.crc32_py(b"12345"))


def read_dir(path):
    out = {}
    for name in sorted(os.listdir(path)):
        with open(path + "/" + name, "rb") as f:
            out[name] = f.read()
    return out


def saves_on_disk(base):
    """Through OsFs into the new directory `base`: three saves of every kind, then the
    pure-Python CRC's file, then the backup taking over from a corrupted primary. Returns
    the files and that message, compared across interpreters."""
    fs = OsFs()
    os.mkdir(base)
    st = Store(fs, base)
    for k in KINDS:
        for i in range(3):
            assert st.save(k, mp_payload(k, i)), k
            assert st.load(k) == mp_payload(k, i), k
    files = read_dir(base)
    native = store._crc32_native
    store._crc32_native = None
    try:
        os.mkdir(base + "/pure")
        pure = Store(fs, base + "/pure")
        assert pure.save("game", mp_payload("game", 1))
        assert pure.load("game") == mp_payload("game", 1)
    finally:
        store._crc32_native = native
    files["pure/game.dat"] = read_dir(base + "/pure")["game.dat"]
    with open(base + "/game.dat", "rb") as f:
        blob = bytearray(f.read())
    blob[20] ^= 0x40
    with open(base + "/game.dat", "wb") as f:
        f.write(blob)
    assert st.load("game") == mp_payload("game", 1)  # from the backup
    return files, st.last_error


def test_micropython_crcs_equal_binascii():
    from conftest import micropython_call

    native = [(crc32(d), crc32(d)) for d in CRC_INPUTS]
    assert micropython_call("test_store", "crcs") == (native, crc32(b"123456789"))


def test_micropython_writes_and_reads_the_same_files(tmp_path):
    from conftest import micropython_call

    files, msg = saves_on_disk(str(tmp_path / "cpy"))
    assert msg == "save corrupt: using backup"
    assert files["pure/game.dat"] == frame("game", 1, mp_payload("game", 1))
    assert micropython_call("test_store", "saves_on_disk", str(tmp_path / "mp")) == (files, msg)
    # and what MicroPython wrote loads here
    theirs = Store(OsFs(), str(tmp_path / "mp"))
    assert theirs.load("settings") == mp_payload("settings", 2)
    assert theirs.load("records") == mp_payload("records", 2)
    assert theirs.load("game") == mp_payload("game", 1)  # its primary was corrupted
    assert theirs.last_error == "save corrupt: using backup"


def pico_vfs(name):
    return {"lfs": (os.VfsLfs2, 32), "fat": (os.VfsFat, 64)}[name]


@pytest.mark.micropython(only=True)
@pytest.mark.parametrize("name", ["fat", "lfs"])
def test_saves_on_the_picos_filesystems_and_a_full_flash(name):
    """littlefs v2 and FAT as the Pico has them (os.VfsLfs2, os.VfsFat on a RAM disk)."""
    import gc

    from ramdisk import RAMBlockDev

    cls, blocks = pico_vfs(name)
    bd = RAMBlockDev(512, blocks)
    cls.mkfs(bd)
    mnt = "/" + name
    os.mount(cls(bd), mnt)
    try:
        st = Store(OsFs(), mnt)
        for i in range(4):
            assert st.save("game", mp_payload("game", i))
        assert st.load("game") == mp_payload("game", 3)
        assert sorted(os.listdir(mnt)) == ["game.bak", "game.dat"]
        # Fill the flash with closed files (littlefs drops a file whose write failed),
        # then try to save something bigger: refused cleanly.
        zeros = bytes(512)
        i = 0
        while True:
            try:
                with open(mnt + "/fill%d" % i, "wb") as f:
                    f.write(zeros)
            except OSError as e:
                assert e.args[0] == ENOSPC
                break
            i += 1
        big = bytes(range(200)) * 8  # bigger than littlefs can inline into a directory block
        assert not st.save("game", big) and st.last_error == MSG_FULL
        assert st.load("game") == mp_payload("game", 3)  # the previous save is kept
        assert "game.tmp" not in os.listdir(mnt)
    finally:
        os.umount(mnt)
    gc.collect()


def cut_payload(i):
    n = (i * 97 + 40) % 320  # some inline in littlefs metadata, some not
    return bytes((j * 3 + i * 11) & 0xFF for j in range(n))


@pytest.mark.micropython(only=True)
@pytest.mark.parametrize("name", ["lfs", "fat"])
def test_power_cut_at_every_block_write(name):
    """The real littlefs / FAT code of MicroPython on a RAM disk: the image a cut would
    leave at each block write or erase (and half-way through each write) is mounted
    again and must load the last or the in-progress save. Control
    (test_block_write_cuts_catch_a_store_that_removes_first): a store that removes the
    old copies before it saves fails it on both filesystems."""
    assert block_write_failures(name, Store, 8) == []


@pytest.mark.micropython(only=True)
@pytest.mark.parametrize("name", ["lfs", "fat"])
def test_block_write_cuts_catch_a_store_that_removes_first(name):
    from brokenfs import RemoveFirstStore

    assert block_write_failures(name, RemoveFirstStore, 4) != []


def block_write_failures(name, store_cls, nsaves):
    """(write, torn, message) of every cut image that did not load an allowed save."""
    import gc

    from ramdisk import CutDisk

    vfs, blocks = pico_vfs(name)
    mnt = "/cut"
    base_saves = [cut_payload(0), cut_payload(1)]
    session = [cut_payload(i) for i in range(2, nsaves)]

    def run(disk, saves):
        """Mount, save each payload, unmount. Returns the write count after each."""
        os.mount(vfs(disk), mnt)
        marks = []
        try:
            st = store_cls(OsFs(), mnt)
            for p in saves:
                assert st.save("game", p), st.last_error
                marks.append(disk.writes)
        finally:
            os.umount(mnt)
        return marks

    def load_from(disk):
        os.mount(vfs(disk), mnt)
        try:
            st = store_cls(OsFs(), mnt)
            return st.load("game"), st.last_error
        finally:
            os.umount(mnt)

    disk = CutDisk(512, blocks)
    vfs.mkfs(disk)
    run(disk, base_saves)
    base = disk.image()
    disk.writes = 0
    marks = run(disk, session)
    writes = marks[-1]
    tried = 0
    failures = []
    for n in range(writes):
        j = 0
        while marks[j] <= n:
            j += 1
        ok = (session[j - 1] if j else base_saves[-1], session[j])
        for half in (False, True):
            disk.restore(base)
            disk.writes = 0
            disk.snap_at = n
            disk.half = half
            disk.snap = None
            run(disk, session)
            snap = disk.snap
            disk.snap_at = -1
            disk.restore(snap)
            snap = None
            try:
                got, msg = load_from(disk)
            except OSError as e:  # littlefs did not mount: a failure
                got, msg = None, "mount failed " + str(e)
            tried += 1
            if got not in ok:
                failures.append((n, half, msg))
            gc.collect()
    assert writes > 0 and tried == 2 * writes
    return failures


def test_the_check_runs_once_per_copy_not_at_every_save():
    """A game's check rebuilds the game: saves reuse its verdict on the copies already seen
    and trust the copies they wrote, and still never rotate a refused copy into the backup
    slot."""
    fs = FakeFs()
    s = Store(fs)
    assert s.save("game", b"good")
    assert s.save("game", b"BAD!")
    seen = []

    def check(p):
        seen.append(bytes(p))
        return p != b"BAD!"

    fs = fs.reboot()
    boot = Store(fs)
    assert boot.load("game", check) == b"good"
    assert sorted(seen) == [b"BAD!", b"good"]
    del seen[:]
    for i in range(5):
        assert boot.save("game", b"new%d" % i)
        assert fs.files["/game.bak"][16:] == (b"good" if i == 0 else b"new%d" % (i - 1))
    assert seen == []  # no save checked a copy again, nor one this store wrote
    assert Store(fs.reboot()).load("game", check) == b"new4"
    fs = fs.reboot()
    s = Store(fs)
    assert s.load("game", check) == b"new4"
    fs.files["/game.dat"][16:] = b"BAD!"  # swapped behind the store's back, CRC fixed below
    fs.files["/game.dat"][:16] = store.encode(3, 99, b"BAD!")
    del seen[:]
    assert s.save("game", b"new5")
    assert seen == [b"BAD!"]  # a copy it had not judged: checked, refused, not rotated
    assert fs.files["/game.bak"][16:] == b"new3"


def test_the_littlefs_model_keeps_only_committed_data():
    """FakeFs(lfs=True), which stress_cuts uses: a cut loses what no flush/close committed,
    an existing file keeps its old content until then, and rename is atomic."""
    for cut in range(1, 8):
        fs = FakeFs({"/a": bytearray(b"old")}, cut_at=cut, lfs=True)
        done = []
        try:
            f = fs.open("/a", "wb")  # unit 1
            f.write(b"new")  # unit 2
            done.append("write")
            fs.rename("/a", "/b")  # unit 3: the open file follows
            f.flush()  # unit 4: commits b"new" to /b
            done.append("flush")
            f.write(b"er")  # unit 5
            f.close()  # unit 6: commits b"newer"
            done.append("close")
            fs.remove("/b")  # unit 7
            done.append("remove")
        except PowerCut:
            pass
        files = {p: bytes(d) for p, d in fs.reboot().files.items()}
        want = ({"/a": b"old"} if cut <= 3 else {"/b": b"old"} if cut == 4
                else {"/b": b"new"} if cut <= 6 else {"/b": b"newer"})
        assert files == want, (cut, done, files)
    fs = FakeFs(cut_at=2, lfs=True)
    with pytest.raises(PowerCut):
        fs.open("/n", "wb").write(b"x")
    assert fs.reboot().files == {"/n": bytearray()}  # the creation was committed at open


def test_a_save_after_its_own_save_opens_only_the_copy_it_writes():
    """The slots a store's own save left need no reading back at the next save (three file
    objects, a Pico's heap at every scored box); a load, a delete or a failed save
    makes the next save read all three again."""
    fs = FakeFs()
    s = Store(fs)
    opened = []
    real_open = fs.open

    def spy(path, mode):
        opened.append((path, mode))
        return real_open(path, mode)

    fs.open = spy
    assert s.save("game", b"one")
    assert ("/game.dat", "rb") in opened  # the first save reads the slots
    for n, payload in enumerate((b"two", b"three")):
        del opened[:]
        assert s.save("game", payload)
        assert opened == [("/game.tmp", "wb"), ("/game.tmp", "rb")]
        assert fs.files["/game.dat"][16:] == payload
        assert fs.files["/game.bak"][16:] == (b"one", b"two")[n]
        assert "/game.tmp" not in fs.files
    fs.fail("open_w", OSError(EIO, "io"), times=1)
    assert not s.save("game", b"four")
    for step in ("failed", "load", "delete"):
        if step == "load":
            assert s.load("game") == b"five"
        if step == "delete":
            assert s.delete("game")
        del opened[:]
        assert s.save("game", b"five")
        assert ("/game.dat", "rb") in opened and ("/game.bak", "rb") in opened, step
        assert Store(fs.reboot()).load("game") == b"five"


# ------------------------------------------------------------------ every rename fails
@pytest.mark.parametrize("fat", [False, True], ids=["rename-replaces", "fat-rename"])
@pytest.mark.parametrize("err", [EIO, ENOSPC])
def test_a_rename_that_keeps_failing_never_costs_the_backup(fat, err):
    """Every rename fails. The save fails, and both good copies stay: its
    retry must not remove game.bak first. This test is also the control of the rename
    retry: the old _replace removed the target on any error but ENOSPC, and failed it."""
    fs = FakeFs(fat=fat)
    s = Store(fs)
    assert s.save("game", b"one") and s.save("game", b"two")
    fs.fail("rename", OSError(err, "rename"))
    assert not s.save("game", b"three")
    assert decode(fs.files["/game.bak"], "game") == (1, b"one")
    assert decode(fs.files["/game.dat"], "game") == (2, b"two")
    assert Store(fs.reboot()).load("game") == b"two"
