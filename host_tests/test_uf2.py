"""The one-file firmware (make uf2): what it freezes, where it puts things, and that it boots.

Without the Arm toolchain (CI) the manifest, the flash layout and the UF2 writer are still
checked here; the emulator tests build the RP2040 .uf2 (incremental, so cheap once built)
and run it on ../shared/rp2emu, or skip and say why.
"""

import json
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
UF2DIR = ROOT / "tools" / "uf2"
sys.path.insert(0, str(UF2DIR))
import build  # noqa: E402

PACKAGE = sorted(p.name for p in (ROOT / "firmware" / "picoyacht").glob("*.py"))
GENERATED = {"picoyacht/version.py", "picoyacht_main.py"}


def frozen_targets():
    """(target path on the device -> source file) for everything tools/uf2/manifest.py
    freezes, read with the manifest's own vocabulary; the port's stock manifest is left out."""
    out = {}

    def run(path):
        here = path.parent

        def include(p):
            if not p.startswith("$(PORT_DIR)"):
                run((here / p).resolve())

        def package(name, base_path="."):
            base = (here / base_path).resolve()
            for f in sorted((base / name).rglob("*.py")):
                out[f.relative_to(base).as_posix()] = f

        def module(name, base_path="."):
            out[name] = (here / base_path).resolve() / name

        exec(path.read_text(), {"include": include, "package": package, "module": module})

    run(UF2DIR / "manifest.py")
    return out


def test_manifest_freezes_every_module_and_the_entry_points():
    targets = frozen_targets()
    want = {"picoyacht/" + n for n in PACKAGE} | {"config.py", "main.py"} | GENERATED
    assert set(targets) == want
    for name, src in targets.items():
        if name not in GENERATED:
            assert src.is_file(), name
    # The generated ones are what build.generate writes, where the manifest reads them.
    assert {targets[g].parent for g in GENERATED} <= {build.GEN, build.GEN / "picoyacht"}
    assert targets["config.py"] == ROOT / "firmware" / "config.py"


def test_generate_writes_version_and_entry(tmp_path, monkeypatch):
    monkeypatch.setattr(build, "GEN", tmp_path)
    v = build.generate()
    ns = {}
    exec((tmp_path / "picoyacht" / "version.py").read_text(), ns)
    assert ns["VERSION"] == v and v
    entry = (ROOT / "firmware" / "main.py").read_text()
    assert (tmp_path / "picoyacht_main.py").read_text() == entry
    stamp = (tmp_path / "picoyacht_main.py").stat().st_mtime_ns
    build.generate()  # unchanged input: untouched file, no firmware rebuild
    assert (tmp_path / "picoyacht_main.py").stat().st_mtime_ns == stamp


# The player's filesystem must stay exactly here in every release: moving or resizing it
# loses saves and records when a newer .uf2 is flashed. Change only with a migration.
FS_PLACE = {"PICOYACHT_RP2040": (0x1C0000, 256 * 1024), "PICOYACHT_RP2350": (0x240000, 1792 * 1024)}


@pytest.mark.parametrize("board", sorted(build.BOARDS))
def test_layout_keeps_the_filesystem_in_place(board):
    rom_bytes, fs_bytes = build.board_layout(board)
    flash = build.BOARDS[board][2]
    assert (flash - fs_bytes, fs_bytes) == FS_PLACE[board]
    assert fs_bytes >= 256 * 1024
    rom_base, _, fs_base, _ = build.layout(board, 300 * 1024, rom_bytes)
    assert rom_base + rom_bytes == fs_base
    # The largest firmware and ROMFS that pass layout(): no UF2 block reaches the saves.
    full = build.uf2([(build.XIP_BASE, bytes(rom_base)),
                      (build.XIP_BASE + rom_base, bytes(rom_bytes))], build.BOARDS[board][1])
    last = max(struct.unpack_from("<I", full, i + 12)[0] for i in range(0, len(full), 512)
               if struct.unpack_from("<I", full, i + 28)[0] != ABSOLUTE)
    assert last + 256 == build.XIP_BASE + fs_base


def test_layout_refuses_what_does_not_fit():
    board = "PICOYACHT_RP2040"
    rom_bytes, fs_bytes = build.board_layout(board)
    rom_base = build.BOARDS[board][2] - fs_bytes - rom_bytes
    build.layout(board, rom_base, rom_bytes)  # exactly full is fine
    with pytest.raises(build.BuildError, match="firmware"):
        build.layout(board, rom_base + 1, 0)
    with pytest.raises(build.BuildError, match="ROMFS"):
        build.layout(board, 0, rom_bytes + 1)


