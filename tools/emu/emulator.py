"""The emulated Pico as a tool: the real MicroPython rp2 firmware on an emulated RP2040.

Used by `make bench-pico` (tools/emu/bench_pico.py) and host_tests/test_pico.py. The emulator is
../shared/rp2emu (beside the repo), copied to build/rp2emu and given its one pinned npm
package on first use. What goes onto the emulated flash is exactly `make flash`'s layout
(tools/deploy/flash.py stage(): main.py, config.py, lib/picoyacht/*.mpy, the tables if built),
packed once into a littlefs image that is cached under build/pico/.

Every function takes `fw`, a stock firmware version in FIRMWARES (default DEFAULT_FW);
run() and boot_main() also take `firmware`, the path of a PicoYacht .uf2 to run instead.
The one driver of the emulator is tools/emu/emulator.mjs; its header lists the job fields.
"""

import fcntl
import hashlib
import json
import shutil
import subprocess
import tempfile
from pathlib import Path

from paths import BUILD, RIGS, ROOT, TOOLS

from flash import SAVES_ROOM, fit_tables, stage
from mpy_build import mpy_cross

EMU = BUILD / "rp2emu"
SHARED_EMU = ROOT.parent / "shared" / "rp2emu"
RP2040JS = "1.4.1"
FIRMWARES = {"1.28.0": "RPI_PICO-v1.28.0.uf2", "1.24.1": "RPI_PICO-v1.24.1.uf2"}
DEFAULT_FW = "1.28.0"
DRIVER = TOOLS / "emu" / "emulator.mjs"
PROBE_SRC = (RIGS / "pico_probe.py",)


class PicoError(Exception):
    """The emulator could not be set up or a run failed outside the device."""


def node():
    return shutil.which("node")


