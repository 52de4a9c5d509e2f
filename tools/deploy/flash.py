"""Put PicoYacht on a Pico over USB with mpremote.

  make flash      compiles the package to .mpy (matching the board's .mpy version) and copies
                  main.py, config.py, lib/picoyacht/*.mpy and any strategy tables
  make flash-src  copies plain .py instead (for Thonny users who want to read and edit)

It asks the board for its MicroPython version first, refuses clearly when that is too old,
removes the other flavour of the package (a stale .py would shadow a new .mpy), and reports
what it copied and the flash left. A Pico running the PicoYacht .uf2 is refused: its frozen
package would shadow the copies. With no board plugged in it says so in one line.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tools/, for paths
from paths import FIRMWARE, ROOT

import device_tables
from mpy_build import compile_package, mpy_cross

TABLES = Path(os.environ.get("PICOYACHT_TABLES", ROOT / "tables"))
BLOCK = 4096  # the rp2 port's littlefs block
SAVES_ROOM = 8 * BLOCK  # left free for the game's saves, records and their backups

# The strategy tables the device opens, in the order they go while they fit (the .npy and
# .json files in tables/ are host-side build products)
DEVICE_TABLES = device_tables.ORDER

MIN_VERSION = (1, 23)
PROBE = (
    "import sys, os\n"
    "m = getattr(sys.implementation, '_mpy', 0)\n"
    "v = sys.implementation.version\n"
    "s = os.statvfs('/')\n"
    "ours = 0\n"
    "for d in ('/', '/lib/picoyacht', '/tables'):\n"
    "    try:\n"
    "        names = os.listdir(d)\n"
    "    except OSError:\n"
    "        names = ()\n"
    "    for n in names:\n"
    "        if d != '/' or n in ('main.py', 'config.py'):\n"
    "            ours += os.stat(d.rstrip('/') + '/' + n)[6]\n"
    "try:\n"
    "    from picoyacht.version import VERSION as uf2\n"
    "except Exception:\n"
    "    uf2 = '-'\n"
    "print('PROBE', m, v[0], v[1], v[2], s[0] * s[3], ours, sys.platform, uf2)\n"
)


# mpy-cross -march names by the architecture number in sys.implementation._mpy >> 10: the
# .mpy files carry picoyacht/fast_viper.py's machine code for the board's CPU.
ARCHS = ("", "x86", "x64", "armv6", "armv6m", "armv7m", "armv7em", "armv7emsp", "armv7emdp",
         "xtensa", "xtensawin", "rv32imc", "rv64imc")
PICO_ARCH = "armv6m"  # the RP2040


def board_arch(board):
    """-march for the board's native code; the Pico's when it does not say."""
    i = board["mpy"] >> 10
    return ARCHS[i] if 0 < i < len(ARCHS) else PICO_ARCH


class FlashError(Exception):
    """A problem the hobbyist can fix, said in one line."""


def mpremote_cmd():
    """mpremote from the venv, or $PICOYACHT_MPREMOTE (a command line, for tests)."""
    override = os.environ.get("PICOYACHT_MPREMOTE")
    if override:
        return override.split()
    here = Path(sys.executable).parent / "mpremote"
    return [str(here) if here.exists() else "mpremote"]


def run(args, port):
    cmd = mpremote_cmd() + (["connect", port] if port else []) + args
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except FileNotFoundError:
        raise FlashError("mpremote is not installed: run `make flash` (it sets up .venv)") from None
    except subprocess.TimeoutExpired:
        raise FlashError("the board stopped answering: unplug it, plug it back in, retry") from None
    text = out.stdout + out.stderr
    if out.returncode != 0:
        low = text.lower()
        if "no device found" in low or "failed to access" in low or "could not" in low:
            raise FlashError("no MicroPython board found on USB: plug in the Pico and retry "
                             "(install MicroPython first if it is new)")
        raise FlashError("mpremote failed: " + (text.strip().splitlines() or ["?"])[-1])
    return text


def probe(port):
    """The board's .mpy version, MicroPython version and free flash in bytes."""
    for line in run(["exec", PROBE], port).splitlines():
        if line.startswith("PROBE "):
            f = line.split()
            return {"mpy": int(f[1]), "version": (int(f[2]), int(f[3]), int(f[4])),
                    "free": int(f[5]), "ours": int(f[6]), "platform": f[7],
                    "uf2": f[8] if len(f) > 8 and f[8] != "-" else None}
    raise FlashError("the board did not answer the version probe: is it running MicroPython?")


def local_mpy_version():
    out = subprocess.run([mpy_cross(), "--version"], capture_output=True, text=True).stdout
    # "MicroPython v1.29.0 on ...; mpy-cross emitting mpy v6.3"
    tail = out.strip().rsplit("v", 1)[-1]
    major, _, minor = tail.partition(".")
    return int(major), int(minor or 0)


def check_compatible(board):
    ver = board["version"]
    if ver[:2] < MIN_VERSION:
        raise FlashError("the board runs MicroPython %d.%d.%d; PicoYacht needs v%d.%d or newer:"
                         " install a current release .uf2 (hold BOOTSEL while plugging in)"
                         % (ver + MIN_VERSION))
    board_major = board["mpy"] & 0xFF
    ours = local_mpy_version()
    if board_major != ours[0]:
        raise FlashError("the board loads .mpy v%d but mpy-cross makes v%d: use `make flash-src`"
                         " or update MicroPython on the board" % (board_major, ours[0]))


