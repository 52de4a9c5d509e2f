"""The repository's folders on sys.path, set up in this one place.

tools/ is a set of folders by role (the README names each); their modules import each
other by bare name, so each folder goes on the path here, after the firmware package.
tools/uf2 and tools/web come after everything (uf2's main.py is the .uf2's entry and must
not shadow firmware/main.py), and tools/hostlib last: its `framebuf` and `micropython`
stand in under CPython for what the MicroPython ports build in.

A script run as `python tools/<folder>/x.py` has only its own folder on its path: it puts
tools/ first and imports this before anything else of the project.
"""

import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
ROOT = TOOLS.parent
FIRMWARE = ROOT / "firmware"
BUILD = ROOT / "build"
# Scripts that run under MicroPython (unix port, emulated Pico) or in the browser, for the
# tools and the tests alike: players, probes, stress jobs, the fake flash.
RIGS = TOOLS / "rigs"
ROLES = ("sim", "mpy", "deploy", "emu", "tables", "hardware", "stress", "rigs")

for _p in reversed((FIRMWARE, TOOLS, *(TOOLS / r for r in ROLES))):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))
for _p in (TOOLS / "uf2", TOOLS / "web", TOOLS / "hostlib"):
    if str(_p) not in sys.path:
        sys.path.append(str(_p))
