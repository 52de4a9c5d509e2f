"""Corrupted save files, through the app's whole boot path.

Good sets of files are made with the app's own payloads: settings and records saved twice
(so each has a primary and a backup) and a game of any rule set with 1 to 6 seats saved
after two consecutive boxes -- mid-game when the game file is mutated, one box from the end
otherwise (so that finishing it writes the records). Then, N times per kind (settings,
records, game), one or two of that kind's files are mutated (bit flips, overwritten bytes,
truncation at any length, appended bytes, erased or zeroed runs, header fields, random or
empty files, a file of another kind, a deleted file; and payload edits with the store's CRC
-- and for the game the snapshot's own checksum -- recomputed, so the app's parsers see
them: random bytes, a random snapshot field, or a targeted nonsense position such as 0
seats, no roll left before the first, or a card no dice make), and a new app boots on
them. Checks:

  * no exception at boot or after (the loop's fault handler is never reached);
  * a rejected file gives a note naming its kind; every value the app ends up with is
    the good one, the good backup, the defaults, or (checksums intact) what the file said;
  * a good copy left on flash is never dropped for the defaults, and a saved game the app
    took is offered and resumed (a good backup not offered is a failure);
  * play goes on: resume (and score a box; or finish the game: records are written), or
    start a new game (settings and game are written) and score a box, through the buttons;
  * the store never turns a good backup into a bad file: after those saves, every backup
    on flash either checks out or is the very file the test planted.

Usage: stress_corrupt.py [n=10000] [seed=1] [broken=0] [kind=-1]
n mutations per kind; kind=0/1/2: only settings/records/game (to run the kinds in parallel).
Negative controls, whose checks must fail: broken=1, a store that always rotates the
primary into the backup (even a corrupt one); broken=2, an app that gives the store no
check for the game file; broken=3, an app that ignores a copy the
store loaded from the backup; broken=4, a validator that accepts cards no dice make.
"""

import gc
import sys

from stress_rig import Rng, app_error, best_box, helpful, opts, out, rig, want_mask

from picoyacht import buttons as K
from picoyacht import rules, saves
from picoyacht import store as S
from picoyacht.app import SCREENS
from picoyacht.game import Game
from picoyacht.roller import Roller
from picoyacht.store import Store

from fakefs import FakeFs

ROOT = "/saves/"
KINDS = ("settings", "records", "game")
SLOTS = (".dat", ".bak", ".tmp")
NAMES = ("bitflip", "overwrite", "truncate", "append", "erase", "header", "random", "empty",
         "other_kind", "delete", "payload_crc", "payload_len_crc", "stale_seq_crc",
         "snapshot_deep", "snapshot_field", "snapshot_targeted")
CHECKSUM_VALID = (10, 11, 12, 13, 14, 15)
GAME_ONLY = (13, 14, 15)
SEAT_NAMES = ("Zoe", "Ann", "Bob", "Cy", "Di", "Ed")


class Counted:
    """A finished one-seat game as Records.add reads it."""

    def __init__(self, rid, name, total, seed):
        self.rs = rules.RULESETS[rid]
        self.names = [name]
        self.nseats = 1
        self.seed = seed
        self.credits = [0]
        self.options = rules.Options()
        self._total = total

    def total(self, seat):
        return self._total


def frame(kind, seq, payload):
    return S.encode(S.KINDS[kind], seq, payload) + bytes(payload)


_GOOD = {}


