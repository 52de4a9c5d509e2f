"""Expert's table: the optimal value of every turn-start position, read from flash.

Written by tools/tables/build_tables.py, one file per game and option (Sharp Dice changes
every value). A position is (filled mask, upper total capped at the bonus threshold, Yahtzee-bonus
flag). Lossless collapses: once the upper bonus is decided (reached, or out of reach) the
upper total no longer matters, and two totals that no remaining upper scores can tell apart
share one value. What is stored, per group of (lower mask, flag, upper mask): a 16-bit
"decided" value (units 2^-BSHIFT points), then one byte per live upper-total class: the
extra value of the bonus still being in play, in units of bonus/255. Little-endian file
layout, with A = bonus_at + 1 (the upper totals 0..bonus_at):

    0   b"PYT2"
    4   u8 rule set id, u8 joker variant built for (255: none), u8 boxes, u8 bonus_at
    8   u8 bonus, u8 BSHIFT, u16 lower groups, u16 group size in bytes,
    14  u8 flags (bit 0: built for Sharp Dice), u8 reserved
    16  u16 uoff[64]: offset of each upper mask's live bytes inside a group
    144 u8 slot[64][A]: live class of (upper mask, upper total), 255 = decided
    144 + 64 A  the groups, lower-group index (lower mask, flag) major, fixed size each

The table is never loaded: each value costs up to three seek + readinto calls into small
preallocated buffers, and a turn needs a few dozen values.

A board's ROMFS (`make uf2`) carries the same values packed, magic PACKED, in about a third
of the bytes (picoyacht.table_packed reads them in place); Table opens either form under a
table's name, and answers the same.
"""

from array import array

from micropython import const

# COST units (picoyacht.engine's, about a microsecond on the Pico) a value of the plain form
# takes at most: up to three seek + readinto calls.
_C_VALUE = const(1000)
TABLE_MAGIC = b"PYT2"
PACKED = b"PYZ1"  # the same values packed (picoyacht.table_packed), as a board's ROMFS holds them
FLAG_SHARP = 1
_SLOTS = const(144)  # where slot[][] starts; table_packed keeps a copy it folds


def header_size(bonus_at):
    """Bytes before the groups: they start after one slot row per upper mask."""
    return _SLOTS + 64 * (bonus_at + 1)


class Table:
    def __init__(self, f):
        self.f = f
        h = bytearray(16)
        f.seek(0)
        if f.readinto(h) != 16 or bytes(h[0:4]) not in (TABLE_MAGIC, PACKED):
            raise ValueError("not a PicoYacht table")
        self.parse(h)
        if bytes(h[0:4]) == PACKED:  # the packed form's reader answers value()
            from picoyacht.table_packed import Packed

            self.packed = Packed(f, self)
            self.value = self.packed.value
            return
        raw = bytearray(128)
        f.readinto(raw)
        self.uoff = array("H", bytes(128))
        for u in range(64):
            self.uoff[u] = raw[2 * u] | raw[2 * u + 1] << 8
        self.row = bytearray(self.at + 1)  # slot row of one upper mask
        self.row_u = -1
        self.b2 = bytearray(2)
        self.b1 = bytearray(1)

    def parse(self, h):
        """The 16-byte header's fields (the packed form has the same header)."""
        self.rid = h[4]
        self.joker = h[5]
        self.nb = h[6]
        self.at = h[7]
        self.bonus = h[8]
        self.bshift = h[9]
        self.ngroups = h[10] | h[11] << 8
        self.gsize = h[12] | h[13] << 8
        self.sharp = bool(h[14] & FLAG_SHARP)
        self.header = header_size(self.at)
        self.dnum = self.bonus << 16
        self.full = (1 << self.nb) - 1
        self.ybit = -1
        self.reads = 0
        self.work = 0  # COST units the reads since the engine zeroed it took (the engine's pace)

    @classmethod
    def open(cls, path_or_file):
        """The table in a file, or None when a path names no file or a file of another
        format (a table built before this reader): Expert then plays as Normal."""
        if not isinstance(path_or_file, str):
            return cls(path_or_file)
        try:
            f = open(path_or_file, "rb")
        except OSError:
            return None
        try:
            return cls(f)
        except ValueError:
            f.close()
            return None

    def close(self):
        self.f.close()

    def serves(self, game):
        """True when this table was built for the game's rules: its rule set, upper bonus,
        joker variant and Sharp Dice. The Forced (0) and Free (1) jokers' tables serve each other:
        `make bench-strategy` measures what that costs, far inside Expert's goal of 0.01 a
        game; any other pairing costs more, so it serves none (Expert then estimates)."""
        rs = game.rs
        o = game.options
        return (rs.id == self.rid and rs.nboxes == self.nb and rs.bonus_at == self.at
                and rs.upper_bonus(o) == self.bonus
                and (not rs.joker or o.joker >> 1 == self.joker >> 1)
                and self.sharp == (rs.sharp and o.sharp))

    def lgroup(self, mask, y):
        """The group of rows of (mask's lower boxes, the Yahtzee-bonus flag)."""
        low = mask >> 6
        if self.joker == 255 or not y:
            return low
        yb = self.ybit_low()
        below = low & ((1 << yb) - 1)
        return (1 << (self.nb - 6)) + (below | ((low >> (yb + 1)) << yb))

    def ybit_low(self):
        if self.ybit < 0:
            from picoyacht import rules

            self.ybit = rules.RULESETS[self.rid].yahtzee_box - 6
        return self.ybit

    def value(self, mask, up, y):
        """Expected points still to come from this turn-start position (fixed point,
        1 << 16 per point). The caller caps `up` at bonus_at."""
        if mask == self.full:
            return 0
        self.work += _C_VALUE
        f = self.f
        u = mask & 63
        base = self.header + self.lgroup(mask, y) * self.gsize
        if u != self.row_u:
            f.seek(_SLOTS + (self.at + 1) * u)
            f.readinto(self.row)
            self.row_u = u
            self.reads += 1
        f.seek(base + 2 * u)
        f.readinto(self.b2)
        v = (self.b2[0] | self.b2[1] << 8) << (16 - self.bshift)
        self.reads += 1
        slot = self.row[up]
        if slot != 255:
            f.seek(base + 128 + self.uoff[u] + slot)
            f.readinto(self.b1)
            self.reads += 1
            v += (self.b1[0] * self.dnum + 127) // 255
        return v