def install():
    """build/rp2emu with rp2040js installed (copied from ../shared/rp2emu once). One
    process at a time: the test suite's workers may all ask at once."""
    BUILD.mkdir(exist_ok=True)
    with open(BUILD / "rp2emu.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _install()


def _install():
    pkg = EMU / "node_modules" / "rp2040js" / "package.json"
    if pkg.exists() and json.loads(pkg.read_text()).get("version") == RP2040JS:
        return EMU
    if not SHARED_EMU.exists():
        raise PicoError("no emulator at %s (CI clones shared/ beside the repo)" % SHARED_EMU)
    if EMU.exists():
        shutil.rmtree(EMU)
    shutil.copytree(SHARED_EMU, EMU)
    for p in [EMU, *EMU.rglob("*")]:  # shared/ is read-only; npm writes here
        p.chmod(p.stat().st_mode | 0o200)
    npm = shutil.which("npm")
    if npm is None:
        raise PicoError("npm not found (it comes with node)")
    r = subprocess.run([npm, "install", "--prefix", str(EMU), "--no-audit", "--no-fund"],
                       capture_output=True, text=True, timeout=600)
    if r.returncode or not pkg.exists():
        raise PicoError("npm install failed: " + (r.stdout + r.stderr)[-500:])
    return EMU


def uf2(fw=DEFAULT_FW):
    return str(install() / "firmware" / FIRMWARES[fw])


def layout(out, probe=False, tables=True, extra=(), config=None):
    """make flash's files under `out` (tools/deploy/flash.py stage), as (local, remote) pairs;
    `extra` .py files (e.g. scripts of tools/rigs) go beside main.py as .mpy; `config`
    (bytes): a builder's /config.py in place of firmware/config.py."""
    out = Path(out)
    pairs = stage(False, out)
    if config is not None:
        mine = out / "config.py"
        mine.write_bytes(config)
        pairs = [(mine, b) if b == "config.py" else (a, b) for a, b in pairs]
    if not tables:
        pairs = [p for p in pairs if not p[1].startswith("tables/")]
    pairs, _ = fit_tables(pairs, STOCK_FS_ROOM)  # as make flash does on a stock Pico
    if probe:
        pairs = [p for p in pairs if p[1] != "main.py"]
    for src in (PROBE_SRC if probe else ()) + tuple(extra):
        dst = out / (Path(src).stem + ".mpy")
        subprocess.run([mpy_cross(), "-o", str(dst), str(src)], check=True, capture_output=True)
        pairs.append((dst, dst.name))
    return pairs


_IMAGES = {}


def image(probe=False, tables=True, extra=(), config=None):
    """The littlefs image of a layout, cached by content: (path, files) for the driver."""
    key = (probe, tables, tuple(extra), config)
    if key not in _IMAGES:
        stage_dir = Path(tempfile.mkdtemp(prefix="pico-layout-", dir=_tmp()))
        pairs = layout(stage_dir, probe, tables, extra, config)
        h = hashlib.sha256()
        for local, remote in sorted(pairs, key=lambda p: p[1]):
            h.update(remote.encode() + b"\0" + Path(local).read_bytes())
        path = BUILD / "pico" / ("flash-%s.img" % h.hexdigest()[:16])
        _IMAGES[key] = (path, [[str(a), b] for a, b in pairs])
    return _IMAGES[key]


def _tmp():
    d = BUILD / "pico" / "tmp"
    d.mkdir(parents=True, exist_ok=True)
    return str(d)


def run(job, fw=DEFAULT_FW, timeout=900, firmware=None):
    """Run one job through tools/emu/emulator.mjs, on stock firmware `fw` or on the .uf2 file
    `firmware` (a PicoYacht build); its JSON result."""
    if node() is None:
        raise PicoError("node not found")
    emu = install()
    job = dict(job, uf2=str(firmware or uf2(fw)), emuDir=str(emu))
    job.setdefault("timeoutS", timeout - 30)
    with tempfile.NamedTemporaryFile("w", suffix=".json", dir=_tmp(), delete=False) as f:
        json.dump(job, f)
    try:
        r = subprocess.run([node(), str(DRIVER), f.name], capture_output=True, text=True,
                           timeout=timeout)
    finally:
        Path(f.name).unlink()
    lines = r.stdout.strip().splitlines()
    if r.returncode or not lines:
        raise PicoError("driver failed (rc %d): %s" % (r.returncode, r.stderr[-1500:]))
    res = json.loads(lines[-1])
    res["log"] = r.stderr
    return res


def boot_main(ms, fw=DEFAULT_FW, ctrlc_at=None, tables=True, firmware=None, config=None,
              **extra):
    """Power on for `ms` ms of emulated time: the make-flash layout (main.py runs; `config`:
    its /config.py's bytes), or the .uf2 `firmware` on an empty filesystem. extra: presses,
    shotsAtMs (emulator.mjs)."""
    job = dict(extra, boot="main", bootMs=ms)
    if firmware is None:
        img, files = image(False, tables, config=config)
        job.update(image=str(img), files=files)
    if ctrlc_at is not None:
        job["ctrlc"] = {"atMs": ctrlc_at}
    return run(job, fw, firmware=firmware)


def run_frozen(firmware, steps, until, sim_s=600, timeout=3000):
    """On the .uf2 `firmware`: the driver's "file" boot (steps, then /main.py after a soft
    reset, until the console matches `until`); its JSON result."""
    return run({"boot": "file", "steps": steps, "until": until, "simS": sim_s}, timeout=timeout,
               firmware=firmware)


def run_code(code, fw=DEFAULT_FW, extra=(), timeout=900):
    """Run Python on the device beside the layout (main.py left out); (stdout, stderr)."""
    img, files = image(True, False, extra)
    res = run({"boot": "repl", "image": str(img), "files": files, "run": code}, fw, timeout)
    return res.get("out", ""), res.get("err", "") or res.get("error", "")


def blocker(free):
    """Python for the raw REPL: allocate one bytearray so that `free` bytes stay free."""
    return ("import gc\ngc.collect()\n_n = gc.mem_free() - %d - 64\n"
            "_blocker = bytearray(_n) if _n > 0 else None\ngc.collect()" % free)


# What make flash may fill on stock MicroPython's filesystem (352 blocks on a Pico): less
# littlefs's own blocks (superblock, a pair per folder) and the game's saves.
STOCK_FS_ROOM = (352 - 16) * 4096 - SAVES_ROOM
NA = -0x7FFFFFF  # pico_probe: allocation not measured on that pass


class Probe:
    """A parsed tools/rigs/pico_probe.py run: records, idle sums, summary, console, and
    the driver's data."""

    def __init__(self, res):
        self.raw = res
        self.records = []  # (kind name, state name, us, alloc, i2c data bytes, writes)
        self.idle = {}  # state name -> (passes sampled, alloc, max us, passes, total us)
        self.summary = {}
        self.console = []
        out = res.get("out", "")
        for line in out.splitlines():
            p = line.split()
            if p[:1] == ["R"] and len(p) == 7:
                us, al, by, wr = map(int, p[3:])
                self.records.append((p[1], p[2], us, None if al == NA else al, by, wr))
            elif p[:1] == ["I"] and len(p) == 7:
                self.idle[p[1]] = tuple(map(int, p[2:]))
            elif p[:1] == ["S"] and len(p) > 1:
                self.summary[p[1]] = p[2:]
            else:
                self.console.append(line)
        self.error = res.get("err") or res.get("error") or ""
        self.completed = "end" in self.summary and not self.error

    def faults(self):
        """Console lines that report a fault, an exception or a CPU engine error."""
        bad = ('"ev":"fault"', '"ev":"cpu_error"', "Traceback", "Error", "exception")
        return [ln for ln in self.console + self.error.splitlines()
                if any(b in ln for b in bad)]


def probe(opts, fw=DEFAULT_FW, free=None, tables=True, ctrlc_delays=(), timeout=900):
    """Play on the emulated Pico with tools/rigs/pico_probe.py's player; a Probe."""
    img, files = image(True, tables)
    job = {"boot": "repl", "image": str(img), "files": files,
           "setup": [blocker(free)] if free is not None else [],
           "run": "import pico_probe\npico_probe.main(%r)" % (opts,)}
    if ctrlc_delays:
        job["ctrlc"] = {"delaysMs": list(ctrlc_delays)}
    return Probe(run(job, fw, timeout))
