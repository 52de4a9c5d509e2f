"""Corrupted save files, through the app's whole boot path.

A good set of files is made with the app's own payloads: settings and records saved twice
(so each has a primary and a backup) and a 1-player game saved after its 12th and 13th
box... of 13 (the next box ends it). Then, N times per kind (settings, records, game), one
or two of that kind's files are mutated (bit flips, overwritten bytes, truncation at any
length, appended bytes, erased or zeroed runs, header fields, random or empty files, a
file of another kind, a deleted file; and payload edits with the store's CRC -- and for
the game the snapshot's own checksum -- recomputed, so the app's parsers see them), and
a new app boots on them. Checks:

  * no exception at boot or after (the loop's fault handler is never reached);
  * a rejected file gives a note naming its kind; every value the app ends up with is
    the good one, the good backup, the defaults, or (checksums intact) what the file said;
  * defaults work: resume (the game ends: records are written) or start a new game
    (settings and game are written) and score a box, all through the buttons;
  * the store never turns a good backup into a bad file: after those saves, every backup
    on flash either checks out or is the very file the test planted.

Usage: stress_corrupt.py [n=10000] [seed=1] [broken=0] [kind=-1]
n mutations per kind; kind=0/1/2: only settings/records/game (to run the kinds in parallel).
broken=1 is the negative control: a store that always rotates the primary into the backup
(even a corrupt one); the backup check must then fail.
"""

import gc
import sys

from stress_rig import Rng, app_error, best_box, helpful, opts, out, rig, want_mask

from picoyacht import buttons as K
from picoyacht import saves
from picoyacht import store as S
from picoyacht.game import Game
from picoyacht.roller import Roller
from picoyacht.store import Store

from fakefs import FakeFs

ROOT = "/saves/"
KINDS = ("settings", "records", "game")
SLOTS = (".dat", ".bak", ".tmp")
NAMES = ("bitflip", "overwrite", "truncate", "append", "erase", "header", "random", "empty",
         "other_kind", "delete", "payload_crc", "payload_len_crc", "stale_seq_crc",
         "snapshot_deep")


def frame(kind, seq, payload):
    return S.encode(S.KINDS[kind], seq, payload) + bytes(payload)


def good_files():
    """{path: bytes} of the good set, and {kind: (current payload, backup payload)}."""
    fs = FakeFs()
    st = Store(fs, ROOT)
    s1 = saves.Settings()
    s1.nplayers = 1
    s1.kinds[0] = 0
    s2 = saves.Settings.unpack(s1.pack())
    s2.names[0] = "Zoe"
    r1 = saves.Records()
    r1.games[0] = 3
    r1.best[0] = 201
    r1.names[0] = "Ann"
    r2 = saves.Records.unpack(r1.pack())
    r2.games[0] = 4
    r2.best[1] = 188
    r2.names[1] = "Bob"
    g = Game(0, ["Zoe"], bytearray(1), None, Roller(77), 77)
    snaps = []
    while g.turn < 12:
        g.roll()
        for _ in range(2):
            m = want_mask(g)
            if m == (1 << len(g.dice)) - 1:
                break
            g.set_held(m)
            g.roll()
        g.score(best_box(g))
        if g.turn >= 11:
            snaps.append(g.snapshot())
    for kind, a, b in (("settings", s1.pack(), s2.pack()), ("records", r1.pack(), r2.pack()),
                       ("game", snaps[0], snaps[1])):
        assert st.save(kind, a) and st.save(kind, b)
    pay = {"settings": (s2.pack(), s1.pack()), "records": (r2.pack(), r1.pack()),
           "game": (snaps[1], snaps[0])}
    return {p: bytes(d) for p, d in fs.files.items()}, pay


def fletcher_fix(p):
    """Recompute a snapshot's own Fletcher-16 (its last two bytes)."""
    p = bytearray(p)
    if len(p) < 4:
        return bytes(p)
    a = b = 0
    for i in range(len(p) - 2):
        a = (a + p[i]) % 255
        b = (b + a) % 255
    p[-2] = a
    p[-1] = b
    return bytes(p)