def test_uf2_blocks_cover_both_regions_and_nothing_else():
    fw, rom = bytes(range(256)) * 3 + b"\x01", b"\x02" * 300
    data = build.uf2([(0x10000000, fw), (0x10100000, rom)], 0xE48BFF56)
    assert len(data) % 512 == 0
    n = len(data) // 512
    assert n == 4 + 2
    image = {}
    for i in range(n):
        blk = data[512 * i:512 * (i + 1)]
        m0, m1, flags, addr, size, no, total, fam = struct.unpack("<8I", blk[:32])
        assert (m0, m1, flags, size, no, total, fam) == (
            0x0A324655, 0x9E5D5157, 0x2000, 256, i, n, 0xE48BFF56)
        assert struct.unpack("<I", blk[508:])[0] == 0x0AB16F30 and addr % 256 == 0
        image[addr] = blk[32:32 + 256]
    assert b"".join(image[0x10000000 + 256 * k] for k in range(4))[:len(fw)] == fw
    assert image[0x10100000] + image[0x10100100][:44] == rom
    assert image[0x10100100][44:] == b"\xff" * 212  # padding stays erased


ABSOLUTE = 0xE48BFF57  # pico-sdk boot/uf2.h ABSOLUTE_FAMILY_ID


def _blocks(data):
    return [data[i:i + 512] for i in range(0, len(data), 512)]


@pytest.mark.parametrize("board", sorted(build.BOARDS))
def test_an_rp2350_uf2_starts_with_the_e10_absolute_block(board):
    """RP2350-E10: picotool's --abs-block layout, written here without picotool."""
    family = build.BOARDS[board][1]
    fw = b"\x5a" * 700
    blocks = _blocks(build.uf2([(build.XIP_BASE, fw)], family))
    first = blocks[0]
    m0, m1, flags, addr, size, no, total, fam = struct.unpack("<8I", first[:32])
    if board == "PICOYACHT_RP2040":  # the RP2040's boot ROM has no such erratum
        assert fam == family and len(blocks) == 3
        assert all(struct.unpack_from("<I", b, 28)[0] == family for b in blocks)
        return
    assert (m0, m1, flags, addr, size, no, total, fam) == (
        0x0A324655, 0x9E5D5157, 0x2000 | 0x8000, 0x10FFFF00, 256, 0, 2, ABSOLUTE)
    assert first[32:32 + 256] == b"\xef" * 256
    assert struct.unpack_from("<I", first, 32 + 256)[0] == 0x9957E304  # RP2_IGNORE_BLOCK
    assert first[32 + 260:508] == bytes(476 - 260)
    assert struct.unpack_from("<I", first, 508)[0] == 0x0AB16F30
    # The firmware's own blocks keep their numbering: 0..n-1 of n, its family, no tags.
    rest = blocks[1:]
    assert len(rest) == 3
    for i, b in enumerate(rest):
        flags, addr, size, no, total, fam = struct.unpack_from("<6I", b, 8)
        assert (flags, size, no, total, fam) == (0x2000, 256, i, 3, family)
    assert sum(struct.unpack_from("<I", b, 28)[0] == ABSOLUTE for b in blocks) == 1


# ---------------------------------------------------------------- on the emulated Pico
def _emulator():
    """build/rp2emu with its npm dependency (tools/emu/emulator.py installs it), or a reason
    to skip."""
    import emulator as pico  # tools/emu, on the path from conftest

    if shutil.which("node") is None or shutil.which("npm") is None:
        return "node/npm not installed"
    try:
        pico.install()
    except pico.PicoError as e:
        return str(e)
    return None


def _firmware():
    """build/picoyacht-pico.uf2 rebuilt from the current tree, or a reason to skip."""
    if not (shutil.which("arm-none-eabi-gcc") and shutil.which("cmake") and build.NEWLIB.exists()):
        return None, "no Arm toolchain (make uf2 installs gcc-arm-none-eabi, libnewlib, cmake)"
    if not build.TARBALL.exists():
        return None, "no MicroPython sources at %s" % build.TARBALL
    if any(not (build.TABLES / n).exists() for n in build.DEVICE_TABLES):
        return None, "Expert's tables not built (make tables)"
    r = subprocess.run([sys.executable, str(UF2DIR / "build.py"), "--board", "PICOYACHT_RP2040"],
                       capture_output=True, text=True, timeout=3000)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    return build.BUILD / build.BOARDS["PICOYACHT_RP2040"][0], None


@pytest.fixture(scope="module")
def pico_uf2():
    why = _emulator()
    if why:
        pytest.skip(why)
    uf2, why = _firmware()
    if why:
        pytest.skip(why)
    return uf2


