"""`make flash` against an emulated board: version checks, the one-line no-board error,
stale-flavour clean-up, and .mpy files that really load under MicroPython."""

import os
import subprocess
import sys

import mpy_run

from conftest import FIRMWARE, ROOT

FAKE = [sys.executable, str(ROOT / "host_tests" / "fake_mpremote.py")]


def score_on_the_board(lib, face, box):
    """What landed in `lib` imports under MicroPython: a game rolls five `face`s and
    scores them in `box` (stdout, or the error)."""
    code = ("from picoyacht.game import Game\nclass R:\n def d6(s): return %d\n"
            "g = Game(0, ['A'], roller=R())\ng.roll()\nprint(g.score(%d))" % (face, box))
    r = mpy_run.run(code, [lib], "256k")
    return r.stdout.strip() or r.stderr


def flash(tmp_path, *args, board=True, ver="1.29.0", tables=None, uf2="", free=800000):
    env = dict(os.environ, PICOYACHT_MPREMOTE=" ".join(FAKE), FAKE_BOARD_VER=ver,
               PICOYACHT_TABLES=str(tables or tmp_path / "no-tables"), FAKE_BOARD_UF2=uf2,
               FAKE_BOARD_FREE=str(free))
    if board:
        env["FAKE_BOARD_DIR"] = str(tmp_path)
    else:
        env.pop("FAKE_BOARD_DIR", None)
    return subprocess.run([sys.executable, str(ROOT / "tools" / "deploy" / "flash.py"), *args],
                          capture_output=True, text=True, env=env, timeout=300)


def test_no_board_is_one_clear_line(tmp_path):
    out = flash(tmp_path, board=False)
    assert out.returncode == 1
    assert out.stderr.strip().count("\n") == 0
    assert "no MicroPython board found" in out.stderr


def test_too_old_micropython_is_refused(tmp_path):
    out = flash(tmp_path, ver="1.22.2")
    assert out.returncode == 1
    assert "1.22.2" in out.stderr and "v1.23" in out.stderr
    assert not (tmp_path / "lib" / "picoyacht").exists() or not any(
        (tmp_path / "lib" / "picoyacht").iterdir())


def test_a_pico_running_the_uf2_is_refused(tmp_path):
    out = flash(tmp_path, uf2="268b45a")
    assert out.returncode == 1
    assert "PicoYacht .uf2 (268b45a)" in out.stderr and "make uf2" in out.stderr
    assert not (tmp_path / "lib").exists() and not (tmp_path / "main.py").exists()


def test_flash_copies_mpy_and_removes_stale_sources(tmp_path):
    (tmp_path / "lib" / "picoyacht").mkdir(parents=True)
    (tmp_path / "lib" / "picoyacht" / "rules.py").write_text("raise ImportError('stale')")
    (tmp_path / "picoyacht").mkdir()  # an old mip install: '' comes before /lib on sys.path
    (tmp_path / "picoyacht" / "rules.py").write_text("raise ImportError('stale')")
    out = flash(tmp_path)
    assert out.returncode == 0, out.stderr
    assert not (tmp_path / "picoyacht").exists()
    pkg = tmp_path / "lib" / "picoyacht"
    names = sorted(p.name for p in pkg.iterdir())
    want = sorted(p.stem + ".mpy" for p in (FIRMWARE / "picoyacht").glob("*.py"))
    assert names == want
    assert "bytes of flash left" in out.stdout
    # What landed on the "board" imports and plays under the real MicroPython unix port.
    assert score_on_the_board(tmp_path / "lib", 3, 2) == "15"


def test_flash_src_copies_py_and_removes_mpy(tmp_path):
    assert flash(tmp_path).returncode == 0
    out = flash(tmp_path, "--src")
    assert out.returncode == 0, out.stderr
    names = {p.suffix for p in (tmp_path / "lib" / "picoyacht").iterdir()}
    assert names == {".py"}


def test_flash_copies_only_the_device_tables(tmp_path):
    tables = tmp_path / "tables-src"
    tables.mkdir()
    for name, size in (("yahtzee_0.bin", 1000), ("yatzy.bin", 2000), ("yahtzee_1.bin", 1000),
                       ("yatzy.exact.npy", 5000), ("yahtzee_0.json", 100)):
        (tables / name).write_bytes(bytes(size))
    board = tmp_path / "board"
    board.mkdir()
    out = flash(board, tables=tables)
    assert out.returncode == 0, out.stderr
    assert sorted(p.name for p in (board / "tables").iterdir()) == [
        "yahtzee_0.bin", "yahtzee_1.bin", "yatzy.bin"]


