"""A whole game as compact bytes, and back; never a half-restored game.

Layout (version 1, little endian), then a Fletcher-16 over everything before it:
  "PY" ver ruleset opt_flags bet nseats turn rolls_used rolls_left held flags
  seed:u32 roller_state:u32 order[n] dice[ndice]
  per seat: kind<<4|len(name) name filled:u24 scores[nboxes]
            [ybonus] (Yahtzee) [saved] (Maxi) [credits:i16] (Casino)
"""

from picoyacht import rules
from picoyacht.game import CPU_EXPERT, MAX_NAME, MAX_SEATS, ROLLS_PER_TURN, Game
from picoyacht.rules import ALL_PLUS, ARG_A, FIXED, KIND, MODE, UPPER, VALUE

VERSION = 1
_MAGIC = b"PY"


class SnapshotError(ValueError):
    """Bytes that are not a whole, consistent game."""


def _fletcher16(data, end):
    a = b = 0
    for i in range(end):
        a = (a + data[i]) % 255
        b = (b + a) % 255
    return b << 8 | a


def _u32(out, v):
    out.append(v & 0xFF)
    out.append(v >> 8 & 0xFF)
    out.append(v >> 16 & 0xFF)
    out.append(v >> 24 & 0xFF)


def dump(game):
    rs = game.rs
    out = bytearray(_MAGIC)
    flags, bet = game.options.pack()
    out.append(VERSION)
    out.append(rs.id)
    out.append(flags)
    out.append(bet)
    out.append(game.nseats)
    out.append(game.turn)
    out.append(game.rolls_used)
    out.append(game.rolls_left)
    out.append(game.held)
    out.append(1 if game.single_roll else 0)
    _u32(out, game.seed & 0xFFFFFFFF)
    getstate = getattr(game.roller, "getstate", None)
    _u32(out, (getstate() if getstate else 0) & 0xFFFFFFFF)
    out.extend(game.order)
    out.extend(game.dice)
    nb = rs.nboxes
    for s in range(game.nseats):
        name = game.names[s].encode()[:MAX_NAME]
        out.append(game.kinds[s] << 4 | len(name))
        out.extend(name)
        f = game.filled[s]
        out.append(f & 0xFF)
        out.append(f >> 8 & 0xFF)
        out.append(f >> 16 & 0xFF)
        out.extend(game.scores[s * nb:(s + 1) * nb])
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


def _popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


def _score_fits(rs, box, points, sharp):
    """Whether ``points`` is a score the box can hold: a cheap bound, no dice search."""
    spec = rs.boxes[box]
    if spec[KIND] == UPPER:
        face = spec[ARG_A]
        return points % face == 0 and points <= face * rs.ndice
    mode = spec[MODE]
    cap = spec[VALUE] if mode == FIXED else 6 * rs.ndice + (spec[VALUE] if mode == ALL_PLUS else 0)
    if sharp and rules.doubles_with_sharp(spec):
        cap *= 2
    return points <= cap


def validate(game):
    """Raise SnapshotError unless ``game`` is a position legal play can reach, or close to it.

    Every field in range, the scorecards consistent with the turn, and the player to move
    has a legal action (roll or score). ``load`` runs it on every snapshot; the tests run it
    on every position they play through."""
    rs = game.rs
    opts = game.options
    n = game.nseats
    nb = rs.nboxes
    _check(1 <= n <= MAX_SEATS and len(game.names) == n, "seat count")
    order = game.order
    _check(sorted(order) == list(range(n)), "seat order")
    if not rs.random_seating:
        first = order[0] if rs.rolloff else 0
        for i in range(n):
            _check(order[i] == (first + i) % n, "seat order")
    turn = game.turn
    _check(0 <= turn <= nb * n, "turn")
    over = turn == nb * n
    maxi = rs.saved_rolls and opts.saved_rolls
    sharp = rs.sharp and opts.sharp
    bet = opts.bet
    for pos in range(n):
        seat = order[pos]
        name = game.names[seat]
        _check(1 <= len(name) <= MAX_NAME and all(" " <= ch <= "~" for ch in name), "name")
        _check(game.kinds[seat] <= CPU_EXPERT, "seat kind")
        filled = game.filled[seat]
        done = turn // n + (1 if pos < turn % n else 0)
        _check(filled >> nb == 0 and _popcount(filled) == done, "boxes filled vs turn")
        base = seat * nb
        for b in range(nb):
            points = game.scores[base + b]
            if filled >> b & 1:
                _check(_score_fits(rs, b, points, sharp), "box score")
            else:
                _check(points == 0, "score in an open box")
        bonuses = game.ybonus[seat]
        if bonuses:
            ybox = rs.yahtzee_box
            _check(rs.joker and filled >> ybox & 1 and game.scores[base + ybox]
                   and bonuses < done, "Yahtzee bonus count")
        # Maxi: a seat carries at most 2 unused rolls per turn it played; the seat to move
        # has already taken its carried rolls into rolls_left.
        saved = game.saved[seat]
        _check(not saved or maxi and saved <= 2 * done and (over or seat != game.current),
               "saved rolls")
        credits = game.credits[seat]
        if rs.casino:
            won = 2 * bet * done + (bet * n if over else 0)
            _check(-bet <= credits <= won - bet, "credits")
        else:
            _check(credits == 0, "credits")
    used = game.rolls_used
    left = game.rolls_left
    _check(used >= 0 and left >= 0, "rolls")
    if over:
        _check(used == 0 and left == 0, "rolls after the end")
    else:
        extra = used + left - ROLLS_PER_TURN
        carried = 2 * _popcount(game.filled[game.current]) if maxi else 0
        _check(0 <= extra <= carried, "rolls")
    dice = game.dice
    all_held = (1 << rs.ndice) - 1
    _check(len(dice) == rs.ndice and game.held & all_held == game.held, "dice flags")
    if used == 0:
        _check(game.held == 0 and not game.single_roll and not any(dice), "dice before a roll")
    else:
        _check(all(1 <= d <= 6 for d in dice) and (used > 1 or game.single_roll), "dice faces")
    if not over:
        can_roll = left > 0 and not (used and game.held == all_held)
        _check(can_roll or game._allowed(), "no legal action")


def load(data, roller=None):
    """Rebuild a Game from bytes, or raise SnapshotError; the caller's game is untouched."""
    try:
        data = bytes(data)
    except (TypeError, ValueError):
        raise SnapshotError("snapshot is not bytes") from None
    if len(data) < 4:
        raise SnapshotError("snapshot truncated")
    stored = data[-2] | data[-1] << 8
    _check(data[:2] == _MAGIC, "not a PicoYacht game")
    _check(data[2] == VERSION, "format version " + str(data[2]))
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
    validate(game)
    game.roller = roller
    setstate = getattr(roller, "setstate", None)
    if setstate:
        setstate(state)
    return game
