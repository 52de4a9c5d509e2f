"""Power cuts and I/O errors at every step of every save, through the whole app.

A reference session is played through the real loop on a FakeFs: a 2-player game with an
undo, game over (records saved, game deleted), then a new Maxi game with a few boxes.
Every call the loop makes into the app (events, ticks, its own saving passes, frames) is
recorded, with every save the app asked for. Then, for every unit of filesystem work (each
open-for-write, each byte written, flush, close, rename, remove, sync):

  cut   boot a new app on what a cut at unit N leaves (the real boot through
        Runner/HeadlessBoard), accept its messages and the resume offer, and check: the
        resumed game is the state after the last completed save or the one in progress (the
        last completed box or the one before), settings and records are one of those two
        too; then score one more box and boot once more: the store keeps working after the
        recovery. The session is deterministic, so a run cut at N is the reference run up
        to N: the reference's FakeFs keeps what each cut point leaves (its witness, proved
        against real cuts in host_tests/test_store.py) instead of a replay per cut.
  error (mode=errors) replay the recorded session with the N-th call of one filesystem
        operation raising OSError (EIO) once; the game must go on, show "not saved", and
        the next boot resumes the session's final state.

The filesystem is FakeFs in its littlefs model (lfs=1, as the Pico mounts its flash): data
not yet committed by flush/close is lost at a cut, rename is atomic; every filesystem call
is a cut point. lfs=0 is the byte model instead: every byte written lands at once, and a
cut may fall between any two bytes.

Usage: stress_cuts.py [stride=1] [mode=0|1|2] [broken=0] [lfs=1]
mode: 0 cuts, 1 errors, 2 both. stride=k tries every k-th cut point (CI). Negative
controls, whose checks must fail, in either mode: broken=1 swaps in a store that writes the
primary file in place (no temp file); broken=2 a store that never syncs (its flush, close
and sync never reach the filesystem), which the byte model cannot tell from a good one;
broken=3 the same store over a cache, so that its read-back passes and every save reports
success; broken=4 a filesystem whose every rename fails.
"""

import sys
from array import array

from stress_rig import helpful, opts, out, rig

from picoyacht import buttons as K
from picoyacht import menus, newgame, saves
from picoyacht.game import Game
from picoyacht.store import Store

from brokenfs import CachedNoSyncFs, InPlaceStore, NoSyncFs, RenameFailsFs
from fakefs import EIO, MUTATING, FakeFs

ROOT = "/saves"
KINDS = ("settings", "records", "game")


class Recorder:
    """Wraps a store: the app-level saves as [kind, payload|None, ops before, ops after],
    a save from its write's first unit to its commit's last (a game's save runs the two
    in separate loop passes; a write no commit follows ends with itself)."""

    def __init__(self, store, fs):
        self.store = store
        self.fs = fs
        self.log = []
        self.open = {}  # kind -> the log entry of a write whose commit has not run
        w0, c0 = store.write, store.commit
        d0 = store.delete

        def write(kind, payload):
            before = fs.ops
            ok = w0(kind, payload)
            entry = [kind, bytes(payload), before, fs.ops]
            self.log.append(entry)
            self.open[kind] = entry
            return ok

        def commit(kind):
            ok = c0(kind)
            entry = self.open.pop(kind, None)
            if entry is not None:
                entry[3] = fs.ops
            return ok

        def delete(kind):
            before = fs.ops
            ok = d0(kind)
            self.log.append((kind, None, before, fs.ops))
            return ok

        store.write = write
        store.commit = commit
        store.delete = delete


class Calls:
    """A fixed buffer for the recorded calls: a growing array would need ever larger free
    blocks of a heap the session fragments."""

    def __init__(self, capacity):
        self.buf = array("i", bytes(4 * capacity))
        self.n = 0

    def append(self, v):
        self.buf[self.n] = v
        self.n += 1


AFTER_MOVE = -2  # the loop's own after_move() (an event's, whole, comes with its event)
RENDER = -3


