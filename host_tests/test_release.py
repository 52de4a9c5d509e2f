"""Getting it: `make help` (what plain `make` prints) and `make release`'s dist/."""

import hashlib
import re
import shutil
import subprocess

import pytest
import release  # tools/deploy, on the path from conftest

from conftest import ROOT


def targets(makefile):
    return [m.group(1) for m in re.finditer(r"^([a-z][a-z0-9-]*):(?!=)", makefile, re.M)]


def make(*args, cwd=ROOT):
    r = subprocess.run(["make", "-s", "--no-print-directory", *args], cwd=cwd,
                       capture_output=True, text=True, check=True)
    return r.stdout


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_plain_make_lists_every_target_in_a_line():
    out = make()
    assert out == make("help")
    names = targets((ROOT / "Makefile").read_text())
    assert "help" in names and "release" in names
    lines = out.splitlines()
    assert len(lines) == len(names)
    for name, line in zip(names, lines, strict=True):
        m = re.match(r"  make (\S+) +(\S.*)$", line)
        assert m and m.group(1) == name, line
        assert len(line) <= 100


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_help_takes_a_target_without_its_own_text_from_the_comment_above(tmp_path):
    text = (ROOT / "Makefile").read_text() + (
        "\n# The web site in build/web (a static page), served by `make serve`.\n"
        "web:\n\ttrue\n")
    (tmp_path / "Makefile").write_text(text)
    assert "  make web             The web site in build/web\n" in make(cwd=tmp_path)


def fake_build(tmp_path):
    b = tmp_path / "build"
    (b / "web" / "assets").mkdir(parents=True)
    for name in release.UF2:
        (b / name).write_bytes(name.encode() * 100)
    (b / "web" / "index.html").write_text("<title>PicoYacht</title>")
    (b / "web" / "assets" / "game.js").write_text("play()")
    return b


def test_release_writes_both_uf2_the_site_and_checksums_that_verify(tmp_path):
    b = fake_build(tmp_path)
    out = tmp_path / "dist"
    (out / "stale").mkdir(parents=True)  # a file from an earlier release is not published
    release.release(b, out, make_web=lambda: False)
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert files == sorted([*release.UF2, "web/index.html", "web/assets/game.js",
                            release.SUMS])
    sums = (out / release.SUMS).read_text().splitlines()
    assert len(sums) == 4
    for line in sums:
        digest, name = line.split("  ")
        assert hashlib.sha256((out / name).read_bytes()).hexdigest() == digest
    assert (out / release.UF2[1]).read_bytes() == (b / release.UF2[1]).read_bytes()


def test_release_stops_on_anything_missing(tmp_path):
    b = fake_build(tmp_path)
    (b / release.UF2[1]).unlink()
    with pytest.raises(release.ReleaseError, match="make uf2"):
        release.release(b, tmp_path / "dist", make_web=lambda: False)
    b = fake_build(tmp_path / "again")
    shutil.rmtree(b / "web")
    asked = []
    with pytest.raises(release.ReleaseError, match="make web"):
        release.release(b, tmp_path / "dist", make_web=lambda: asked.append(1) or False)
    assert asked == [1]  # it looked for `make web` before giving up
    assert not (tmp_path / "dist").exists()


def test_the_tag_workflow_publishes_what_release_writes():
    wf = (ROOT / ".github" / "workflows" / "release.yml").read_text()
    assert re.search(r"^on:\n  push:\n    tags: \[\"v\*\"\]", wf, re.M)
    assert "run: make release" in wf
    for name in (*release.UF2, release.SUMS):
        assert "dist/" + name in wf  # each file goes to the release
    assert re.search(r"upload-pages-artifact@v\d+\n\s+with:\n\s+path: dist/web\n", wf)
    import build  # tools/uf2/build.py

    assert build.SOURCE_FILE in wf  # the sources the build checks