def good_files(rid, nseats, near_end):
    """{path: bytes} of a good set, and {kind: (current payload, backup payload)}.

    The game's two copies are the positions after two consecutive boxes: one box from the
    end (near_end) or a quarter, half or three quarters into the game."""
    key = (rid, nseats, near_end)
    if key in _GOOD:
        return _GOOD[key]
    fs = FakeFs()
    st = Store(fs, ROOT)
    s1 = saves.Settings()
    s1.nplayers = 1
    s1.kinds[0] = 0
    s2 = saves.Settings.unpack(s1.pack())
    s2.names[0] = "Zoe"
    r1 = saves.Records()
    for seed, total in ((1, 201), (2, 150), (3, 120)):
        r1.add(Counted(0, "Ann", total, seed))
    r2 = saves.Records.unpack(r1.pack())
    r2.add(Counted(0, "Ann", 100, 4))
    r2.add(Counted(1, "Bob", 188, 5))  # a best needs a game: the records check
    seed = 77 + 7 * rid + nseats
    g = Game(rid, SEAT_NAMES[:nseats], bytearray(nseats), None, Roller(seed), seed)
    total = g.rs.nboxes * g.nseats
    last = total - 1 if near_end else max(2, total * (1 + (rid + nseats) % 3) // 4)
    snaps = []
    while g.turn < last:
        g.roll()
        for _ in range(2):
            m = want_mask(g)
            if m == (1 << len(g.dice)) - 1 or not g.rolls_left:
                break
            g.set_held(m)
            g.roll()
        g.score(best_box(g))
        if g.turn >= last - 1:
            snaps.append(g.snapshot())
    for kind, a, b in (("settings", s1.pack(), s2.pack()), ("records", r1.pack(), r2.pack()),
                       ("game", snaps[0], snaps[1])):
        assert st.save(kind, a) and st.save(kind, b)
    pay = {"settings": (s2.pack(), s1.pack()), "records": (r2.pack(), r1.pack()),
           "game": (snaps[1], snaps[0])}
    _GOOD[key] = ({p: bytes(d) for p, d in fs.files.items()}, pay)
    return _GOOD[key]


def targeted(rng, p):
    """A snapshot of a position legal play never reaches (its own checksum fixed later)."""
    n = p[6]
    ndice = rules.RULESETS[p[3]].ndice if p[3] < rules.COUNT else 5
    what = rng.below(7)
    if what == 6:
        return impossible_card(p)
    if what == 0:
        p[6] = 0  # no seats
    elif what == 1:  # no roll made and none left: a soft-lock the game check refuses
        for i in (8, 9, 10, 11):
            p[i] = 0
        for i in range(20 + n, 20 + n + ndice):
            p[i] = 0
    elif what == 2:
        p[9] = 28  # Maxi-like carried rolls nobody earned
    elif what == 3:
        p[9] = 255
    elif what == 4:
        p[7] += 1  # a turn the scorecards do not show
    else:
        p[20 + n + ndice + 1] = 1  # a control character in the first name
    return p


def impossible_card(p):
    """A filled upper box moved to an open fixed-score box, which then holds one point less
    than its fixed score: a card no dice make, consistent in every other way (an
    older validator only bounded each score). No such pair: 0 seats instead."""
    g = Game.restore(bytes(p), None)
    rs = g.rs
    seat = g.order[0]
    nb = rs.nboxes
    filled = g.filled[seat]
    ups = [b for b in range(nb) if filled >> b & 1 and rs.boxes[b][rules.KIND] == rules.UPPER]
    fixed = [b for b in range(nb) if not filled >> b & 1 and rs.boxes[b][rules.MODE] ==
             rules.FIXED and rs.boxes[b][rules.VALUE] > 1]
    if not ups or not fixed:
        p[6] = 0
        return p
    g.filled[seat] = filled & ~(1 << ups[0]) | 1 << fixed[0]
    g.scores[seat * nb + ups[0]] = 0
    g.scores[seat * nb + fixed[0]] = rs.boxes[fixed[0]][rules.VALUE] - 1
    q = bytearray(g.snapshot())
    q[16:20] = p[16:20]  # the dice roller's state, which a restore without a roller drops
    return q


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
    elif op in CHECKSUM_VALID:
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
        elif op == 14:
            p[3 + rng.below(min(len(p) - 5, 40))] = rng.below(256)
            p = fletcher_fix(p)
        elif op == 15:
            p = fletcher_fix(targeted(rng, p))
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
        self.good_dropped = 0  # a good copy left on flash, but the app took the defaults
        self.not_offered = 0  # a saved game the app took, but did not offer to resume
        self.messages = {}

    def fail(self, what):
        self.failures += 1
        if self.failures <= 10:
            print("FAIL", what)


def press_until(d, app, faults, done, limit=600):
    for _ in range(limit):
        if faults[0] or done():
            return True
        d.press(helpful(app, True), 15, 15)
    return False


def play_after_boot(d, app, faults, finish):
    """Take the resume offer and score a box (finish: the whole game, so the records are
    written); then, unless a resumed game goes on, start a new game and score one box, all
    through the buttons. Returns (resumed, ok)."""
    for _ in range(6):
        if app.screen.NAME != "message":
            break
        d.press(K.B_OK, 15, 15)
    resumed = app.screen.NAME in ("play", "handover")
    if resumed:
        g0 = app.turn.game
        turn = g0.turn
        if not press_until(d, app, faults, lambda: app.turn.game is not g0 or g0.turn > turn):
            return resumed, False
        if not finish:
            return resumed, True
        if not press_until(d, app, faults, lambda: app.screen.NAME == "title"):
            return resumed, False
    old = app.turn.game
    return resumed, press_until(d, app, faults, lambda: (
        app.turn.game is not old and app.turn.game is not None and app.turn.game.turn >= 1))


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
    where = "%s %s %s" % (kind, NAMES[op], slots)
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
        run.fail("%s: boot raised %r" % (where, e))
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
        got = app.turn.game.snapshot() if app.turn.game is not None else None
        default = None
    else:
        obj = app.settings if kind == "settings" else app.records
        got = obj.pack()
        default = type(obj)().pack()
    good_cur, good_bak = pay[kind]
    # a good copy still on flash, untouched by the mutation
    kept = [sl for sl in (".dat", ".bak") if planted.get(ROOT + kind + sl, good.get(
        ROOT + kind + sl)) == good.get(ROOT + kind + sl)]
    if got == good_cur:
        run.silent_ok += 0 if named else 1
    elif got == good_bak:
        run.backup_used += 1
        if not named:
            run.fail("%s: backup used silently" % where)
    elif got == default:
        run.defaults += 1
        if kept:
            run.good_dropped += 1
            run.fail("%s: the good %s was not used" % (where, kept[0]))
        if not named and not (op == 9 and len(slots) == 2):  # no files at all: first boot
            run.fail("%s: reset to defaults silently" % where)
    else:
        # something else: only legitimate if a planted file had intact checksums
        if op == 15:
            run.fail("%s: took a position legal play never reaches" % where)
        elif op in CHECKSUM_VALID:
            run.accepted += 1
        else:
            run.fail("%s: took a value from a corrupt file" % where)
    err = app_error(app)
    if err:
        run.fail("%s: after boot: %s" % (where, err))
    try:
        resumed, ok = play_after_boot(d, app, faults, kind != "game")
    except Exception as e:
        run.crashes += 1
        run.fail("%s: play raised %r" % (where, e))
        return
    if kind == "game" and got is not None and not resumed:
        run.not_offered += 1
        run.fail("%s: the saved game was not offered" % where)
    if faults[0]:
        run.crashes += 1
        run.fail("%s: %d faults" % (where, faults[0]))
        return
    if not ok:
        run.fail("%s: could not play on (%s)" % (where, app.screen.NAME))
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
            run.fail("%s: bad file rotated into %s" % (where, path))
        elif not parses(k, payload):
            # checksums intact, but the app rejected it at boot: must never be the backup
            run.bad_backup_rotations += 1
            run.fail("%s: a copy the app refused was rotated into %s" % (where, path))


def break_store():
    """Every Store rotates even a corrupt primary into the backup slot."""
    from brokenfs import RotatingStore

    S.Store._commit = RotatingStore._commit


def drop_game_check():
    """An app whose store gets no check for the game file."""
    load = S.Store.load

    def load_unchecked(self, kind, check=None):
        return load(self, kind, None if kind == "game" else check)

    S.Store.load = load_unchecked


def ignore_backup():
    """An app that takes nothing from a copy the store marks "using backup"."""
    load = S.Store.load

    def load_no_backup(self, kind, check=None):
        data = load(self, kind, check)
        return None if "backup" in self.last_error else data

    S.Store.load = load_no_backup


def accept_impossible_cards():
    """An older validator: each score only bounded, never matched to dice."""
    from picoyacht import invariants

    invariants.possible = lambda rs, box, points, sharp: points <= 255


def main(argv):
    o = opts(argv, n=10000, seed=1, broken=0, kind=-1)
    if o["broken"] == 1:
        break_store()
    elif o["broken"] == 2:
        drop_game_check()
    elif o["broken"] == 3:
        ignore_backup()
    elif o["broken"] == 4:
        accept_impossible_cards()
    # a mutated settings file may seat CPUs: their strategy module (and its engine, a
    # cache) then stay loaded. Load it up front so the heap figure shows only growth.
    from picoyacht import strategy, strategy_table  # noqa: F401
    # Every module the app loads on demand, once, before the good sets below cut the heap
    # into small holes. Loading a .mpy interns its names in the heap's qstr pools, which
    # only grow, a block each; the Pico's frozen modules keep theirs in flash. Loaded late,
    # on that heap, a new pool's block fits nowhere and the app faults on a test artifact.
    for mod in list(SCREENS.values()) + ["engine", "snapshot", "sound", "ssd1306"]:
        __import__("picoyacht." + mod)
    kinds = KINDS if o["kind"] < 0 else (KINDS[o["kind"]],)
    for rid in range(rules.COUNT):  # every good set up front: the heap figure shows growth
        for nseats in range(1, 7):
            for kind in kinds:
                good_files(rid, nseats, kind != "game")
    rng = Rng(o["seed"])
    run = Run()
    gc.collect()
    heap0 = gc.mem_alloc()
    per_op = [0] * len(NAMES)
    for kind in kinds:
        for i in range(o["n"]):
            op = rng.below(len(NAMES))
            if op in GAME_ONLY and kind != "game":
                op = 10
            elif kind == "game" and rng.below(3) == 0:
                op = GAME_ONLY[rng.below(len(GAME_ONLY))]  # the app's own check at work
            good, pay = good_files(rng.below(rules.COUNT), 1 + rng.below(6), kind != "game")
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
    out("GOOD_COPY_NOT_USED", run.good_dropped)
    out("SAVED_GAME_NOT_OFFERED", run.not_offered)
    out("GOOD_SETS", len(_GOOD))
    for m in sorted(run.messages):
        out("MESSAGE", run.messages[m], m)
    out("LIVE_HEAP_GROWTH_AFTER_WARMUP", gc.mem_alloc() - heap0)
    out("CRASHES", run.crashes)
    out("FAILURES", run.failures)


if __name__ == "__main__":
    main(sys.argv[1:])
