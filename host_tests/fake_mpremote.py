"""A stand-in for `mpremote` that emulates a board whose flash is a host directory.

FAKE_BOARD_DIR   the board's filesystem root (unset: "no device found", exit 1)
FAKE_BOARD_VER   MicroPython version on the board, e.g. 1.24.1 (default 1.29.0)
FAKE_BOARD_MPY   sys.implementation._mpy (default 0xA06: .mpy v6.2 on armv6m... major 6)
FAKE_BOARD_FREE  free bytes reported by statvfs (default 800000)
FAKE_BOARD_UF2   set: the board runs a PicoYacht .uf2 of this version (picoyacht.version)
Handles `connect PORT`, `exec CODE` (run against a sandboxed os) and `fs cp SRC :DST`."""

import builtins
import os
import shutil
import sys
import types


def board_os(root, free):
    def real(p):
        return os.path.join(root, p.lstrip("/"))

    shim = types.SimpleNamespace()
    shim.mkdir = lambda p: os.mkdir(real(p))
    shim.listdir = lambda p="/": sorted(os.listdir(real(p)))
    shim.remove = lambda p: os.remove(real(p))
    shim.rmdir = lambda p: os.rmdir(real(p))
    shim.stat = lambda p: tuple(os.stat(real(p)))
    shim.statvfs = lambda p: (4096, 4096, 0, free // 4096, 0, 0, 0, 0, 0, 255)
    return shim


def main(argv):
    root = os.environ.get("FAKE_BOARD_DIR")
    if argv[:1] == ["connect"]:
        argv = argv[2:]
    if not root:
        print("mpremote: no device found", file=sys.stderr)
        return 1
    ver = tuple(int(x) for x in os.environ.get("FAKE_BOARD_VER", "1.29.0").split("."))
    mpy = int(os.environ.get("FAKE_BOARD_MPY", str(0xA06)), 0)
    free = int(os.environ.get("FAKE_BOARD_FREE", "800000"))
    if argv[0] == "exec":
        fake_sys = types.SimpleNamespace(
            implementation=types.SimpleNamespace(_mpy=mpy, version=ver), platform="rp2")
        fake_os = board_os(root, free)

        modules = {"os": fake_os, "sys": fake_sys}
        if os.environ.get("FAKE_BOARD_UF2"):
            version = types.SimpleNamespace(VERSION=os.environ["FAKE_BOARD_UF2"])
            modules["picoyacht.version"] = version

        def fake_import(name, *args, **kw):
            if name not in modules:
                raise ImportError(name)
            return modules[name]

        env = {"__builtins__": dict(builtins.__dict__, __import__=fake_import)}
        exec(argv[1], env)
        return 0
    if argv[:2] == ["fs", "cp"]:
        dst = os.path.join(root, argv[3].lstrip(":"))
        if not os.path.isdir(os.path.dirname(dst)):
            print("mpremote: cp: destination directory missing", file=sys.stderr)
            return 1
        shutil.copy(argv[2], dst)
        return 0
    print("fake mpremote: unsupported " + " ".join(argv), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
