"""make release: what a tagged version publishes, in dist/.

    python tools/deploy/release.py [--build build] [--out dist]

dist/ gets both .uf2 files (`make uf2`), the web site (build/web, from `make web`, which
runs first when the site is missing) and SHA256SUMS over every file, in the format
`sha256sum -c` reads, so a download can be checked. Anything missing stops the release
with the command that makes it: a release is never published half-built.
"""

import argparse
import hashlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
UF2 = ("picoyacht-pico.uf2", "picoyacht-pico2.uf2")
SUMS = "SHA256SUMS"


class ReleaseError(Exception):
    """What is missing, said in one line."""


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def site(build, make_web):
    """build/web, made with `make web` first if it is missing and the Makefile has it."""
    web = build / "web"
    if not (web / "index.html").exists() and make_web():
        subprocess.run(["make", "web"], cwd=ROOT, check=True)
    if not (web / "index.html").exists():
        raise ReleaseError("no web site in %s (run `make web`)" % web)
    return web


def has_web_target():
    return re.search(r"^web:", (ROOT / "Makefile").read_text(), re.M) is not None


def release(build, out, make_web=has_web_target):
    """Writes out/ from build/; returns the SHA256SUMS lines."""
    missing = [n for n in UF2 if not (build / n).exists()]
    if missing:
        raise ReleaseError("missing %s (run `make uf2`)" % ", ".join(missing))
    web = site(build, make_web)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for name in UF2:
        shutil.copyfile(build / name, out / name)
    shutil.copytree(web, out / "web")
    lines = ["%s  %s" % (sha256(p), p.relative_to(out).as_posix())
             for p in sorted(out.rglob("*")) if p.is_file()]
    (out / SUMS).write_text("\n".join(lines) + "\n")
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=str(ROOT / "build"))
    ap.add_argument("--out", default=str(ROOT / "dist"))
    a = ap.parse_args(argv)
    try:
        lines = release(Path(a.build), Path(a.out))
    except ReleaseError as e:
        sys.exit("make release: " + str(e))
    print("%s: %d files and %s" % (a.out, len(lines), SUMS))


if __name__ == "__main__":
    main()