def record_calls(app, calls):
    """Log every call the loop makes of the app and its turn: [ev, now] for an event,
    [-1, now] a tick, [AFTER_MOVE, 0] and [RENDER, 0] (what a pass saves, and whether its
    frame is up, decide what the next passes do) where they did something: one that found
    nothing to do changed nothing."""
    ev0 = app.event
    tk0 = app.tick
    am0 = app.turn.after_move
    rd0 = app.render

    def event(ev, now):
        calls.append(ev)
        calls.append(now)
        ev0(ev, now)

    def tick(now):
        calls.append(-1)
        calls.append(now)
        tk0(now)

    def after_move(whole=False):
        did = am0(whole)
        if did and not whole:
            calls.append(AFTER_MOVE)
            calls.append(0)
        return did

    def render():
        drew = rd0()
        if drew:
            calls.append(RENDER)
            calls.append(0)
        return drew

    app.event = event
    app.tick = tick
    app.turn.after_move = after_move
    app.render = render


def replay(app, calls):
    buf = calls.buf
    for i in range(0, calls.n, 2):
        ev = buf[i]
        if ev == AFTER_MOVE:
            app.turn.after_move()
        elif ev == RENDER:  # a frame's one effect on what the app does next (drawing it
            app.dirty = False  # again would only take time, a few thousand frames a replay)
        elif ev < 0:
            app.tick(buf[i + 1])
        else:
            app.event(ev, buf[i + 1])


def session(d, app):
    """The reference session, pressed like a purposeful player (full build)."""

    def until(cond, limit=3000):
        for _ in range(limit):
            if cond():
                return
            btn = helpful(app, True)
            d.press(btn, 40, 300 if btn == K.B_ROLL else 40)
        raise AssertionError("session stuck on " + app.screen.NAME)

    until(lambda: app.screen.NAME == "setup")
    s = app.settings
    while s.nplayers != 2:
        d.pick(newgame.R_PLAYERS)
    for seat in range(2):
        while s.kinds[seat]:
            d.pick(newgame.R_KIND + seat)
    d.pick(newgame.R_START)
    until(lambda: app.turn.game is not None and app.turn.game.turn == 3)
    # undo the third box (a human scored it), then go on
    until(lambda: app.screen.NAME == "handover")
    d.press(K.B_MENU)
    while app.screen.items[app.screen.sel] != menus.M_UNDO:
        d.press(K.B_DOWN)
    d.press(K.B_OK)
    assert app.turn.game.turn == 2, app.turn.game.turn
    until(lambda: app.screen.NAME == "over")
    until(lambda: app.screen.NAME == "title")
    d.press(K.B_OK)  # New game
    assert app.screen.NAME == "setup"
    while s.rid != 4:  # Maxi Yatzy: 6 dice, 20 boxes, saved rolls
        d.pick(newgame.R_RULES)
    while s.nplayers != 1:
        d.pick(newgame.R_PLAYERS)
    d.pick(newgame.R_START)
    until(lambda: app.turn.game.turn == 4)


def make_store(fs, broken):
    if broken == 1:
        return InPlaceStore(fs, ROOT)
    wrap = (None, None, NoSyncFs, CachedNoSyncFs, RenameFailsFs)[broken]
    return Store(fs if wrap is None else wrap(fs), ROOT)


def allowed(log, n):
    """Per kind: the payloads a boot may find after a cut at unit n (None: no file)."""
    ok = {}
    for k in KINDS:
        ok[k] = [None]
    for kind, payload, before, after in log:
        if after < n:
            ok[kind] = [payload]
        elif before < n:
            ok[kind].append(payload)
    return ok


def resumable(payload):
    if payload is None:
        return False
    return not Game.restore(payload, None).over