# Every module of the package must come from the firmware, not from a file.
FROZEN_CHECK = """import os, sys
bad = []
for n in sorted(os.listdir('/rom/tables')):
    print('ROM', n, os.stat('/rom/tables/' + n)[6])
from picoyacht import version, strategy_table
t = strategy_table.Table.open('/rom/tables/yatzy.bin')
print('TABLE', t.rid, t.nb, t.f)
print('VERSION', version.VERSION)
def on_drive(mod):
    try:
        return os.stat(mod.__file__) and mod.__file__
    except OSError:  # frozen: its __file__ names no file (the drive has no copies here)
        return None
for m in MODULES:
    f = on_drive(__import__('picoyacht.' + m, None, None, [m]))
    if f:
        bad.append(f)
import config
print('FROZEN_BAD', bad, on_drive(config))
"""
CONFIG_ECHO = ("from picoyacht.board_pico import load_config\nc = load_config()\n"
               "print(c.WDT_MS, c.SAMPLE_MS, c.SDA, c.OLED_ADDR)")


def golden(name):
    return (ROOT / "host_tests" / "golden" / (name + ".hex")).read_text().strip()


def test_uf2_boots_to_the_title_screen(pico_uf2):
    import emulator as pico

    # power on with an empty filesystem: the frozen entry point runs the game
    r = pico.boot_main(2600, firmware=pico_uf2, shotsAtMs=[1600], presses=[[1700, 15, 100]])
    assert "Traceback" not in r["out"], r["out"]
    assert r["displayOn"]
    assert r["shots"][0]["hex"] == golden("title")
    assert r["frame"] == golden("setup")  # OK on "New game", pressed on GP15


def test_uf2_plays_a_game_with_frozen_code_rom_tables_and_drive_config(pico_uf2):
    modules = [n[:-3] for n in PACKAGE if n != "__init__.py"] + ["version"]
    import heap_budget  # tools/emu/heap_budget.py: one all-Expert game on the .uf2

    check = "MODULES = %s\n%s" % (json.dumps(modules), FROZEN_CHECK)
    config = "WDT_MS = 0\nSAMPLE_MS = 20\n"
    r = heap_budget.game(0, seats=1, rules=1, config=config, before=(check,), after=(CONFIG_ECHO,),
                  uf2=pico_uf2)
    assert r["completed"], r["failure"] or r["tail"]
    check, echo = r["execs"]
    assert "FROZEN_BAD [] None" in check, check
    assert "VERSION " + build.version() in check
    for name in build.DEVICE_TABLES:
        assert "ROM %s %d" % (name, len(build.packed(name))) in check
    # /config.py's two lines over the built-in defaults (SDA, OLED_ADDR)
    assert echo.split() == ["0", "20", "4", "60"]


def test_uf2_maxi_expert_game_with_the_coach_completes_within_72_kb(pico_uf2):
    """The largest engine (six dice, 20 boxes, no table: Expert searches with Normal's
    estimate), four Expert seats and the coach judging every move, on the frozen firmware
    with the heap budget free: the search must never fall back (tools/emu/heap_budget.py)."""
    import heap_budget

    r = heap_budget.game(heap_budget.UF2_BUDGET_KB * 1024, seats=4, rules=4, coach=2,
                  config=heap_budget.SAMPLING + "\n", uf2=pico_uf2)
    assert r["completed"], r["failure"] or r["tail"]


def test_missing_sources_name_the_release_file_and_its_checksum(tmp_path, monkeypatch):
    monkeypatch.setattr(build, "PORT", tmp_path / "unpacked" / "ports" / "rp2")
    monkeypatch.setattr(build, "TARBALL", tmp_path / build.SOURCE_FILE)
    with pytest.raises(build.BuildError) as e:
        build.sources()
    assert build.SOURCE_FILE in str(e.value) and build.SOURCE_SHA256 in str(e.value)


def test_sources_with_another_checksum_are_refused_before_unpacking(tmp_path, monkeypatch):
    fake = tmp_path / build.SOURCE_FILE
    fake.write_bytes(b"not MicroPython")
    monkeypatch.setattr(build, "PORT", tmp_path / "unpacked" / "ports" / "rp2")
    monkeypatch.setattr(build, "TARBALL", fake)
    ran = []
    monkeypatch.setattr(build, "sh", ran.append)
    with pytest.raises(build.BuildError) as e:
        build.sources()
    assert build.sha256(fake) in str(e.value) and build.SOURCE_SHA256 in str(e.value)
    assert ran == []
    shared = ROOT.parent / "shared" / "micropython" / build.SOURCE_FILE
    if shared.exists():  # the real file passes the same check
        monkeypatch.setattr(build, "TARBALL", shared)
        build.sources()
        assert ran and ran[0][:2] == ["tar", "-xJf"]


