"""The Settings and Records save formats, which saved games may be resumed, and what the
last saves left unsaved.

unpack() raises ValueError on anything inconsistent or impossible, so a corrupt copy is
refused (the Store then falls back to its previous good copy, or the app starts fresh).
"""

from picoyacht import rules
from picoyacht.cues import VOLUME_DEFAULT, VOLUME_NAMES
from picoyacht.game import MAX_NAME
from picoyacht.rules import ALL_PLUS, ARG_A, FIXED, KIND, MODE, UPPER, VALUE, YAHTZEE_BONUS

BETS = (5, 10, 20, 50)
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
            if not name:
                raise ValueError("settings names")
            s.names[i] = name
            pos += 1 + n
        if s.options.bet not in BETS:
            s.options.bet = 10
        return s

    def options_copy(self):
        """The options for a new game: its own copy, so setup changes never reach it."""
        flags, bet = self.options.pack()
        return rules.Options.unpack(flags, bet)


class Records:
    """Games played and the best total (with its player) per rule set, and which game was
    counted last. Format 2 added that game's rule set and seed after the rule sets, so a
    game whose save outlives its count (its delete failed) is never counted twice; a format
    1 copy still loads, with no game counted."""

    def __init__(self):
        self.games = [0] * rules.COUNT
        self.best = [0] * rules.COUNT
        self.names = [""] * rules.COUNT
        self.last = b""  # the last game counted: rule set, then its seed's 4 bytes

    def pack(self):
        out = bytearray(b"R\x02")
        out.append(rules.COUNT)
        for r in range(rules.COUNT):
            g = min(self.games[r], 0xFFFF)
            b = min(self.best[r], 0xFFFF)
            out.extend(bytes((g & 255, g >> 8, b & 255, b >> 8)))
            _put_name(out, self.names[r])
        out.append(len(self.last))
        out.extend(self.last)
        return bytes(out)

    @classmethod
    def unpack(cls, data):
        """Records from bytes; ValueError on anything inconsistent: a best above what the
        rule set can total, a best or a name with no game played, a name that does not
        decode."""
        rec = cls()
        v2 = data[0:2] == b"R\x02"
        if len(data) < 3 or not (v2 or data[0:2] == b"R\x01") or data[2] != rules.COUNT:
            raise ValueError("records format")
        pos = 3
        for r in range(rules.COUNT):
            if pos + 5 > len(data):
                raise ValueError("records truncated")
            games = rec.games[r] = data[pos] | data[pos + 1] << 8
            best = rec.best[r] = data[pos + 2] | data[pos + 3] << 8
            n = data[pos + 4]
            if n > MAX_NAME or pos + 5 + n > len(data):
                raise ValueError("records names")
            name = rec.names[r] = str(data[pos + 5:pos + 5 + n], "utf-8")
            if (best or name) and not games or best and not name:
                raise ValueError("records: a best with no game")
            if best and best > max_total(rules.RULESETS[r]):  # (builds only played ones)
                raise ValueError("records: a best no card makes")
            pos += 5 + n
        if v2:
            if pos >= len(data) or data[pos] not in (0, _GAME_ID) or (
                    pos + 1 + data[pos] != len(data)):
                raise ValueError("records: last game")
            rec.last = bytes(data[pos + 1:])
        elif pos != len(data):
            raise ValueError("records: trailing bytes")
        return rec

    def clear(self):
        """Forget every play, best and counted game (a long OK on the records screen)."""
        Records.__init__(self)

    def counted(self, game):
        """Whether ``game`` is the last game these records counted."""
        return self.last == _game_id(game)

    def add(self, game):
        """Count a finished game; True if it set a new best."""
        r = game.rs.id
        self.last = _game_id(game)
        self.games[r] += 1
        beaten = False
        for s in range(game.nseats):
            t = game.total(s)
            if t > self.best[r]:
                self.best[r] = t
                self.names[r] = game.names[s]
                beaten = True
        return beaten


def box_cap(rs, box, sharp):
    """A bound on the box's score read from its data alone (no dice search): records are
    checked at every boot for every rule set, where a search would cost seconds on a Pico."""
    spec = rs.boxes[box]
    if spec[KIND] == UPPER:
        return spec[ARG_A] * rs.ndice
    mode = spec[MODE]
    if mode == FIXED:
        cap = spec[VALUE]
    else:
        cap = 6 * rs.ndice + (spec[VALUE] if mode == ALL_PLUS else 0)
    return cap * 2 if sharp and rules.doubles_with_sharp(spec) else cap


def max_total(rs):
    """The most a card of the rule set can total, with any options: every box at its cap,
    the larger upper bonus, and a Yahtzee bonus for every other box."""
    t = 0
    for b in range(rs.nboxes):
        t += box_cap(rs, b, rs.sharp)
    t += max(rs.upper_bonus(rules.Options()), rs.upper_bonus(rules.Options(bonus100=True)))
    if rs.joker:
        t += YAHTZEE_BONUS * (rs.nboxes - 1)  # every box but the Yahtzee's
    return t


_GAME_ID = 5  # bytes of a game's identity in the records


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
