"""PicoYacht's package: its layers, and quick imports (of the built-ins, and of its own
modules from a littlefs folder).

Layers, lowest first. A module imports only from its own layer and the layers below it;
cpu and persistence stand side by side (rank 2) and neither imports the other. This holds
for imports inside functions too (host_tests/test_layers.py, which reads this map):

  1 core: __init__ heap rules game roller snapshot invariants reachable score_rows ticks
          buttons debounce cues labels gamelog version
  2 cpu: dice engine engine_tables one_throw estimate strategy strategy_table
         table_packed final_gap policy coach
  2 persistence: store saves record_check wallets
  3 screens: screens fast fast_viper font menus newgame play card handover scores results
             records rolloff box_help diag
  4 flow: turn app power sound
  5 board: board board_pico board_power ssd1306 config_check

core is pure and touches no hardware: the rules and the game, and what every layer shares
(time, button ids and their debouncer, sound cues, box names, the log's lines, and in heap
the heap's lifetimes, forget, sweep and locked; version is written by the build). cpu is
the CPU players and the coach; persistence the save formats and the store. screens draw and
read keys; flow is the session (App), the turn the screens call through it, sleep and
sound; board the contract every board keeps (board) and the Pico's pins and display.

MicroPython looks for a built-in module that a file may extend (os, time, array, ...) on the
filesystem first, at every import of it: slow on the Pico's littlefs, where the game
imports seven of them at boot and more later. Its u-name is the built-in itself, found at
once; under its plain name in sys.modules, every later import of it is a dict lookup.

Copied as .mpy files onto littlefs (make flash), each import of one of the package's
modules looks up three names in its folder (a subfolder, the .py, the .mpy) before it
opens the file, and littlefs walks the folder's metadata from the start for each: with
some fifty files, the bulk of the time from power-on to the title. So the folder is listed
once and a listing mounted over it answers those lookups; only the open goes to littlefs.
PicoBoard.restore() (main.py's exit) gives the folder back, so a REPL or a file manager
after Ctrl-C sees littlefs itself. Frozen in the .uf2, the package has no folder.
"""

import sys

try:
    for _name in ("os", "time", "array", "struct", "binascii", "errno", "machine"):
        sys.modules.setdefault(_name, __import__("u" + _name))  # (a test's fake stays)
except ImportError:  # CPython (or a port without one of them): imports as usual
    pass


def _list_folder():
    import vfs

    class Listed:
        """The folder as a read-only filesystem: stat from the listing, the rest from
        littlefs. An import needs only stat and open."""

        def __init__(self, fs):
            self.fs = fs
            files, folders = [], []
            for entry in fs.ilistdir(__path__):
                (folders if entry[1] == 0x4000 else files).append(entry[0])
            self.files = "/" + "/".join(files) + "/"
            self.folders = "/" + "/".join(folders) + "/"  # a subpackage's, if there is one

        def mount(self, readonly, mkfs):
            pass

        def umount(self):
            pass

        def stat(self, path):
            if path.find("/", 1) > 0:  # inside a subfolder: not listed, littlefs says
                return self.fs.stat(__path__ + path)
            if path == "/" or path + "/" in self.folders:
                return (0x4000, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            if path + "/" in self.files:
                return (0x8000, 0, 0, 0, 0, 0, 0, 0, 0, 0)  # (import reads st_mode alone)
            raise OSError(2)

        def open(self, path, mode):
            return self.fs.open(__path__ + path, mode)

        def ilistdir(self, path):
            return self.fs.ilistdir(__path__ + path)

    for fs, at in vfs.mount():
        if at == "/" and type(fs).__name__ == "VfsLfs2":
            vfs.mount(Listed(fs), __path__)


if type(__path__) is str and __path__[:1] == "/":  # files, not frozen (nor CPython's list)
    try:
        _list_folder()
    except Exception:  # (an unusual filesystem: imports as usual)
        pass
del _list_folder
