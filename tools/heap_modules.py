"""What each firmware module costs in RAM on the emulated Pico, as `make flash` lays it out.

    python tools/heap_modules.py [--fw 1.28.0] [--uf2 build/picoyacht-pico.uf2]

Imports the package one module at a time, every module after the ones it imports at load,
and prints the heap each import keeps (gc.mem_alloc after a collection, before and after).
With the .mpy layout a module's bytecode, its names and its tables land in the heap; with
--uf2 (the frozen build of `make uf2`) only its objects do (module and class dicts, function
objects, tables built at import). The difference between the two columns is what freezing
saves; the second column is what no layout can save without changing the code.
"""

import argparse
import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "firmware" / "picoyacht"
sys.path.insert(0, str(ROOT / "tools"))


def load_order():
    """Every module of the package after the package modules it imports at top level."""
    deps = {}
    for src in sorted(PKG.glob("*.py")):
        if src.stem == "__init__":
            continue
        found = set()
        for node in ast.parse(src.read_text()).body:  # top level only: lazy imports excluded
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(
                    "picoyacht"):
                if node.module == "picoyacht":
                    found.update(a.name for a in node.names)
                else:
                    found.add(node.module.split(".")[1])
        deps[src.stem] = found & {p.stem for p in PKG.glob("*.py")}
    order = []

    def visit(m):
        if m not in order:
            for d in sorted(deps.get(m, ())):
                visit(d)
            order.append(m)

    for m in sorted(deps):
        visit(m)
    return order


def device_code(order):
    return """import gc, sys
for _p in ('.frozen',):
    if _p in sys.path:
        sys.path.remove(_p)
        sys.path.insert(0, _p)
gc.collect()
t0 = gc.mem_alloc()
for m in %r:
    gc.collect()
    a = gc.mem_alloc()
    try:
        __import__('picoyacht.' + m)
        gc.collect()
        print('MOD', m, gc.mem_alloc() - a)
    except Exception as e:
        print('MOD', m, -1, repr(e))
gc.collect()
print('MOD total', gc.mem_alloc() - t0)
print('DONE')
""" % (order,)


def parse(out):
    rows = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[0] == "MOD":
            rows[parts[1]] = int(parts[2])
    return rows


def on_mpy(order, fw):
    import pico

    out, err = pico.run_code(device_code(order), fw)
    if "DONE" not in out:
        raise SystemExit("device run failed: " + (err or out)[-800:])
    return parse(out)


def on_uf2(order, uf2):
    r = subprocess.run(["node", str(ROOT / "tools" / "uf2" / "emu.mjs"), "exec", uf2,
                        "--code", device_code(order)], capture_output=True, text=True)
    if r.returncode or "DONE" not in r.stdout:
        raise SystemExit("uf2 run failed: " + (r.stderr or r.stdout)[-800:])
    return parse(json.loads(r.stdout.strip().splitlines()[-1])["out"])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fw", default="1.28.0")
    ap.add_argument("--uf2", help="also measure this frozen build (make uf2)")
    a = ap.parse_args(argv)
    order = load_order()
    cols = [("mpy layout (%s)" % a.fw, on_mpy(order, a.fw))]
    if a.uf2:
        cols.append(("frozen .uf2", on_uf2(order, a.uf2)))
    mpy_dir = ROOT / "build" / "pico" / "mpy-sizes"
    sizes = {}
    try:
        from mpy_build import compile_package
        for f in compile_package(mpy_dir, ("-O3",), arch="armv6m"):
            sizes[f.stem] = f.stat().st_size
    except (OSError, subprocess.CalledProcessError):
        pass
    print("| module | .mpy bytes (-O3) | " + " | ".join(c[0] + ", heap B" for c in cols) + " |")
    print("|---|---|" + "---|" * len(cols))
    for m in order + ["total"]:
        print("| %s | %s | %s |" % (m, sizes.get(m, sum(sizes.values()) if m == "total" else "-"),
                                    " | ".join(str(c[1].get(m, "-")) for c in cols)))


if __name__ == "__main__":
    main()