# -O3: no line-number tables in the board's .mpy. They are copied into the heap on import
# with the code they annotate; a traceback still names the module and function, and
# `make flash-src` puts the source, with line numbers, on the board for debugging.
DEVICE_OPT = ("-O3",)


def stage(src_only, out, arch=PICO_ARCH):
    """Lay out exactly what goes onto the board under `out` (.mpy files with native code
    for `arch`); returns (local, remote) pairs."""
    lib = out / "lib"
    if src_only:
        pkg = lib / "picoyacht"
        pkg.mkdir(parents=True)
        for f in sorted((FIRMWARE / "picoyacht").glob("*.py")):
            shutil.copy(f, pkg / f.name)
    else:
        compile_package(lib, DEVICE_OPT, arch=arch)
    pairs = [(FIRMWARE / "main.py", "main.py"), (FIRMWARE / "config.py", "config.py")]
    pairs = [(a, b) for a, b in pairs if a.exists()]
    pairs += [(f, "lib/picoyacht/" + f.name) for f in sorted((lib / "picoyacht").iterdir())]
    pairs += [(TABLES / n, "tables/" + n) for n in DEVICE_TABLES if (TABLES / n).exists()]
    return pairs


def fit_tables(pairs, room):
    """pairs less the strategy tables that would leave them over `room` bytes, and the names
    left out: the tables go in device_tables.ORDER while they fit (the defaults first).
    Stock MicroPython's filesystem holds the game and Yahtzee's table, not Yatzy's too: a
    Pico with the tables that fit (Expert exact there, estimating elsewhere) beats an
    install that stops."""
    def blocks(size):  # littlefs gives a file whole blocks
        return -(-size // BLOCK) * BLOCK

    tables = {b[len("tables/"):]: Path(a).stat().st_size for a, b in pairs
              if b.startswith("tables/")}
    rest = [p for p in pairs if not p[1].startswith("tables/")]
    kept, left = device_tables.pick(tables, room - sum(blocks(Path(a).stat().st_size)
                                                        for a, _ in rest), blocks)
    return rest + [p for p in pairs if p[1][len("tables/"):] in kept], left


def remove_other_flavour(src_only):
    stale = ".mpy" if src_only else ".py"
    return (
        "import os\n"
        "for d in ('/lib', '/lib/picoyacht', '/tables'):\n"
        "    try:\n        os.mkdir(d)\n    except OSError:\n        pass\n"
        "for n in os.listdir('/lib/picoyacht'):\n"
        "    if n.endswith('%s'):\n        os.remove('/lib/picoyacht/' + n)\n" % stale
        # an old mip install in /picoyacht comes first on sys.path and would shadow /lib
        + "try:\n    old = os.listdir('/picoyacht')\nexcept OSError:\n    old = ()\n"
        "for n in old:\n    os.remove('/picoyacht/' + n)\n"
        "if old:\n    os.rmdir('/picoyacht')\n"
    )


def flash(src_only=False, port=None, dry_run=False):
    board = probe(port)
    if board["uf2"]:
        # Its frozen package comes before /lib on sys.path: copied files would be ignored.
        raise FlashError("this Pico runs the PicoYacht .uf2 (%s), whose built-in game wins over"
                         " copied files: drag a newer .uf2 onto it (`make uf2`), or install"
                         " stock MicroPython first to use `make flash`" % board["uf2"])
    if not src_only:
        check_compatible(board)
    with tempfile.TemporaryDirectory(prefix="picoyacht-flash-") as tmp:
        room = board["free"] + board["ours"] - SAVES_ROOM  # our old files are replaced
        pairs, left = fit_tables(stage(src_only, Path(tmp), board_arch(board)), room)
        for name in left:
            print("  %s left out: no room for it on this board's filesystem (Expert plays"
                  " its rules by Normal's estimate, and says so)" % name)
        sizes = [(remote, local.stat().st_size) for local, remote in pairs]
        total = sum(size for _, size in sizes)
        if total > room:
            raise FlashError("not enough flash: %d bytes to copy, %d free (delete other files"
                             " on the board, or leave out the strategy tables)" % (total, room))
        if not dry_run:
            run(["exec", remove_other_flavour(src_only)], port)
            for local, remote in pairs:
                run(["fs", "cp", str(local), ":" + remote], port)
        after = probe(port)
    for remote, size in sizes:
        print("  %-32s %7d bytes" % (remote, size))
    print("%s %d files, %d bytes; %d bytes of flash left on the %s board (MicroPython %s)"
          % ("would copy" if dry_run else "copied", len(sizes), total, after["free"],
             after["platform"], ".".join(map(str, after["version"]))))
    if not dry_run:
        print("reset the board (or unplug it) to start PicoYacht")
    return sizes


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", action="store_true", help="copy .py sources instead of .mpy")
    ap.add_argument("--port", help="serial port (default: mpremote's auto)")
    ap.add_argument("--dry-run", action="store_true", help="probe and stage, copy nothing")
    args = ap.parse_args(argv)
    try:
        flash(args.src, args.port, args.dry_run)
    except FlashError as e:
        print("flash: " + str(e), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
