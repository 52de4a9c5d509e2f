"""Shared test plumbing: the firmware package on sys.path, and a runner for the real
MicroPython unix port so the same core can be checked on both interpreters."""

import ast
import sys
import tempfile
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HOST_TESTS = ROOT / "host_tests"
sys.path.insert(0, str(HOST_TESTS / "mp"))
sys.path.insert(0, str(ROOT / "tools"))
import paths  # noqa: E402  (the firmware, every tools/ folder, and hostlib's framebuf)

import mpy_run  # noqa: E402
from mpy_build import compile_package  # noqa: E402

FIRMWARE = paths.FIRMWARE
RIGS = paths.RIGS  # the players, rigs and fake flash the tools share with the tests

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
    if mpy_run.micropython() is None:
        pytest.fail("micropython unix port not installed: run `make test` to bootstrap .venv")
    where = [FIRMWARE, HOST_TESTS / "mp", RIGS, *extra_path]
    if not source:
        where.insert(0, compiled_firmware())
    return mpy_run.run(script, where, heap, args, timeout)


@pytest.fixture
def mp_run():
    return run_micropython


# ---- twin test modules: one file per concern, run on CPython and on MicroPython ----------
# A test marked @pytest.mark.micropython runs here as usual and again on the unix port, as
# "<name>[micropython]" (with only=True: there only). Its module must import on both
# interpreters: CPython-only imports go inside the CPython-only tests, and on MicroPython
# pytest and hypothesis are the stand-ins in mp/shim (host_tests/mp/README.md).
def emulated_pico(pico):
    """tools/emu/emulator.py, installed; the test skips, saying why, where it cannot."""
    if pico.node() is None:
        pytest.skip("node is not installed: the emulated Pico runs in node")
    try:
        pico.install()
    except pico.PicoError as e:
        pytest.skip(str(e))
    return pico


SHIM = HOST_TESTS / "mp" / "shim"
TWIN_HEAP = "1M"  # correctness runs; heap budgets have their own tests
_MP_RESULTS = {}


def pytest_configure(config):
    config.addinivalue_line("markers", "micropython(only=False): also run on MicroPython")


def micropython_results(module):
    """{test name: (status, detail)} from one unix-port run of the module's marked tests."""
    if module.__name__ not in _MP_RESULTS:
        mpy_run.compile_scripts(compiled_firmware(), [module.__file__])
        heap = getattr(module, "MICROPYTHON_HEAP", TWIN_HEAP)
        r = run_micropython("import mptest; mptest.main(%r)" % module.__name__, heap,
                            extra_path=[SHIM, HOST_TESTS], timeout=1800)
        res, name = {}, None
        for line in r.stdout.splitlines():
            word, _, rest = line.partition(" ")
            if name is not None:
                if line == "END":
                    name = None
                else:
                    res[name][1].append(line)
            elif word in ("PASS", "SKIP"):
                res[rest.split()[0]] = (word, [rest])
            elif word == "FAIL":
                name = rest
                res[name] = (word, [])
        if "DONE" not in r.stdout.splitlines():
            res = {"*": ("FAIL", [r.stdout[-3000:], r.stderr[-3000:]])}
        _MP_RESULTS[module.__name__] = res
    return _MP_RESULTS[module.__name__]


def micropython_call(module, func, *args, heap=TWIN_HEAP):
    """module.func(*args) evaluated on MicroPython (module: a twin test module), read back
    from its repr: for tests that compare both interpreters' results."""
    mpy_run.compile_scripts(compiled_firmware(), [HOST_TESTS / (module + ".py")])
    code = "import %s; print(repr(%s.%s(*%r)))" % (module, module, func, args)
    r = run_micropython(code, heap, extra_path=[SHIM, HOST_TESTS])
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return ast.literal_eval(r.stdout.strip().splitlines()[-1])


class MicroPythonTwin(pytest.Item):
    """A marked test's run on the MicroPython unix port (all of a module's in one process)."""

    def __init__(self, *, test, **kw):
        super().__init__(**kw)
        self.test = test
        self.add_marker("micropython")

    def runtest(self):
        res = micropython_results(self.getparent(pytest.Module).obj)
        status, detail = res.get(self.test) or res.get("*") or ("FAIL", ["not run"])
        if status == "SKIP":
            pytest.skip(" ".join(detail))
        if status != "PASS":
            raise AssertionError("on MicroPython:\n" + "\n".join(detail))

    def repr_failure(self, excinfo):
        return str(excinfo.value)

    def reportinfo(self):
        return self.path, None, "%s[micropython]" % self.test


@pytest.hookimpl(tryfirst=True)  # the xdist_group marks below: before xdist's hook reads them
def pytest_collection_modifyitems(session, config, items):
    out, twinned = [], set()
    for item in items:
        mark = item.get_closest_marker("micropython")
        if mark is None or isinstance(item, MicroPythonTwin):
            out.append(item)
            continue
        if not mark.kwargs.get("only"):
            out.append(item)
        test = getattr(item, "originalname", item.name)
        if (item.module, test) not in twinned:
            twinned.add((item.module, test))
            out.append(MicroPythonTwin.from_parent(item.parent, name=test + "[micropython]",
                                                   test=test))
    items[:] = out
    # `make test` runs on two workers (pytest-xdist, --dist loadgroup): a module's tests stay
    # on one worker (its fixtures and its one MicroPython twin run are made once), except the
    # stress runs, each long and independent, which spread over both.
    for item in items:
        if item.path.stem not in SPREAD:
            item.add_marker(pytest.mark.xdist_group(item.path.stem))


SPREAD = {"test_stress"}


# ---- progress: name a test that runs long, so a quiet `make test` says what it waits for -----
SLOW_NOTICE_S = 10


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    reporter = item.config.pluginmanager.getplugin("terminalreporter")
    capture = item.config.pluginmanager.getplugin("capturemanager")

    def notice():
        with capture.global_and_fixture_disabled():
            reporter.write("\n")  # off the line of dots
            reporter.write_line("  running for %d s: %s" % (SLOW_NOTICE_S, item.nodeid))

    timer = threading.Timer(SLOW_NOTICE_S, notice)
    timer.daemon = True
    if reporter is not None and capture is not None:
        timer.start()
    try:
        yield
    finally:
        timer.cancel()
