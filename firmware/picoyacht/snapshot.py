"""A whole game as compact bytes, and back; never a half-restored game.

Layout (version 1, little endian), then a Fletcher-16 over everything before it:
  "PY" ver ruleset opt_flags bet nseats turn rolls_used rolls_left held flags
  seed:u32 roller_state:u32 order[n] dice[ndice]
  per seat: kind<<4|len(name) name filled:u24 scores[nboxes]
            [ybonus] (Yahtzee) [saved] (Maxi) [credits:i16] (Casino)
"""

from micropython import const

from picoyacht import rules
from picoyacht.rules import MAX_NAME, MAX_SEATS

_FORMAT_VERSION = const(1)  # the layout's version: store.VERSION is the file's
_MAGIC = b"PY"


class SnapshotError(ValueError):
    """Bytes that are not a whole, consistent game."""


def _fletcher16(data, end):
    a = b = 0
    for i in range(end):
        a = (a + data[i]) % 255
        b = (b + a) % 255
    return b << 8 | a


def _u32(out, hi, lo):
    """A u32 from its 16-bit halves: no int of 2**30 or more (a heap object on a Pico)."""
    out.append(lo & 0xFF)
    out.append(lo >> 8)
    out.append(hi & 0xFF)
    out.append(hi >> 8)


def dump(game):
    rs = game.rs
    nb = rs.nboxes
    # room for the largest game of this shape up front, then emptied: appends fill it
    # without the bytearray growing (each growth leaves its old buffer as garbage, several
    # hundred bytes a snapshot on a Pico, and the game snapshots at every box)
    out = bytearray(32 + game.nseats * (MAX_NAME + nb + 9))
    out[:] = _MAGIC
    flags, bet = game.options.pack()
    out.append(_FORMAT_VERSION)
    out.append(rs.id)
    out.append(flags)
    out.append(bet)
    out.append(game.nseats)
    out.append(game.turn)
    out.append(game.rolls_used)
    out.append(game.rolls_left)
    out.append(game.held)
    out.append(1 if game.single_roll else 0)
    seed = game.seed
    _u32(out, seed >> 16 & 0xFFFF, seed & 0xFFFF)
    roller = game.roller
    if hasattr(roller, "halves"):
        hi, lo = roller.halves()
    else:  # a stand-in roller (tests)
        state = roller.getstate() if hasattr(roller, "getstate") else 0
        hi, lo = state >> 16 & 0xFFFF, state & 0xFFFF
    _u32(out, hi, lo)
    out.extend(game.order)
    out.extend(game.dice)
    sc = game.scores
    for s in range(game.nseats):
        name = game.names[s].encode()
        if len(name) > MAX_NAME:
            name = name[:MAX_NAME]
        out.append(game.kinds[s] << 4 | len(name))
        out.extend(name)
        f = game.filled[s]
        out.append(f & 0xFF)
        out.append(f >> 8 & 0xFF)
        out.append(f >> 16 & 0xFF)
        for b in range(s * nb, s * nb + nb):  # a slice would be a copy
            out.append(sc[b])
        if rs.joker:
            out.append(game.ybonus[s])
        if rs.saved_rolls:
            out.append(game.saved[s])
        if rs.casino:
            c = game.credits[s] & 0xFFFF
            out.append(c & 0xFF)
            out.append(c >> 8)
    c = _fletcher16(out, len(out))
    out.append(c & 0xFF)
    out.append(c >> 8)
    return bytes(out)


class _Reader:
    def __init__(self, data):
        self.data = data
        self.pos = 0

    def take(self, n):
        if self.pos + n > len(self.data):
            raise SnapshotError("snapshot truncated")
        start = self.pos
        self.pos += n
        return self.data[start:self.pos]

    def byte(self):
        return self.take(1)[0]

    def uint(self, n):
        b = self.take(n)
        v = 0
        for i in range(n - 1, -1, -1):
            v = v << 8 | b[i]
        return v


def _check(cond, what):
    if not cond:
        raise SnapshotError("snapshot invalid: " + what)


def load(data, roller, Game):
    """Rebuild a Game (the class, passed in: game.py imports this module) from bytes, or
    raise SnapshotError; the caller's game is untouched."""
    try:
        data = bytes(data)
    except (TypeError, ValueError):
        raise SnapshotError("snapshot is not bytes") from None
    if len(data) < 4:
        raise SnapshotError("snapshot truncated")
    stored = data[-2] | data[-1] << 8
    _check(data[:2] == _MAGIC, "not a PicoYacht game")
    _check(data[2] == _FORMAT_VERSION, "format version " + str(data[2]))
    _check(_fletcher16(data, len(data) - 2) == stored, "checksum mismatch")
    r = _Reader(data[:-2])
    r.take(3)
    rid = r.byte()
    _check(rid < rules.COUNT, "rule set")
    rs = rules.RULESETS[rid]
    try:
        opts = rules.Options.unpack(r.byte(), r.byte())
    except ValueError:
        raise SnapshotError("snapshot invalid: options") from None
    n = r.byte()
    _check(1 <= n <= MAX_SEATS, "seat count")
    turn = r.byte()
    rolls_used = r.byte()
    rolls_left = r.byte()
    held = r.byte()
    flags = r.byte()
    seed = r.uint(4)
    state = r.uint(4)
    order = r.take(n)
    dice = r.take(rs.ndice)
    _check(flags <= 1, "dice flags")
    game = Game(rs, ["?"] * n, None, opts, None, seed)
    game.order = bytearray(order)
    game.turn = turn
    game.rolls_used = rolls_used
    game.rolls_left = rolls_left
    game.held = held
    game.single_roll = bool(flags)
    game.dice = bytearray(dice)
    nb = rs.nboxes
    for s in range(n):
        head = r.byte()
        kind, length = head >> 4, head & 15
        _check(length <= MAX_NAME, "seat header")
        try:
            game.names[s] = str(r.take(length), "utf-8")
        except UnicodeError:
            raise SnapshotError("snapshot invalid: name") from None
        game.kinds[s] = kind
        game.filled[s] = r.uint(3)
        game.scores[s * nb:(s + 1) * nb] = r.take(nb)
        if rs.joker:
            game.ybonus[s] = r.byte()
        if rs.saved_rolls:
            game.saved[s] = r.byte()
        if rs.casino:
            c = r.uint(2)
            game.credits[s] = c - 0x10000 if c & 0x8000 else c
    _check(r.pos == len(r.data), "trailing bytes")
    from picoyacht.invariants import Invalid, validate  # here: dump, at every box, needs none

    try:
        validate(game)
    except Invalid as e:
        raise SnapshotError(str(e)) from None
    game.roller = roller
    setstate = getattr(roller, "setstate", None)
    if setstate:
        setstate(state)
    return game
