"""The heap budget of a 2-player game played through the UI, button by button.

The budget is 64 KB for a whole game. On the unix port loaded .mpy code lives in the heap
(on a frozen firmware it would sit in flash), so the budget is held as: the code the UI game
uses is measured first, in this same run, and everything else (display buffers, app, game,
snapshots for undo, the garbage between collections) must fit in 64 KB beyond it.

    micropython ui_heap.py measure [buttons=11|4]   -> CODE <bytes> MODULES <bytes>
    micropython -X heapsize=<CODE + 64k> ui_heap.py play [buttons=11|4]
                                                    -> BEYOND <bytes> ... then OK ...

CODE is gc.mem_alloc() after a collection, with everything the game uses imported and
before anything is created (the interpreter's own few KB included); MODULES leaves those
out. `play` measures CODE again, checks that the heap really leaves no more than
LIMIT + 1 KB (the heap size is rounded up to whole KB) beyond it, plays the whole game,
and fails if the game loaded any module not imported here (its code would then be
counted as game data).
"""

import gc
import sys

gc.collect()
_BASE = gc.mem_alloc()

import ui_play  # noqa: E402  board_sim, picoyacht.app and everything they import

from picoyacht import card, handover, play, results, snapshot, sound, ssd1306  # noqa: E402, F401

gc.collect()
CODE = gc.mem_alloc()
LIMIT = 64 * 1024


def main(argv):
    what = argv[0] if argv else "measure"
    buttons = 11
    for a in argv[1:]:
        k, v = a.split("=")
        if k == "buttons":
            buttons = int(v)
    if what == "measure":
        print("CODE %d MODULES %d" % (CODE, CODE - _BASE))
        return
    usable = gc.mem_alloc() + gc.mem_free()
    beyond = usable - CODE
    print("BEYOND %d usable=%d code=%d" % (beyond, usable, CODE))
    if what == "play":
        assert beyond <= LIMIT + 1024, "heap too big for this test: %d beyond the code" % beyond
    before = set(sys.modules)
    log = bytearray()
    p = ui_play.Player(ui_play.FULL if buttons == 11 else ui_play.FOUR, log)
    p.setup(2, 0, 0)
    p.play()
    g = p.app.turn.game
    assert g.over and p.board.boxes == g.rs.nboxes * g.nseats
    new = set(sys.modules) - before
    assert not new, "loaded during the game (import them above): %r" % sorted(new)
    gc.collect()
    print("OK live_after=%d beyond_code=%d totals=%r" % (
        gc.mem_alloc(), gc.mem_alloc() - CODE, [g.total(s) for s in range(g.nseats)]))


if __name__ == "__main__":
    main(sys.argv[1:])