class Tally:
    def __init__(self):
        self.failures = 0
        self.messages = {}
        self.resumed_last = 0
        self.resumed_prev = 0
        self.no_game = 0
        self.followups = 0
        self.alarms = 0  # boot messages that say lost/corrupt (the state checks decide)

    def fail(self, what):
        self.failures += 1
        if self.failures <= 10:
            print("FAIL", what)

    def note(self, app):
        text = app.screen.title + ": " + " ".join(app.screen.lines)
        self.messages[text] = self.messages.get(text, 0) + 1
        if "lost" in text or "corrupt" in text or "unreadable" in text:
            self.alarms += 1


def boot_and_check(fs, ok, tally, where, broken, entropy=b"\x07\x00\x00\x00", count=True):
    """Boot on fs, walk through messages, resume if offered; check against `ok`.
    Returns (board, driver, app) or None."""
    try:
        b, r, d, app = rig(K.FULL_BUTTONS, make_store(fs, broken), entropy)
        d.run_ms(30)
    except Exception as e:
        tally.fail("%s: boot raised %r" % (where, e))
        return None
    for k, cls, got in (("settings", saves.Settings, app.settings),
                        ("records", saves.Records, app.records)):
        want = [(cls() if p is None else cls.unpack(p)).pack() for p in ok[k]]
        if got.pack() not in want:
            tally.fail("%s: %s not one of the last two" % (where, k))
    offered = False
    for _ in range(3):
        if app.screen.NAME != "message":
            break
        if app.screen.title == "Saved game":
            offered = True
            d.press(K.B_OK)
            break
        tally.note(app)
        d.press(K.B_OK)
    def takes(p):  # a finished game, or one the records already count, is not resumed
        return resumable(p) and not app.records.counted(Game.restore(p, None))

    want = [p for p in ok["game"] if takes(p)]
    if not offered:
        if want and None not in ok["game"] and not any(
                p is not None and not takes(p) for p in ok["game"]):
            tally.fail("%s: game lost (no resume offer)" % where)
        else:
            tally.no_game += 1
        return b, d, app
    if app.screen.NAME != "play" and app.screen.NAME != "handover":
        tally.fail("%s: resume went to %s" % (where, app.screen.NAME))
        return None
    snap = app.turn.game.snapshot()
    if snap not in want:
        tally.fail("%s: resumed game is not the last or previous save" % where)
    elif not count:
        tally.followups += 1
    elif snap == ok["game"][-1]:
        tally.resumed_last += 1
    else:
        tally.resumed_prev += 1
    return b, d, app


def score_one_more(d, app):
    """Play on after the recovery until one more box is scored."""
    g = app.turn.game
    turn = g.turn
    for _ in range(200):
        if g.turn != turn or g.over:
            return True
        btn = helpful(app, True)
        d.press(btn, 40, 300 if btn == K.B_ROLL else 40)
    return False


def reference(broken, lfs, stride=0):
    """The session, once, on a FakeFs that keeps what a cut at every stride-th unit would
    leave (stride 0: none)."""
    fs = FakeFs(lfs=lfs, witness=stride)
    store = make_store(fs, broken)
    rec = Recorder(store, fs)
    calls = Calls(49152)
    b, r, d, app = rig(K.FULL_BUTTONS, store)
    record_calls(app, calls)
    d.run_ms(30)
    session(d, app)
    return rec.log, calls, fs


def run_cuts(log, fs, broken, lfs, tally):
    """Boots on what each cut point of the session left (FakeFs.survivors)."""
    tried = 0
    for n, files in fs.survivors:
        tried += 1
        ok = allowed(log, n)
        where = "cut %d" % n
        cut = FakeFs({p: bytearray(d) for p, d in files.items()}, lfs=lfs)
        got = boot_and_check(cut, ok, tally, where, broken)
        if got is not None:
            b2, d2, app2 = got
            if app2.turn.game is not None and app2.screen.NAME in ("play", "handover") and not (
                    app2.turn.game.over):
                fs2 = b2.store.fs
                if not score_one_more(d2, app2):
                    tally.fail(where + ": could not play on after the resume")
                else:
                    snap = app2.turn.game.snapshot()
                    ok2 = {"settings": [b2.store.load("settings")],
                           "records": [b2.store.load("records")],
                           "game": [snap if not app2.turn.game.over else None]}
                    if app2.turn.game.over:
                        ok2["game"] = [None]
                    boot_and_check(fs2.reboot(), ok2, tally, where + " + 1 box", broken,
                                   b"\x09\x00\x00\x00", False)
    return tried


