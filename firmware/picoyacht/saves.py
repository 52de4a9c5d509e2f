"""The Settings and Records save formats: small versioned byte strings for the Store.

unpack() raises ValueError on anything inconsistent, so a corrupt copy is refused (the
Store then falls back to its previous good copy, or the app starts fresh).
"""

from picoyacht import rules
from picoyacht.cues import VOLUME_DEFAULT, VOLUME_NAMES
from picoyacht.game import HUMAN, MAX_NAME

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
        self.kinds = bytearray((HUMAN, 2, 2, 2, 2, 2))
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
            name = str(data[pos + 1:pos + 1 + n], "utf-8")
            if not name or len(name) > MAX_NAME or pos + 1 + n > len(data):
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
    """Games played and the best total (with its player) per rule set."""

    def __init__(self):
        self.games = [0] * rules.COUNT
        self.best = [0] * rules.COUNT
        self.names = [""] * rules.COUNT

    def pack(self):
        out = bytearray(b"R\x01")
        out.append(rules.COUNT)
        for r in range(rules.COUNT):
            g = min(self.games[r], 0xFFFF)
            b = min(self.best[r], 0xFFFF)
            out.extend(bytes((g & 255, g >> 8, b & 255, b >> 8)))
            _put_name(out, self.names[r])
        return bytes(out)

    @classmethod
    def unpack(cls, data):
        rec = cls()
        if len(data) < 3 or data[0:2] != b"R\x01" or data[2] != rules.COUNT:
            raise ValueError("records format")
        pos = 3
        for r in range(rules.COUNT):
            if pos + 5 > len(data):
                raise ValueError("records truncated")
            rec.games[r] = data[pos] | data[pos + 1] << 8
            rec.best[r] = data[pos + 2] | data[pos + 3] << 8
            n = data[pos + 4]
            if n > MAX_NAME or pos + 5 + n > len(data):
                raise ValueError("records names")
            rec.names[r] = str(data[pos + 5:pos + 5 + n], "utf-8")
            pos += 5 + n
        return rec

    def add(self, game):
        """Count a finished game; True if it set a new best."""
        r = game.rs.id
        self.games[r] += 1
        beaten = False
        for s in range(game.nseats):
            t = game.total(s)
            if t > self.best[r]:
                self.best[r] = t
                self.names[r] = game.names[s]
                beaten = True
        return beaten


def _put_name(out, name):
    b = name.encode()[:MAX_NAME]
    out.append(len(b))
    out.extend(b)
