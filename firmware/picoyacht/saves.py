"""The Settings and Records save formats, which saved games may be resumed, what the last
saves left unsaved, and each kind read back at boot (load).

unpack() raises ValueError on anything inconsistent or impossible, so a corrupt copy is
refused (the Store then falls back to its previous good copy, or the app starts fresh).
"""

from micropython import const

from picoyacht import rules
from picoyacht.cues import VOLUME_DEFAULT, VOLUME_NAMES
from picoyacht.game import MAX_NAME, MAX_SEATS

DEFAULT_NAMES = ("Ann", "Bob", "Cleo", "Dan", "Eve", "Finn")


class Settings:
    """The last setup, so the next game starts from it, and the sound volume. Packs to ~60
    bytes. Format 2 added the volume byte after the coach; a format 1 copy (before sound)
    still loads, at the default volume."""

    def __init__(self):
        self.rid = rules.YAHTZEE
        self.options = rules.Options()
        self.nplayers = 2
        # every seat starts Human: stepping a seat then meets the kinds in their order,
        # Human, CPU Easy, CPU Normal, CPU Expert
        self.kinds = bytearray(6)
        self.names = list(DEFAULT_NAMES)
        self.coach = 0
        self.volume = VOLUME_DEFAULT

    def pack(self):
        flags, bet = self.options.pack()
        out = bytearray(b"S\x02")
        out.extend(bytes((self.rid, flags, bet, self.nplayers, self.coach, self.volume)))
        out.extend(self.kinds)
        for n in self.names:
            _put_name(out, n)
        return bytes(out)

    @classmethod
    def unpack(cls, data):
        """Settings from bytes; ValueError on anything inconsistent."""
        s = cls()
        v2 = data[0:2] == b"S\x02"
        pos = 8 if v2 else 7  # where the seat kinds start
        if len(data) < pos + 6 or not (v2 or data[0:2] == b"S\x01"):
            raise ValueError("settings format")
        if data[2] >= rules.COUNT or not 1 <= data[5] <= 6 or data[6] > 2:
            raise ValueError("settings values")
        s.rid = data[2]
        s.options = rules.Options.unpack(data[3], data[4])
        s.nplayers = data[5]
        s.coach = data[6]
        if v2:
            if data[7] >= len(VOLUME_NAMES):
                raise ValueError("settings volume")
            s.volume = data[7]
        s.kinds = bytearray(data[pos:pos + 6])
        if max(s.kinds) > 3:
            raise ValueError("settings kinds")
        pos += 6
        for i in range(6):
            n = data[pos]
            if n > MAX_NAME or pos + 1 + n > len(data):  # pack() never writes more
                raise ValueError("settings names")
            name = str(data[pos + 1:pos + 1 + n], "utf-8")
            if not name or not rules.name_ok(data[pos + 1:pos + 1 + n]):
                raise ValueError("settings names")
            s.names[i] = name
            pos += 1 + n
        if s.options.bet not in rules.BETS:
            s.options.bet = 10
        return s

    def options_copy(self):
        """The options for a new game: its own copy, so setup changes never reach it."""
        flags, bet = self.options.pack()
        return rules.Options.unpack(flags, bet)


# The records' layout: its one home. record_check and wallets, which Records loads itself
# and which so cannot import this module back, read it from the Records they are handed
# (its class attributes below).
TOP = const(5)  # the best scores each rule set keeps
_ENTRY = const(11)  # a top score: u16 score, name length, MAX_NAME (8) name bytes
_SUM_MAX = const(0x3FFF)  # the sum's high half stops here: the sum stays a small int
_BLOCK = const(63)  # per rule set: games, totals counted, their u32 sum, TOP entries
# Casino's wallets (picoyacht.wallets): after the blocks, an entry each (credits, name
# length, name), the latest players first.
WALLETS = const(6)
WALLET_MAX = const(9999)  # the most a wallet holds: four digits on every screen
WALLET_AT = rules.COUNT * _BLOCK
# then, never written to the file, the game in play's wallets as it opened them (open())
OPENING_AT = WALLET_AT + WALLETS * _ENTRY
SIZE = OPENING_AT + 2 * MAX_SEATS  # the records' bytes


