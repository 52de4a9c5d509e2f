"""The repository's folders on sys.path, set up in this one place: tools/ and the firmware
package first; then, after everything installed, the scripts that also run under
MicroPython (host_tests/mp, with their helpers in host_tests), the .uf2 and web tools
(tools/uf2, tools/web), and tools/hostlib, whose `micropython` module gives the firmware
`const` under CPython.

A script run as `python tools/x.py` has tools/ on its path already and imports this before
the firmware; scripts in tools/uf2 and tools/web add tools/ first.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
TOOLS = ROOT / "tools"
BUILD = ROOT / "build"
HOST_TESTS = ROOT / "host_tests"
HOST_MP = HOST_TESTS / "mp"  # scripts that run under MicroPython and on the device

for _p in (TOOLS, FIRMWARE):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))
for _p in (HOST_MP, HOST_TESTS, TOOLS / "uf2", TOOLS / "web", TOOLS / "hostlib"):
    if str(_p) not in sys.path:
        sys.path.append(str(_p))
