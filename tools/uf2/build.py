"""make uf2: one file to flash, MicroPython v1.28.0 with PicoYacht frozen in and Expert's tables.

    python tools/uf2/build.py [--board PICOYACHT_RP2040] [--sizes]

Builds build/picoyacht-pico.uf2 (RP2040: Pico, Pico W) and build/picoyacht-pico2.uf2 (RP2350:
Pico 2) from the MicroPython sources in ../shared/micropython (PICOYACHT_MICROPYTHON names
another tarball), with the board definitions in tools/uf2/boards, whose manifest.py (here)
names what is frozen. Each .uf2 holds two
regions of flash and leaves the third alone:

    0               the firmware: MicroPython, the frozen picoyacht package, config.py
                    defaults, the entry point and picoyacht/version.py (git describe)
    ROMFS base      a read-only ROMFS image mounted at /rom: /rom/tables/ holds every built
                    table that fits, the defaults first (tools/tables/device_tables.py), packed
                    (tools/tables/table_pack.py) and read in place from flash (no heap, not in
                    the player's files)
    storage base    the player's littlefs (/): never written by the .uf2, so saves and
                    records survive flashing a newer one

The toolchain (Debian's gcc-arm-none-eabi, libnewlib-arm-none-eabi, cmake) is installed
with apt-get when missing and we are root; otherwise the one command to run is printed.
"""

import argparse
import hashlib
import os
import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tools/, for paths
import paths

import device_tables  # which tables a board carries, in what order

HERE = Path(__file__).resolve().parent
ROOT = paths.ROOT
BUILD = ROOT / "build"
GEN = BUILD / "uf2-gen"
# The MicroPython v1.28.0 sources the firmware is built from: the rp2 port with the
# submodules it pins (pico-sdk, tinyusb, mbedtls, micropython-lib), one tarball.
SOURCE_FILE = "micropython-1.28.0-rp2.tar.xz"
SOURCE_SHA256 = "e77215c4fb19a2a0c730efe5c666abdce62fc34a1670cbd49e9f4314917e8c46"
TARBALL = Path(os.environ.get(
    "PICOYACHT_MICROPYTHON", ROOT.parent / "shared" / "micropython" / SOURCE_FILE))
MP = BUILD / "micropython-1.28.0"
PORT = MP / "ports" / "rp2"
TABLES = Path(os.environ.get("PICOYACHT_TABLES", ROOT / "tables"))
PACKED = BUILD / "uf2-tables"  # the tables as packed for a ROMFS, cached
import table_pack  # noqa: E402  (tools/tables/: the form a ROMFS carries them in)

DEVICE_TABLES = device_tables.DEFAULTS  # every .uf2 carries these; the rest where they fit
PACKAGES = ("gcc-arm-none-eabi", "libnewlib-arm-none-eabi", "cmake")
NEWLIB = Path("/usr/lib/arm-none-eabi/include/stdio.h")

# board -> (output file, UF2 family id, flash size in bytes)
BOARDS = {
    "PICOYACHT_RP2040": ("picoyacht-pico.uf2", 0xE48BFF56, 2 * 1024 * 1024),
    "PICOYACHT_RP2350": ("picoyacht-pico2.uf2", 0xE48BFF59, 4 * 1024 * 1024),
}
XIP_BASE = 0x10000000
# RP2350-E10: with a partition table on the board, the boot ROM can mis-place a dragged
# .uf2. picotool (`uf2 convert --abs-block`, which the Pico SDK passes for RP2350 builds)
# starts every RP2350 flash .uf2 with one extra block: family "absolute", aimed at the
# last page of the 16 MB flash window, payload 256 x 0xEF, tagged RP2_IGNORE_BLOCK so
# that no boot ROM writes it, numbered 0 of 2 outside the firmware's own numbering.
ABSOLUTE_FAMILY = 0xE48BFF57
RP2350_FAMILY = BOARDS["PICOYACHT_RP2350"][1]
ABS_BLOCK_ADDR = 0x10FFFF00
UF2_FAMILY_PRESENT = 0x2000
UF2_EXTENSIONS_PRESENT = 0x8000
RP2_IGNORE_BLOCK = 0x9957E304  # pico-sdk boot/uf2.h UF2_EXTENSION_RP2_IGNORE_BLOCK


class BuildError(Exception):
    """Something the builder can fix, said in one line."""


def sh(cmd, **kw):
    print("+", " ".join(str(c) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], check=True, **kw)