class Records:
    """Per rule set: games played, the totals counted and their sum (for the average), and
    the top five scores with their players; and which game was counted last. Casino counts
    what each player won (credits), every other rule set the card's total. And the wallets:
    each Casino player's credits, carried from game to game.

    All of it lives in one bytearray of fixed-size blocks, made with the first count or
    load (no records, no buffer), so the records cost one object of heap, and reading them
    allocates nothing. Format 4 (pack) writes those blocks without their empty room, then
    the wallets; format 3 (no wallets) loads as it is; format 2 (games, one best and its
    name, and the last game) and format 1 (without the last game) load as the top score,
    with no average yet; a Casino best from them counted points, not credits, so it is
    dropped (its games stay)."""

    def __init__(self):
        self.data = b""  # until the first count or load: then SIZE bytes
        self.last = b""  # the last game counted: rule set, then its seed's 4 bytes

    # ---- reading ------------------------------------------------------------------
    def u16(self, pos):
        d = self.data
        return d[pos] | d[pos + 1] << 8 if d else 0

    def games(self, r):
        return self.u16(r * _BLOCK)

    def score(self, r, i):
        """The i-th best score (0: the best), -1 where there is none yet."""
        pos = r * _BLOCK + 8 + i * _ENTRY
        return self.u16(pos) if self.data and self.data[pos + 2] else -1

    def best(self, r):
        """The best score, 0 with none."""
        s = self.score(r, 0)
        return s if s > 0 else 0

    def name_at(self, r, i):
        """(position in data, length) of the i-th best score's name: drawn from the bytes,
        no string made."""
        pos = r * _BLOCK + 8 + i * _ENTRY + 2
        return pos + 1, self.data[pos]

    def totals(self, r):
        """How many totals r's average is over (every seat of every game counted)."""
        return self.u16(r * _BLOCK + 2)

    def average_tenths(self, r):
        """Rule set r's average total in tenths (integers only), -1 with none counted."""
        n = self.totals(r)
        if not n:
            return -1
        t = self.u16(r * _BLOCK + 4) | self.u16(r * _BLOCK + 6) << 16
        return t // n * 10 + t % n * 10 // n

    # ---- counting -----------------------------------------------------------------
    def put16(self, pos, v):
        if not self.data:
            self.data = bytearray(SIZE)
        self.data[pos] = v & 255
        self.data[pos + 1] = v >> 8 & 255

    def put_entry(self, pos, v, b):
        """A top score or a wallet at pos: v, then the name's bytes b and zeros after."""
        self.put16(pos, v)
        d = self.data
        d[pos + 2] = len(b)
        for i in range(MAX_NAME):
            d[pos + 3 + i] = b[i] if i < len(b) else 0

    def enter(self, r, score, name):
        """Put score into r's top five (after equal scores: the first to make it stays
        first); True if it is the new best."""
        base = r * _BLOCK + 8
        d = self.data
        at = TOP
        for i in range(TOP - 1, -1, -1):
            pos = base + i * _ENTRY
            if d[pos + 2] and self.u16(pos) >= score:
                break
            at = i
        if at >= TOP:
            return False
        pos = base + at * _ENTRY
        for i in range(base + TOP * _ENTRY - 1, pos + _ENTRY - 1, -1):  # the ones below
            d[i] = d[i - _ENTRY]  # move down, and the fifth drops off
        self.put_entry(pos, score, cut_name(name))
        return at == 0

    def add(self, game):
        """Count a finished game: every seat's total (Casino: credits won) into the
        average and the top five, and Casino's credits into the wallets. A game counted
        already is not counted again. True if it set a new best."""
        if self.counted(game):
            return False
        r = game.rs.id
        self.last = _game_id(game)
        base = r * _BLOCK
        self.put16(base, min(self.games(r) + 1, 0xFFFF))
        beaten = False
        for s in range(game.nseats):
            t = counted_score(game, s)
            lo = self.u16(base + 4) + t
            hi = self.u16(base + 6) + (lo >> 16)
            n = self.u16(base + 2)
            if hi <= _SUM_MAX and n < 0xFFFF:
                self.put16(base + 2, n + 1)
                self.put16(base + 4, lo & 0xFFFF)
                self.put16(base + 6, hi)
            if self.enter(r, t, game.names[s]):
                beaten = True
        self._wallets(game, True)
        return beaten

    # ---- wallets ------------------------------------------------------------------
    def wallet(self, i):
        """(credits, position of the name in data, its length) of the i-th wallet, the
        latest players first; length 0: no wallet there."""
        pos = WALLET_AT + i * _ENTRY
        if not self.data:
            return 0, pos + 3, 0
        return self.u16(pos), pos + 3, self.data[pos + 2]

    def put_wallet(self, i, credits, b):
        self.put_entry(WALLET_AT + i * _ENTRY, credits, b)

    def opening(self, seat):
        """The seat's wallet as the Casino game in play opened it (open()), for the
        screens: read from the records' bytes, so drawing it allocates nothing."""
        return self.u16(OPENING_AT + 2 * seat)

    def put_opening(self, seat, credits):
        self.put16(OPENING_AT + 2 * seat, credits)

    def open(self, game):
        """Each seat's wallet as a Casino game opens it, for opening(); the seats the bank
        filled, a bit each. Nothing to do for any other rule set."""
        return self._wallets(game, False)

    def _wallets(self, game, settle):
        """wallets.open, or wallets.settle, for a Casino game: that module is loaded for
        this and then dropped (as .mpy its code is heap)."""
        if not game.rs.casino:
            return 0
        from picoyacht import wallets
        from picoyacht.heap import forget

        names = [cut_name(n) for n in game.names]
        try:
            return (wallets.settle if settle else wallets.open)(self, game, names)
        finally:
            forget("wallets")

    def clear(self):
        """Forget every play, score and counted game (a long OK on the records screen)."""
        Records.__init__(self)

    def counted(self, game):
        """Whether ``game`` is the last game these records counted."""
        return self.last == _game_id(game)

    # ---- the file -----------------------------------------------------------------
    def pack(self):
        """Format 4: per rule set games, totals counted and their sum (8 bytes), then how
        many top scores and each one's score, name length and name; then the last game;
        then how many wallets and each one's credits, name length and name."""
        out = bytearray(b"R\x04")
        out.append(rules.COUNT)
        data = self.data or bytes(rules.COUNT * _BLOCK)
        for r in range(rules.COUNT):
            base = r * _BLOCK
            out.extend(data[base:base + 8])
            k = 0
            while k < TOP and self.score(r, k) >= 0:
                k += 1
            out.append(k)
            for i in range(k):
                pos = base + 8 + i * _ENTRY
                out.extend(data[pos:pos + 3 + data[pos + 2]])
        out.append(len(self.last))
        out.extend(self.last)
        k = 0
        while k < WALLETS and self.wallet(k)[2]:
            k += 1
        out.append(k)
        for i in range(k):
            v, pos, n = self.wallet(i)
            out.extend(data[pos - 3:pos + n])
        return bytes(out)

    @classmethod
    def unpack(cls, data):
        """Records from bytes; ValueError on anything inconsistent or impossible (see
        record_check, loaded for this and then dropped: a boot reads the records once)."""
        from picoyacht import record_check
        from picoyacht.heap import forget

        try:
            return record_check.unpack(cls(), data)
        finally:
            forget("record_check")


