"""Shared test plumbing: the firmware package on sys.path, and a runner for the real
MicroPython unix port so the same core can be checked on both interpreters."""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
HOST_TESTS = ROOT / "host_tests"
sys.path.insert(0, str(FIRMWARE))
sys.path.insert(0, str(HOST_TESTS / "mp"))
sys.path.insert(0, str(ROOT / "tools"))
sys.path.append(str(ROOT / "tools" / "hostlib"))  # CPython stand-in for framebuf

from mpy_build import compile_package  # noqa: E402


def micropython_path():
    """The unix-port interpreter from the project's venv (or PATH as a fallback)."""
    here = Path(sys.executable).parent / "micropython"
    if here.exists():
        return str(here)
    for d in os.environ.get("PATH", "").split(os.pathsep):
        cand = Path(d) / "micropython"
        if cand.exists():
            return str(cand)
    return None


_COMPILED = []


def compiled_firmware():
    """The picoyacht package compiled with mpy-cross, as `make flash` puts it on the Pico.

    Built once per test session into a fresh temp dir, so MicroPython runs measure the
    game, not the on-device compiler (which needs far more heap than the game itself)."""
    if not _COMPILED:
        out = Path(tempfile.mkdtemp(prefix="picoyacht-mpy-"))
        compile_package(out)
        _COMPILED.append(out)
    return _COMPILED[0]


def run_micropython(script, heap="64k", args=(), timeout=600, extra_path=(), source=False):
    """Run a MicroPython script file (or source text) with the firmware on its path.

    The package is loaded as .mpy, like on the device; source=True loads the .py files.
    Returns the CompletedProcess; the caller asserts on stdout and returncode."""
    mp = micropython_path()
    if mp is None:
        pytest.fail("micropython unix port not installed: run `make test` to bootstrap .venv")
    paths = [str(FIRMWARE), str(HOST_TESTS / "mp"), *map(str, extra_path)]
    if not source:
        paths.insert(0, str(compiled_firmware()))
    env = dict(os.environ, MICROPYPATH=os.pathsep.join(paths + [".frozen"]))
    if isinstance(script, Path):
        cmd = [mp, "-X", "heapsize=" + heap, str(script), *args]
    else:
        cmd = [mp, "-X", "heapsize=" + heap, "-c", script, *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)


@pytest.fixture
def mp_run():
    return run_micropython
