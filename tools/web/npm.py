"""The page's npm packages (tools/web/package.json, pinned by its lockfile), installed with
`npm ci` into build/npm (git-ignored) when the lockfile changes: the MicroPython
WebAssembly port the site carries, and playwright-core, which drives Debian's chromium in
the browser tests and the bench (it never downloads a browser)."""

import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
NPM_DIR = ROOT / "build" / "npm"
PORT_PACKAGE = "@micropython/micropython-webassembly-pyscript"


def modules():
    """build/npm/node_modules, installed from the lockfile if it is missing or stale."""
    lock = (HERE / "package-lock.json").read_bytes()
    stamp = NPM_DIR / "node_modules" / ".picoyacht-lock"
    if stamp.exists() and stamp.read_bytes() == lock:
        return NPM_DIR / "node_modules"
    if shutil.which("npm") is None:
        sys.exit("npm is needed for the browser build (Debian: apt-get install npm)")
    NPM_DIR.mkdir(parents=True, exist_ok=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(HERE / name, NPM_DIR / name)
    subprocess.run(["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund"],
                   cwd=NPM_DIR, check=True, stdout=subprocess.DEVNULL)
    stamp.write_bytes(lock)
    return NPM_DIR / "node_modules"


def port_dir():
    """The pinned WebAssembly port's files (micropython.mjs, micropython.wasm)."""
    return modules() / PORT_PACKAGE


if __name__ == "__main__":
    print(modules())