# The layout on the class, for record_check and wallets. Set here, not in the class body:
# there mpy-cross would read `TOP = TOP` as an assignment to the constant 5.
Records.TOP = TOP
Records.ENTRY = _ENTRY
Records.BLOCK = _BLOCK
Records.WALLETS = WALLETS
Records.WALLET_MAX = WALLET_MAX
Records.WALLET_AT = WALLET_AT
Records.SIZE = SIZE
Records.GAME_ID = 5  # bytes of a game's identity (_game_id)


def counted_score(game, seat):
    """What the records count for a seat: Casino the credits it won (what the screens
    show: 0 once the bet is in the pot), every other rule set the card's total."""
    if game.rs.casino:
        return game.credits[seat] + game.options.bet
    return game.total(seat)


def _game_id(game):
    """The rule set and the seed: a new game draws a fresh 30-bit seed, so two games that
    share both are as good as never met."""
    seed = game.seed
    lo = seed & 0xFFFF
    hi = seed >> 16 & 0xFFFF
    return bytes((game.rs.id, lo & 255, lo >> 8, hi & 255, hi >> 8))


def cut_name(name):
    """The name's UTF-8 bytes, at most MAX_NAME of them, cut between characters: a cut
    inside one would make a file the next boot refuses."""
    b = name.encode()
    if len(b) <= MAX_NAME:
        return b
    end = MAX_NAME
    while end and b[end] & 0xC0 == 0x80:  # a continuation byte: back to the character
        end -= 1
    return b[:end]