def mutate(rng, blob, kind, op, files):
    """A mutated copy of one file (None: delete it)."""
    d = bytearray(blob)
    n = len(d)
    if op == 0:
        for _ in range(1 + rng.below(8)):
            if n:
                d[rng.below(n)] ^= 1 << rng.below(8)
    elif op == 1:
        for _ in range(1 + rng.below(4)):
            if n:
                d[rng.below(n)] = rng.below(256)
    elif op == 2:
        d = d[:rng.below(n)] if n else d
    elif op == 3:
        for _ in range(1 + rng.below(32)):
            d.append(rng.below(256))
    elif op == 4:
        if n:
            a = rng.below(n)
            fill = 0xFF if rng.below(2) else 0
            for i in range(a, min(n, a + 1 + rng.below(24))):
                d[i] = fill
    elif op == 5:
        if n >= 16:
            f = rng.below(5)
            if f == 0:
                d[4] = 2 + rng.below(254)  # version: "newer firmware"
            elif f == 1:
                d[5] = rng.below(256)  # kind
            elif f == 2:
                d[6] = rng.below(256)  # length
                d[7] = rng.below(3)
            elif f == 3:
                d[rng.below(4)] ^= 0x20  # magic
            else:
                d[8 + rng.below(4)] = rng.below(256)  # seq (CRC now wrong)
    elif op == 6:
        d = bytearray(rng.below(256) for _ in range(rng.below(200)))
    elif op == 7:
        d = bytearray()
    elif op == 8:
        other = KINDS[(KINDS.index(kind) + 1 + rng.below(2)) % 3]
        src = files.get(ROOT + other + ".dat")
        d = bytearray(src) if src is not None else bytearray()
    elif op == 9:
        return None
    elif op in (10, 11, 12, 13):
        if n < 16:
            return bytes(d)
        seq = d[8] | d[9] << 8 | d[10] << 16 | d[11] << 24
        p = bytearray(d[16:])
        if op == 10 or op == 13:
            for _ in range(1 + rng.below(4)):
                if p:
                    p[rng.below(len(p))] = rng.below(256)
            if op == 13:
                p = fletcher_fix(p)
        elif op == 11:
            if rng.below(2) and p:
                p = p[:rng.below(len(p))]
            else:
                for _ in range(1 + rng.below(8)):
                    p.append(rng.below(256))
        else:
            seq += 1 + rng.below(100)
        d = bytearray(frame(kind, seq, p))
    return bytes(d)


def check_slot(st, kind, path):
    return st._read(path, S.KINDS[kind], True)


class Run:
    def __init__(self):
        self.crashes = 0
        self.failures = 0
        self.notes = 0
        self.silent_ok = 0
        self.accepted = 0
        self.backup_used = 0
        self.defaults = 0
        self.resumed = 0
        self.new_games = 0
        self.bad_backup_rotations = 0  # checksum-valid payload the app rejected -> .bak
        self.messages = {}

    def fail(self, what):
        self.failures += 1
        if self.failures <= 10:
            print("FAIL", what)


def play_after_boot(d, app, faults):
    """Take the resume offer (and finish that game: its last box, records written), then
    start a new game and score one box, all through the buttons. (resumed, ok)."""
    for _ in range(6):
        if app.screen.NAME != "message":
            break
        d.press(K.B_OK, 15, 15)
    resumed = app.screen.NAME in ("play", "handover")
    if resumed:
        for _ in range(200):
            if app.screen.NAME == "title" or faults[0]:
                break
            d.press(helpful(app, True), 15, 15)
    old = app.game
    for _ in range(200):
        g = app.game
        if faults[0] or (g is not old and g is not None and g.turn >= 1):
            return resumed, True
        d.press(helpful(app, True), 15, 15)
    return resumed, False


def parses(kind, payload):
    try:
        if kind == "settings":
            saves.Settings.unpack(payload)
        elif kind == "records":
            saves.Records.unpack(payload)
        else:
            Game.restore(payload, None)
    except Exception:
        return False
    return True