DIRS = ("/rom/tables", "/tables", "tables")
# A board that brings a table in when a game needs it (the browser's, the simulator's) sets
# this: its tables are not on the filesystem yet while setup asks about them.
on_demand = False
# The simulator's board sets this to a function of the file names (best first) that returns
# once it has put one into DIRS, or cannot: load() calls it when a game first needs one.
bring = None


def load(game, dirs=DIRS):
    """The table that serves this game (Table.serves) from the first directory that has
    it, or None (Expert then plays by Normal's estimate, and says so).
    /rom/tables: the read-only ROMFS a `make uf2` firmware carries, read in place from
    flash; /tables: copied by `make flash`; tables: the simulator's, in the repository.
    A board that sets `bring` is asked for a missing table once, before giving up."""
    o = game.options
    names = file_names(game.rs.id, o.joker, game.rs.sharp and o.sharp)
    t = _first(game, names, dirs)
    if t is None and bring is not None and names:
        bring(names)
        t = _first(game, names, dirs)
    return t


def _first(game, names, dirs):
    for d in dirs:
        for name in names:
            t = Table.open(d + "/" + name)
            if t is not None:
                if t.serves(game):
                    return t
                t.close()
    return None


def available(rid, joker, sharp=False, dirs=DIRS):
    """True when Expert will find its table for this rule set and options (for setup and
    the hand-over to say when it will not); opens and closes the files, reads nothing."""
    names = file_names(rid, joker, sharp)
    if on_demand:
        return bool(names)
    for d in dirs:
        for name in names:
            try:
                open(d + "/" + name, "rb").close()
                return True
            except OSError:
                pass
    return False


def file_names(rid, joker, sharp=False):
    """The table files that may serve a game of this rule set, joker rule and Sharp Dice
    (on only where the rule set has it), the best first; () if none can. (The browser
    board fetches the first one the site has before a game needs it.)"""
    tail = "_sharp.bin" if sharp else ".bin"
    if rid == 0:  # Yahtzee: its own joker's table, then the one that shares with it
        own = "yahtzee_%d%s" % (joker, tail)
        if joker == 2:
            return (own,)
        kin = "yahtzee_%d%s" % (1 - joker, tail)
        if sharp:
            return (own, kin)
        return (own, kin, "yahtzee.bin")  # yahtzee.bin: older builds' name for Forced's
    if rid == 1:  # Yatzy
        return ("yatzy" + tail,)
    if rid == 5:  # Deluxe
        return ("deluxe.bin",)
    return ()