def _put_name(out, name):
    b = cut_name(name)
    out.append(len(b))
    out.extend(b)


def resumable(game):
    """The game if its save may be resumed; None for a finished game, so that its file is
    refused like a corrupt one: the backup is used, and it never rotates over a good copy."""
    return None if game.over else game


class SaveState:
    """What the last saves left unsaved, for the screens: the "!" in every header, the line
    in the menu, and game over's note stay until a save of the failing kind works."""

    _KINDS = ("settings", "records", "game")
    _WHAT = ("Setup not saved", "Records not saved", "Game not saved")

    def __init__(self):
        self.failed = 0  # a bit per kind of _KINDS whose last save failed
        self.error = ""  # the store's words for the latest failure

    def saved(self, kind, ok, error=""):
        """Note a save's outcome; returns the message still to show ("" when all is well)."""
        bit = 1 << self._KINDS.index(kind)
        if ok:
            self.failed &= ~bit
            if not self.failed:
                self.error = ""
        else:
            self.failed |= bit
            self.error = error or "not saved"
        return self.error

    def unsaved(self, kind):
        return bool(self.failed >> self._KINDS.index(kind) & 1)

    def what(self):
        """The menu's first line: which save failed ("" if none)."""
        for i in range(len(self._KINDS) - 1, -1, -1):  # the game first: it matters most
            if self.failed >> i & 1:
                return self._WHAT[i]
        return ""

    def todo(self):
        """The menu's second line: what the player can do about it."""
        if not self.failed:
            return ""
        # store.MSG_FULL, matched by its words: a build with no store never loads that module
        return "Full: clear records" if "flash full" in self.error else "Check the filesystem"


def load(store, kind, parse, notes):
    """A kind's payload from the store, parsed, or None; every failure becomes a line of
    `notes`, for the boot's message. parse raises or returns None on a copy it refuses."""
    if store is None:
        return None
    accepted = []  # (payload, parsed) of each copy the check took: parsed once only
    why = [""]  # the check's words for the last copy it refused (one slot: no growth)

    def check(payload):  # the store skips copies this refuses, and never backs them up
        try:
            obj = parse(payload)
        except Exception as e:
            why[0] = _reason(kind, e)
            raise
        if obj is None:
            why[0] = "a finished game"
        else:
            accepted.append((bytes(payload), obj))
        return obj is not None

    try:
        data = store.load(kind, check)
        err = store.last_error
    except Exception as e:  # a Store must not raise, but a flaky flash might
        data, err = None, "read error " + str(e)
    if err and why[0]:  # "records: save refused (a wallet no game leaves): using backup"
        notes.append(kind + ": save refused (" + why[0] + "):" + err[err.find(":") + 1:])
    elif err:
        notes.append(kind + ": " + err)
    if data is None:
        return None
    for payload, obj in accepted:
        if payload == data:
            return obj
    try:
        return parse(data)
    except Exception:
        notes.append(kind + ": unreadable, reset")
        return None


def _reason(kind, e):
    """A refused copy's reason in a few words: the check's message less the kind's name
    ("records: a wallet no game leaves" -> "a wallet no game leaves")."""
    text = str(e) or type(e).__name__
    for head in ("snapshot invalid: ", "snapshot ", kind + ": ", kind + " "):
        if text.startswith(head):
            text = text[len(head):]
    return text[:40]
