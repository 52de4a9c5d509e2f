"""The records file's checks and its old formats, kept apart from saves.Records: a boot
reads the records once, and this code (heap, as .mpy) is dropped after it.

unpack() raises ValueError on anything real games cannot leave: a score above what the
rule set makes, scores out of order, a score, a total or a sum with no game, a name that
does not decode or is not printable, bytes where there should be none; a wallet with no
Casino game, over its most, or twice under one name.
"""

from picoyacht import rules
from picoyacht.game import MAX_NAME
from picoyacht.rules import ALL_PLUS, ARG_A, FIXED, KIND, MODE, UPPER, VALUE, YAHTZEE_BONUS


def unpack(rec, data):
    """Fill the empty saves.Records rec from bytes of any format; returns it. The layout
    is rec's (rec.TOP, rec.ENTRY, ...): saves loads this module, so it cannot import saves."""
    fmt = data[1] if len(data) > 2 and data[0:1] == b"R" else 0
    if fmt not in (1, 2, 3, 4) or data[2] != rules.COUNT:
        raise ValueError("records format")
    if fmt >= 3:
        pos = _unpack_blocks(rec, data)
    else:
        pos = _unpack_old(rec, data)
    if fmt >= 2:
        if pos >= len(data) or data[pos] not in (0, rec.GAME_ID):
            raise ValueError("records: last game")
        rec.last = bytes(data[pos + 1:pos + 1 + data[pos]])
        pos += 1 + data[pos]
    if fmt == 4:
        pos = _unpack_wallets(rec, data, pos)
    if pos != len(data):
        raise ValueError("records: trailing bytes")
    for r in range(rules.COUNT):
        _check(rec, r)
    _check_wallets(rec)
    return rec


def _unpack_blocks(rec, data):
    """Format 3's blocks into rec's fixed layout; returns the position after them."""
    d = rec.data = bytearray(rec.SIZE)
    pos = 3
    for r in range(rules.COUNT):
        base = r * rec.BLOCK
        if pos + 9 > len(data) or data[pos + 8] > rec.TOP:
            raise ValueError("records truncated")
        d[base:base + 8] = data[pos:pos + 8]
        k = data[pos + 8]
        pos += 9
        pos = _unpack_entries(rec, base + 8, data, pos, k)
    return pos


def _unpack_entries(rec, at, data, pos, k):
    """k entries (u16, name length, name) from data at pos into rec's fixed ones at at;
    returns the position after them."""
    d = rec.data
    entry = rec.ENTRY
    for i in range(k):
        n = data[pos + 2] if pos + 3 <= len(data) else 0
        if not n or n > MAX_NAME or pos + 3 + n > len(data):
            raise ValueError("records names")
        d[at + i * entry:at + i * entry + 3 + n] = data[pos:pos + 3 + n]
        pos += 3 + n
    return pos


def _unpack_wallets(rec, data, pos):
    """Format 4's wallets into rec's; returns the position after them."""
    if pos >= len(data) or data[pos] > rec.WALLETS:
        raise ValueError("records: wallets")
    return _unpack_entries(rec, rec.WALLET_AT, data, pos + 1, data[pos])


def _check_wallets(rec):
    """ValueError unless the wallets could have come from real Casino games."""
    d = rec.data
    casino = rec.games(rules.CASINO5) or rec.games(rules.CASINO6)
    seen = []
    end = rec.WALLET_AT + rec.WALLETS * rec.ENTRY
    for i in range(rec.WALLETS):
        pos = rec.WALLET_AT + i * rec.ENTRY
        k = d[pos + 2]
        if not k:
            if any(d[pos:end]):  # and none after it
                raise ValueError("records: a wallet with no name")
            break
        name = _check_name(rec, pos, k)
        if not casino or name in seen or rec.u16(pos) > rec.WALLET_MAX:
            raise ValueError("records: a wallet no game leaves")
        seen.append(name)


def _check_name(rec, pos, k):
    """The name of rec's entry at pos, k bytes long: no control character (rules.name_ok),
    then zeros, and UTF-8 (a UnicodeError is a ValueError)."""
    if k > MAX_NAME:
        raise ValueError("records: a name's length")
    d = rec.data
    name = bytes(d[pos + 3:pos + 3 + k])
    if not rules.name_ok(name) or any(d[pos + 3 + k:pos + rec.ENTRY]):
        raise ValueError("records: a name's bytes")
    return str(name, "utf-8")


def score_cap(rs):
    """The most a seat can count in the records: Casino's credits won with the largest
    bet (the whole pot of six, and every box paying twice the bet), else max_total."""
    if rs.casino:
        return rules.BETS[-1] * (rules.MAX_SEATS + 2 * rs.nboxes)
    return max_total(rs)


def _unpack_old(rec, data):
    """Formats 1 and 2: games, the best and its name per rule set, into rec; returns the
    position after them."""
    pos = 3
    for r in range(rules.COUNT):
        if pos + 5 > len(data):
            raise ValueError("records truncated")
        games = data[pos] | data[pos + 1] << 8
        best = data[pos + 2] | data[pos + 3] << 8
        n = data[pos + 4]
        if n > MAX_NAME or pos + 5 + n > len(data):
            raise ValueError("records names")
        name = data[pos + 5:pos + 5 + n]
        if (best or n) and not games or best and not n or not rules.name_ok(name):
            raise ValueError("records: a best with no game")
        rec.put16(r * rec.BLOCK, games)
        if best:
            rs = rules.RULESETS[r]  # (builds only played ones)
            if best > max_total(rs):
                raise ValueError("records: a best no card makes")
            if not rs.casino:
                rec.enter(r, best, str(name, "utf-8"))
        pos += 5 + n
    return pos


def _check(rec, r):
    """ValueError unless rule set r's records could have come from real games."""
    base = r * rec.BLOCK
    games = rec.games(r)
    n = rec.u16(base + 2)
    d = rec.data
    total = rec.u16(base + 4) | rec.u16(base + 6) << 16
    if n > games * rules.MAX_SEATS or total and not n:
        raise ValueError("records: totals with no game")
    cap = score_cap(rules.RULESETS[r]) if games else 0  # (builds only played ones)
    if total > n * cap:
        raise ValueError("records: a sum no card makes")
    prev = cap
    empty = False
    for i in range(rec.TOP):
        pos = base + 8 + i * rec.ENTRY
        k = d[pos + 2]
        score = rec.u16(pos)
        if not k:
            for j in range(pos, pos + rec.ENTRY):
                if d[j]:
                    raise ValueError("records: a score with no name")
            empty = True
            continue
        if empty or not games:
            raise ValueError("records: a score with no game")
        _check_name(rec, pos, k)
        if score > prev:
            raise ValueError("records: a score no card makes, or out of order")
        prev = score


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