def test_a_table_with_no_room_is_left_out_and_said(tmp_path):
    """Every table is more than a stock Pico's filesystem holds beside the game: the
    defaults go first (Yahtzee's), one that does not fit is left out with a line that says
    so (Yatzy's), a smaller one after it still goes (Yahtzee with Sharp Dice), and the
    install completes. Negative control: without flash.fit_tables this stops with "not
    enough flash"."""
    tables = tmp_path / "tables-src"
    tables.mkdir()
    (tables / "yahtzee_0.bin").write_bytes(bytes(300_000))
    (tables / "yatzy.bin").write_bytes(bytes(900_000))
    (tables / "yahtzee_0_sharp.bin").write_bytes(bytes(300_000))
    (tables / "yahtzee_1.bin").write_bytes(bytes(300_000))
    board = tmp_path / "board"
    board.mkdir()
    out = flash(board, tables=tables, free=1_000_000)
    assert out.returncode == 0, out.stderr
    assert "yatzy.bin left out" in out.stdout and "yahtzee_1.bin left out" in out.stdout
    assert sorted(p.name for p in (board / "tables").iterdir()) == [
        "yahtzee_0.bin", "yahtzee_0_sharp.bin"]


def test_flash_refuses_when_flash_is_too_small(tmp_path):
    board = tmp_path / "board"
    board.mkdir()
    out = flash(board, free=40_000)
    assert out.returncode == 1 and "not enough flash" in out.stderr
    assert not (board / "lib" / "picoyacht").exists()


def test_manifest_freezes_the_package():
    calls = []
    env = {"package": lambda *a, **k: calls.append(("package", a, k)),
           "module": lambda *a, **k: calls.append(("module", a, k)),
           "__file__": str(ROOT / "manifest.py")}
    exec((ROOT / "manifest.py").read_text(), env)
    kinds = [c[0] for c in calls]
    assert "package" in kinds
    for kind, args, kw in calls:
        base = ROOT / kw.get("base_path", ".")
        assert (base / args[0]).exists(), (kind, args)


def test_package_json_lists_every_firmware_file():
    """mip installs exactly the firmware: regenerate with `python tools/deploy/gen_package.py`."""
    import json

    pkg = json.loads((ROOT / "package.json").read_text())
    listed = {src for _, src in pkg["urls"]}
    on_disk = {str(p.relative_to(ROOT)) for p in (FIRMWARE / "picoyacht").glob("*.py")}
    on_disk |= {str(p.relative_to(ROOT)) for p in FIRMWARE.glob("*.py")}
    assert listed == on_disk, "run: python tools/deploy/gen_package.py"
    for dest, src in pkg["urls"]:  # relative URLs: they survive forks
        # the package where make flash puts it (one location), main.py and config.py in /
        want = "lib/picoyacht/" if "/picoyacht/" in src else ""
        assert dest == want + src.rsplit("/", 1)[1], (dest, src)


def test_mip_from_a_clone_installs_where_make_flash_does(tmp_path, monkeypatch):
    """The README's `mpremote mip install --target / package.json`, run by mpremote's own
    installer against a board whose flash is tmp_path: main.py, config.py in /, the package
    in /lib/picoyacht, which imports and plays under MicroPython."""
    from mpremote import mip

    class Board:  # the transport calls mip makes
        def path(self, p):
            return tmp_path / p.lstrip("/")

        def fs_exists(self, p):
            return self.path(p).exists()

        def fs_mkdir(self, p):
            self.path(p).mkdir()

        def fs_writefile(self, p, data, progress_callback=None):
            self.path(p).write_bytes(data)

    monkeypatch.chdir(ROOT)
    mip._install_package(Board(), "package.json", mip._PACKAGE_INDEX, "/", None, False)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.py", "lib", "main.py"]
    got = sorted(p.name for p in (tmp_path / "lib" / "picoyacht").iterdir())
    assert got == sorted(p.name for p in (FIRMWARE / "picoyacht").glob("*.py"))
    assert score_on_the_board(tmp_path / "lib", 4, 3) == "20"