def run_errors(log, calls, counts, lfs, tally, broken):
    """OSError once at the k-th call of each operation; the session goes on."""
    tried = 0
    visible = 0
    final = {}
    for k in KINDS:
        final[k] = ([None] + [p for kind, p, _, _ in log if kind == k])[-2:]
    for op in MUTATING:
        for k in range(counts.get(op, 0)):
            fs = FakeFs(lfs=lfs)
            fs.fail(op, OSError(EIO, "injected"), times=1, skip=k)
            b, r, d, app = rig(K.FULL_BUTTONS, make_store(fs, broken))
            seen = []

            def watch(half, seen=seen, app=app):  # a save's write or its commit
                def watched(*args):
                    ok = half(*args)
                    if not ok:
                        seen.append(app.save_msg)
                    return ok
                return watched

            app.write, app.commit = watch(app.write), watch(app.commit)
            try:
                replay(app, calls)
            except Exception as e:
                tally.fail("error %s#%d: the session raised %r" % (op, k, e))
                continue
            tried += 1
            if fs.fired != 1:
                continue  # the session never made that call this time
            if seen:
                visible += 1
                if not seen[0].startswith("not saved"):
                    tally.fail("error %s#%d: message %r" % (op, k, seen[0]))
            ok = {"settings": final["settings"], "records": final["records"],
                  "game": final["game"]}
            boot_and_check(fs.reboot(), ok, tally, "error %s#%d" % (op, k), broken)
    return tried, visible


class _NoCollections:
    @staticmethod
    def collect():
        pass


def uncollected():
    """The loop's own collections (heap.sweep's, the screens' drop) become no-ops for the
    runs after the reference: what they free changes no state these proofs check, and
    they were most of the replays' time. MicroPython's collector still runs whenever an
    allocation finds no room."""
    import picoyacht.app
    import picoyacht.heap

    picoyacht.heap.gc = picoyacht.app.gc = _NoCollections


def main(argv):
    o = opts(argv, stride=1, mode=2, broken=0, lfs=1)  # mode: 0 cuts, 1 errors, 2 both
    broken = o["broken"]
    lfs = bool(o["lfs"])
    cuts = o["mode"] in (0, 2)
    log, calls, fs = reference(broken, lfs, o["stride"] if cuts else 0)
    total = fs.ops
    counts = fs.counts
    out("FS_MODEL", "littlefs" if lfs else "bytes")
    out("SESSION_SAVES", len(log))
    out("SESSION_UNITS", total)
    out("SESSION_CALLS", calls.n // 2)
    tally = Tally()
    uncollected()
    if cuts:
        tried = run_cuts(log, fs, broken, lfs, tally)
        out("CUT_POINTS", tried)
        out("CUT_RESUMED_LAST", tally.resumed_last)
        out("CUT_RESUMED_PREVIOUS", tally.resumed_prev)
        out("CUT_NO_GAME_EXPECTED", tally.no_game)
        out("CUT_PLAYED_ON_AND_RESUMED", tally.followups)
    if o["mode"] in (1, 2):
        tried, visible = run_errors(log, calls, counts, lfs, tally, broken)
        out("ERROR_POINTS", tried)
        out("ERROR_VISIBLE", visible)
    out("ALARM_MESSAGES", tally.alarms)
    for m in sorted(tally.messages):
        out("MESSAGE", tally.messages[m], m)
    out("FAILURES", tally.failures)


if __name__ == "__main__":
    main(sys.argv[1:])