def one(run, good, pay, kind, rng, op, slots):
    files = dict((p, bytearray(b)) for p, b in good.items())
    planted = {}
    for slot in slots:
        path = ROOT + kind + slot
        src = good.get(path)
        if src is None:  # a new .tmp: start from the primary
            src = good[ROOT + kind + ".dat"]
        m = mutate(rng, src, kind, op, good)
        if m is None:
            files.pop(path, None)
        else:
            files[path] = bytearray(m)
        planted[path] = m
    fs = FakeFs(files)
    faults = [0]
    try:
        b, r, d, app = rig(K.FULL_BUTTONS, Store(fs, ROOT), b"\x2a\x00\x00\x00", 0, 5)
        f0 = app.fault

        def fault(e, f0=f0):
            faults[0] += 1
            if faults[0] == 1:
                sys.print_exception(e)
            f0(e)

        app.fault = fault
        d.run_ms(20)
    except Exception as e:
        run.crashes += 1
        run.fail("%s %s %s: boot raised %r" % (kind, NAMES[op], slots, e))
        return
    notes = [ln for ln in app.screen.lines] if app.screen.NAME == "message" else []
    text = " ".join(notes)
    named = (kind + ":") in text
    if named:
        run.notes += 1
        key = app.screen.title + ": " + text
        run.messages[key] = run.messages.get(key, 0) + 1
    # what the app took for this kind
    if kind == "game":
        got = app.game.snapshot() if app.game is not None else None
        default = None
    else:
        obj = app.settings if kind == "settings" else app.records
        got = obj.pack()
        default = type(obj)().pack()
    good_cur, good_bak = pay[kind]
    if got == good_cur:
        run.silent_ok += 0 if named else 1
    elif got == good_bak:
        run.backup_used += 1
        if not named:
            run.fail("%s %s %s: backup used silently" % (kind, NAMES[op], slots))
    elif got == default:
        run.defaults += 1
        if not named and not (op == 9 and len(slots) == 2):  # no files at all: first boot
            run.fail("%s %s %s: reset to defaults silently" % (kind, NAMES[op], slots))
    else:
        # something else: only legitimate if a planted file had intact checksums
        if op in (10, 11, 12, 13):
            run.accepted += 1
        else:
            run.fail("%s %s %s: took a value from a corrupt file" % (kind, NAMES[op], slots))
    err = app_error(app)
    if err:
        run.fail("%s %s %s: after boot: %s" % (kind, NAMES[op], slots, err))
    try:
        resumed, ok = play_after_boot(d, app, faults)
    except Exception as e:
        run.crashes += 1
        run.fail("%s %s %s: play raised %r" % (kind, NAMES[op], slots, e))
        return
    if faults[0]:
        run.crashes += 1
        run.fail("%s %s %s: %d faults" % (kind, NAMES[op], slots, faults[0]))
        return
    if not ok:
        run.fail("%s %s %s: could not play on (%s)" % (kind, NAMES[op], slots,
                                                      app.screen.NAME))
    if resumed:
        run.resumed += 1
    else:
        run.new_games += 1
    # backups: each .bak is the planted file or a checksum-valid file
    st = Store(fs, ROOT)
    for k in KINDS:
        path = ROOT + k + ".bak"
        if path not in fs.files:
            continue
        data = bytes(fs.files[path])
        if planted.get(path) == data:
            continue  # the planted file itself, untouched
        status, _, payload = check_slot(st, k, path)
        if status != 0:
            run.fail("%s %s %s: bad file rotated into %s" % (kind, NAMES[op], slots, path))
        elif not parses(k, payload):
            # checksums intact, but the app rejected it at boot: must never be the backup
            run.bad_backup_rotations += 1
            run.fail("%s %s: a copy the app refused was rotated into %s" % (
                kind, NAMES[op], path))


def break_store():
    def commit(self, paths, res, cur):
        dat, bak, tmp = paths
        try:
            self._replace(dat, bak)
        except OSError:
            pass
        self._replace(tmp, dat)

    S.Store._commit = commit


def main(argv):
    o = opts(argv, n=10000, seed=1, broken=0, kind=-1)
    if o["broken"]:
        break_store()
    good, pay = good_files()
    # a mutated settings file may seat CPUs: their strategy module (and its engine, a
    # cache) then stay loaded. Load it up front so the heap figure shows only growth.
    from picoyacht import strategy, strategy_table  # noqa: F401
    rng = Rng(o["seed"])
    run = Run()
    gc.collect()
    heap0 = gc.mem_alloc()
    per_op = [0] * len(NAMES)
    kinds = KINDS if o["kind"] < 0 else (KINDS[o["kind"]],)
    for kind in kinds:
        for i in range(o["n"]):
            op = rng.below(len(NAMES))
            if op == 13 and kind != "game":
                op = 10
            w = rng.below(20)
            if w < 10:
                slots = (".dat",)
            elif w < 14:
                slots = (".bak",)
            elif w < 17:
                slots = (".tmp",)
            else:
                slots = (".dat", ".bak")
            per_op[op] += 1
            one(run, good, pay, kind, rng, op, slots)
            if kind == kinds[0] and i == 99:
                strategy._engine = None
                gc.collect()
                heap0 = gc.mem_alloc()  # after every path has run once
    strategy._engine = None
    gc.collect()
    out("MUTATIONS_PER_KIND", o["n"])
    out("MUTATIONS", o["n"] * len(kinds))
    for i in range(len(NAMES)):
        out("OP", NAMES[i], per_op[i])
    out("NOTES_NAMING_THE_KIND", run.notes)
    out("GOOD_KEPT_SILENTLY", run.silent_ok)
    out("BACKUP_USED", run.backup_used)
    out("DEFAULTS_USED", run.defaults)
    out("CHECKSUM_VALID_ACCEPTED", run.accepted)
    out("RESUMED_AND_FINISHED", run.resumed)
    out("NEW_GAMES_STARTED", run.new_games)
    out("APP_REJECTED_PAYLOAD_BECAME_BACKUP", run.bad_backup_rotations)
    for m in sorted(run.messages):
        out("MESSAGE", run.messages[m], m)
    out("LIVE_HEAP_GROWTH_AFTER_WARMUP", gc.mem_alloc() - heap0)
    out("CRASHES", run.crashes)
    out("FAILURES", run.failures)


if __name__ == "__main__":
    main(sys.argv[1:])
