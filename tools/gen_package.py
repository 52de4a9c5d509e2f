"""Write package.json so `mpremote mip install --target / github:OWNER/REPO` installs
PicoYacht from the repository (relative URLs survive forks). A test keeps it in sync."""

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def package():
    fw = ROOT / "firmware"
    urls = [[p.name, "firmware/" + p.name] for p in sorted(fw.glob("*.py"))]
    urls += [["picoyacht/" + p.name, "firmware/picoyacht/" + p.name]
             for p in sorted((fw / "picoyacht").glob("*.py"))]
    return {"urls": urls, "version": "0.1.0"}


if __name__ == "__main__":
    (ROOT / "package.json").write_text(json.dumps(package(), indent=2) + "\n")
    print("package.json:", len(package()["urls"]), "files")