def test_each_heap_row_is_judged_by_its_layouts_budget():
    """The heap budgets of docs/DESIGN.md: Yahtzee frozen within 52 KB, every other rule set within
    72 KB, a 1-seat .mpy game within 112 KB, a 4-seat .mpy game with 24 KB of the Pico's heap
    to spare. Judging a 73 KB Deluxe or a 53 KB Yahtzee as within fails it."""
    import heap_budget

    free = int(235.9 * 1024)
    rows = [("uf2", 4, 4, 72), ("uf2", 5, 4, 73), ("uf2", 0, 4, 52), ("uf2", 0, 4, 53),
            ("uf2", 1, 4, None), ("mpy", 0, 1, 112), ("mpy", 0, 1, 113), ("mpy", 4, 4, 211),
            ("mpy", 5, 4, 213)]
    got = [heap_budget.verdict(lay, rid, seats, kb, free) for lay, rid, seats, kb in rows]
    assert [ok for _, _, ok in got] == [True, False, True, False, False, True, False, True,
                                        False]
    assert got[7] == ("at least 24 KB spare", "24 KB spare (needs 211 of 235 KB)", True)
    assert heap_budget.verdict("mpy", 4, 4, 211)[2] is None  # the Pico's heap not measured


def test_each_board_carries_the_tables_that_fit_defaults_first(tmp_path, monkeypatch):
    """A ROMFS takes the built tables in device_tables' order while they fit: the defaults,
    then the rest, passing over one too big for what is left (Sharp Dice's Yahtzee here)
    for a smaller one after it (Deluxe's). Without the defaults the build stops and says
    which. Control: a ROMFS as large as the Pico 2's flash carries every one."""
    monkeypatch.setattr(build, "TABLES", tmp_path)
    monkeypatch.setattr(build, "packed", lambda name: (tmp_path / name).read_bytes())
    for name, kb in (("yahtzee_0.bin", 330), ("yatzy.bin", 850), ("yahtzee_0_sharp.bin", 330),
                     ("deluxe.bin", 20)):
        (tmp_path / name).write_bytes(bytes(kb * 1024))
    image, kept, left = build.board_tables(1216 * 1024)
    assert kept == ["yahtzee_0.bin", "yatzy.bin", "deluxe.bin"] and left == ["yahtzee_0_sharp.bin"]
    assert len(image) <= 1216 * 1024
    assert build.board_tables(4096 * 1024)[2] == []
    (tmp_path / "yatzy.bin").unlink()
    with pytest.raises(build.BuildError, match="yatzy.bin"):
        build.board_tables(4096 * 1024)


def _every_table():
    """The names of every table, when `make tables` has built them all from today's
    sources; else skip, saying so."""
    import build_tables as bt

    if not all(bt.is_current(n, build.TABLES) for n in bt.TABLES):
        pytest.skip("Expert's tables not all built (make tables)")
    return sorted(n + ".bin" for n in bt.TABLES)


def test_the_pico_2_carries_every_table_and_the_pico_plays_every_game_exactly():
    """The built tables, packed, in each board's ROMFS: the Pico 2's holds every one; the
    Pico's the defaults first, and a table for every game and option (Free joker's games
    on the Forced joker's tables). Control: the Pico 2's ROMFS at its old 1280 KB leaves
    tables out."""
    every = _every_table()
    rom2 = build.board_layout("PICOYACHT_RP2350")[0]
    image, kept, left = build.board_tables(rom2)
    assert sorted(kept) == every and left == []
    for name in every:
        assert image.find(build.packed(name)) > 0
    assert build.device_tables.by_estimate(kept) == []
    kept, left = build.board_tables(build.board_layout("PICOYACHT_RP2040")[0])[1:]
    assert kept[:2] == list(build.DEVICE_TABLES)
    assert build.device_tables.by_estimate(kept) == []
    assert build.board_tables(1280 * 1024)[2]


def test_a_game_whose_table_is_missing_is_named_as_estimated():
    """device_tables.by_estimate, what the build reports: every game and option with a
    table, named as a player would, and only those none of the kept files serves."""
    from device_tables import by_estimate

    every = by_estimate([])
    assert len(every) == 9 and "Yahtzee, Free joker, Sharp Dice" in every
    assert by_estimate(["yahtzee_0.bin", "yatzy.bin"]) == [
        "Yahtzee, Original joker", "Yahtzee, Forced joker, Sharp Dice",
        "Yahtzee, Free joker, Sharp Dice", "Yahtzee, Original joker, Sharp Dice",
        "Yatzy, Sharp Dice", "Deluxe"]
    assert "Yahtzee, Free joker" in by_estimate(["yahtzee_1_sharp.bin"])
    assert "Yahtzee, Forced joker" not in by_estimate(["yahtzee_1.bin"])
