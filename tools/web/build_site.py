"""Build the static site that plays PicoYacht in a browser: build/web/.

    python tools/web/build_site.py [--out build/web] [--no-tables | --tables-on-request]

What goes in: the page (index.html, page.js, bundle.mjs), the pinned MicroPython
WebAssembly port from npm (mp/), and firmware.bin: config.py, the picoyacht package, and
the two boards (tools/sim/board_sim.py, tools/web/board_web.py), compiled to .mpy (bytecode
the port loads without compiling: no -march, as it has no native emitter; fast_viper,
which needs one, stays out and fast.py plays its Python loops), in one file the page
unpacks into the port's filesystem. And Expert's tables from tables/ (`make tables`) with
tables.json (name -> bytes), fetched by the page only when a game needs one. With
--tables-on-request (`make web`) tables.json lists every table, built or not, and
tools/web/serve.py --build-tables builds one the first time the page asks for it. Then what
installs it and plays it offline (site_extras.py): icons, a manifest, the rules panel's
data, the version, and the service worker sw.js.

The folder is plain files: any static host serves it (see the README).
"""

import argparse
import json
import shutil
import struct
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tools/, for paths
import paths

import npm
import site_extras
from mpy_build import mpy_cross

HERE = Path(__file__).resolve().parent
ROOT = paths.ROOT

PAGE_FILES = ("index.html", "page.js", "bundle.mjs")
PORT_FILES = ("micropython.mjs", "micropython.wasm")
LIB = "/lib/"  # on the port's sys.path


def sources():
    """(path in the port's filesystem, source file) of every module the page runs."""
    out = [("config", ROOT / "firmware" / "config.py"),
           ("board_sim", paths.TOOLS / "sim" / "board_sim.py"),
           ("board_web", HERE / "board_web.py")]
    for src in sorted((ROOT / "firmware" / "picoyacht").glob("*.py")):
        out.append(("picoyacht/" + src.stem, src))
    return out


def compile_module(src):
    """The .mpy bytes of src, or None when it needs a native emitter the port lacks."""
    tmp = ROOT / "build" / "web-mpy" / (src.stem + ".mpy")
    tmp.parent.mkdir(parents=True, exist_ok=True)
    r = subprocess.run([mpy_cross(), "-o", str(tmp), str(src)], capture_output=True, text=True)
    if r.returncode:
        if "@micropython.viper" in src.read_text():
            return None
        sys.exit("mpy-cross failed on %s:\n%s" % (src, r.stderr))
    return tmp.read_bytes()


def bundle(files):
    """u32 index length, the JSON index [[path, bytes], ...], then the files' bytes."""
    index = json.dumps([[path, len(data)] for path, data in files]).encode()
    return struct.pack("<I", len(index)) + index + b"".join(data for _, data in files)


def build(out, tables=True, on_request=False, project_url=""):
    out = Path(out)
    if out.exists():
        shutil.rmtree(out)
    (out / "mp").mkdir(parents=True)
    port = npm.port_dir()
    for name in PORT_FILES:
        shutil.copyfile(port / name, out / "mp" / name)
    for name in PAGE_FILES:
        shutil.copyfile(HERE / name, out / name)
    files = []
    for path, src in sources():
        data = compile_module(src)
        if data is not None:
            files.append((LIB + path + ".mpy", data))
    (out / "firmware.bin").write_bytes(bundle(files))
    sizes = {}
    if tables:
        import build_tables

        (out / "tables").mkdir()
        cache = ROOT / "tables"
        for alias, name in {**{n: n for n in build_tables.TABLES}, **build_tables.SHARED}.items():
            file = alias + ".bin"
            if build_tables.is_current(name, cache):
                shutil.copyfile(cache / file, out / "tables" / file)
                sizes[file] = (cache / file).stat().st_size
            elif on_request:
                sizes[file] = build_tables.file_size(name)
    (out / "tables.json").write_text(json.dumps(sizes))
    site_extras.write(out, ROOT, HERE / "sw.js", project_url)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=str(ROOT / "build" / "web"))
    ap.add_argument("--no-tables", action="store_true",
                    help="leave Expert's tables out (Expert then plays as Normal)")
    ap.add_argument("--tables-on-request", action="store_true",
                    help="list every table; serve.py --build-tables builds one when asked")
    ap.add_argument("--project-url", default="",
                    help="the project's address for the page's link (else the README, as text)")
    args = ap.parse_args()
    out = build(args.out, not args.no_tables, args.tables_on_request, args.project_url)
    n = json.loads((out / "tables.json").read_text())
    total = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    print("built %s: %d bytes, %d of Expert's tables%s" % (
        out, total, len(n), "" if n or args.no_tables else " (run `make tables` for them)"))


if __name__ == "__main__":
    main()