def toolchain():
    if shutil.which("arm-none-eabi-gcc") and shutil.which("cmake") and NEWLIB.exists():
        return
    if not shutil.which("apt-get"):
        raise BuildError("install an Arm GCC with newlib and cmake (Debian: %s)"
                         % " ".join(PACKAGES))
    if os.geteuid() != 0:
        raise BuildError("the toolchain is missing: run `sudo apt-get install -y %s`, then "
                         "`make uf2` again" % " ".join(PACKAGES))
    sh(["apt-get", "update", "-q"])
    sh(["apt-get", "install", "-y", "-q", *PACKAGES],
       env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def sources():
    """Unpacks the MicroPython sources, once their checksum says they are the release this
    build is made and measured with (a different tree would build a different firmware)."""
    if (PORT / "CMakeLists.txt").exists():
        return
    if not TARBALL.exists():
        raise BuildError("MicroPython v1.28.0's sources are missing: get %s (sha256 %s) and "
                         "put it at %s, or set PICOYACHT_MICROPYTHON to where it is"
                         % (SOURCE_FILE, SOURCE_SHA256, TARBALL))
    got = sha256(TARBALL)
    if got != SOURCE_SHA256:
        raise BuildError("%s is not %s: its sha256 is %s, expected %s"
                         % (TARBALL, SOURCE_FILE, got, SOURCE_SHA256))
    BUILD.mkdir(exist_ok=True)
    sh(["tar", "-xJf", TARBALL, "-C", BUILD])


def write_if_changed(path, data):
    """Keeps timestamps, so an unchanged input does not rebuild the firmware."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_bytes() != data:
        path.write_bytes(data)


def version():
    try:
        out = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=ROOT,
                             capture_output=True, text=True, check=True)
        return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def generate():
    """The generated frozen modules the board manifest names."""
    v = version()
    write_if_changed(GEN / "picoyacht" / "version.py", (
        '"""Written by make uf2: the PicoYacht build this firmware is (git describe)."""\n\n'
        "VERSION = %r\n" % v).encode())
    write_if_changed(GEN / "picoyacht_main.py", (ROOT / "firmware" / "main.py").read_bytes())
    return v


def packed(name):
    """tables/<name> packed for a ROMFS, from the cache when it was packed from these bytes
    by this packer."""
    src = (TABLES / name).read_bytes()
    h = hashlib.sha256(src)
    for f in (table_pack.__file__, ROOT / "firmware" / "picoyacht" / "table_packed.py"):
        h.update(Path(f).read_bytes())
    path = PACKED / ("%s.%s" % (name, h.hexdigest()[:16]))
    if not path.exists():
        PACKED.mkdir(parents=True, exist_ok=True)
        for old in PACKED.glob(name + ".*"):
            old.unlink()
        path.write_bytes(table_pack.pack(src))
    return path.read_bytes()


def romfs_image(tables):
    """ROMFS holding tables/<name> for each (name, bytes) of tables."""
    from mpremote.romfs import VfsRomWriter

    rom = VfsRomWriter()
    rom.opendir("tables")
    for name, data in tables:
        rom.mkfile(name, data)
    rom.closedir()
    return rom.finalise()


def board_tables(rom_bytes):
    """(ROMFS image, tables it carries, tables built but left out) for a ROMFS of
    rom_bytes: the built tables, packed, in device_tables.ORDER while the image fits.
    The defaults must be built and must fit."""
    missing = [n for n in DEVICE_TABLES if not (TABLES / n).exists()]
    if missing:
        raise BuildError("tables missing in %s: %s (run `make tables`)"
                         % (TABLES, ", ".join(missing)))
    data = {n: packed(n) for n in device_tables.ORDER if (TABLES / n).exists()}
    kept, left = device_tables.pick({n: len(d) for n, d in data.items()}, rom_bytes)
    image = romfs_image((n, data[n]) for n in kept)
    while len(image) > rom_bytes and len(kept) > len(DEVICE_TABLES):  # the image's overhead
        left.insert(0, kept.pop())
        image = romfs_image((n, data[n]) for n in kept)
    return image, kept, left


def board_layout(board):
    """(ROMFS bytes, storage bytes) from the board's mpconfigboard.h."""
    text = (HERE / "boards" / board / "mpconfigboard.h").read_text()

    def kb(name):
        m = re.search(r"#define\s+%s\s+\((\d+) \* 1024\)" % name, text)
        if m is None:
            raise BuildError("%s: %s must be written as (N * 1024)" % (board, name))
        return int(m.group(1)) * 1024

    return kb("MICROPY_HW_ROMFS_BYTES"), kb("MICROPY_HW_FLASH_STORAGE_BYTES")


def firmware(board):
    out = PORT / ("build-" + board)
    if not (out / "Makefile").exists():
        sh(["cmake", "-S", PORT, "-B", out, "-DPICO_BUILD_DOCS=0", "-DMICROPY_BOARD=" + board,
            "-DMICROPY_BOARD_DIR=" + str(HERE / "boards" / board), "-DPICO_NO_PICOTOOL=1"])
    sh(["make", "-C", out, "-j%d" % (os.cpu_count() or 2)])
    return (out / "firmware.bin").read_bytes()


def _block(flags, addr, number, count, family, data):
    return (struct.pack("<8I", 0x0A324655, 0x9E5D5157, flags, addr, 256, number, count, family)
            + data.ljust(476, b"\x00") + struct.pack("<I", 0x0AB16F30))


def abs_block():
    """The RP2350-E10 block picotool puts first (see ABSOLUTE_FAMILY)."""
    return _block(UF2_FAMILY_PRESENT | UF2_EXTENSIONS_PRESENT, ABS_BLOCK_ADDR, 0, 2,
                  ABSOLUTE_FAMILY, b"\xef" * 256 + struct.pack("<I", RP2_IGNORE_BLOCK))


def uf2(regions, family):
    """UF2 blocks of 256 bytes for each (flash address, data); one numbered sequence,
    after the absolute block on an RP2350."""
    pages = []
    for addr, data in regions:
        for off in range(0, len(data), 256):
            pages.append((addr + off, data[off:off + 256].ljust(256, b"\xff")))
    out = bytearray(abs_block() if family == RP2350_FAMILY else b"")
    for i, (addr, page) in enumerate(pages):
        out += _block(UF2_FAMILY_PRESENT, addr, i, len(pages), family, page)
    return bytes(out)


def layout(board, fw_size, rom_size):
    """Where each region goes, checked: nothing overlaps, the filesystem keeps 256 KB."""
    _, _, flash = BOARDS[board]
    rom_bytes, fs_bytes = board_layout(board)
    fs_base = flash - fs_bytes
    rom_base = fs_base - rom_bytes
    if fs_bytes < 256 * 1024:
        raise BuildError("%s: the filesystem must keep at least 256 KB" % board)
    if fw_size > rom_base:
        raise BuildError("%s: firmware is %d KB, only %d KB fit below the tables"
                         % (board, fw_size // 1024, rom_base // 1024))
    if rom_size > rom_bytes:
        raise BuildError("%s: tables need %d KB of ROMFS, the board has %d KB"
                         % (board, -(-rom_size // 1024), rom_bytes // 1024))
    return rom_base, rom_bytes, fs_base, fs_bytes


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", choices=sorted(BOARDS), action="append",
                    help="build only this board (repeatable)")
    args = ap.parse_args(argv)
    try:
        toolchain()
        sources()
        sh(["make", "-C", MP / "mpy-cross", "-j%d" % (os.cpu_count() or 2)],
           stdout=subprocess.DEVNULL)
        v = generate()
        rows = []
        for board in args.board or BOARDS:
            name, family, flash = BOARDS[board]
            rom, kept, left = board_tables(board_layout(board)[0])
            fw = firmware(board)
            rom_base, rom_bytes, fs_base, fs_bytes = layout(board, len(fw), len(rom))
            data = uf2([(XIP_BASE, fw), (XIP_BASE + rom_base, rom)], family)
            (BUILD / name).write_bytes(data)
            rows.append("%-22s firmware %4d KB of %4d KB | tables (ROMFS /rom) %4d KB of %4d KB "
                        "at 0x%06X | filesystem %4d KB at 0x%06X | %s %d KB"
                        % (board, -(-len(fw) // 1024), rom_base // 1024, -(-len(rom) // 1024),
                           rom_bytes // 1024, rom_base, fs_bytes // 1024, fs_base, name,
                           len(data) // 1024))
            rows.append("%-22s tables: %s; no room for: %s" % ("", " ".join(kept),
                                                                 " ".join(left) or "-"))
            rows.append("%-22s Expert by estimate: %s" % (
                "", "; ".join(device_tables.by_estimate(kept)) or "nowhere, every game exact"))
    except BuildError as e:
        sys.exit("make uf2: " + str(e))
    print("PicoYacht %s" % v)
    for r in rows:
        print(r)


if __name__ == "__main__":
    main()
