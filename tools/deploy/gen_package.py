"""Write package.json so mpremote's mip installs PicoYacht where `make flash` puts it:
main.py and config.py in /, the package in /lib/picoyacht. Install with --target / :

    mpremote mip install --target / package.json             (in a clone: no network)
    mpremote mip install --target / github:<owner>/<repo>    (a published copy)

URLs are relative to package.json, so they survive forks. A test keeps it in sync."""

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE_DIR = "lib/picoyacht"  # as make flash lays it out (tools/deploy/flash.py)


def package():
    fw = ROOT / "firmware"
    urls = [[p.name, "firmware/" + p.name] for p in sorted(fw.glob("*.py"))]
    urls += [[PACKAGE_DIR + "/" + p.name, "firmware/picoyacht/" + p.name]
             for p in sorted((fw / "picoyacht").glob("*.py"))]
    return {"urls": urls, "version": "0.1.0"}


if __name__ == "__main__":
    (ROOT / "package.json").write_text(json.dumps(package(), indent=2) + "\n")
    print("package.json:", len(package()["urls"]), "files")
