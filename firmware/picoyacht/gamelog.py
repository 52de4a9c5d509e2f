"""The game log: one JSON line per event, printed on the USB serial console.

    {"ev":"start","rules":..,"seed":..,"players":[names]}
    {"ev":"score","rules":..,"seed":..,"player":..,"seat":..,"turn":..,"round":..,
     "dice":[..],"box":..,"score":..,"bonus":..,"total":..}
    {"ev":"end","rules":..,"seed":..,"players":[names],"totals":[..],"winners":[seats]}

tools/deploy/log_csv.py turns a captured log into a CSV. Lines are built by hand, not with
json.dumps: the key order is then fixed and the text is byte-identical on MicroPython
and CPython (their dicts order keys differently). Names are printable ASCII (game.py makes
them so); quotes and backslashes are escaped anyway, so any string stays valid JSON.
"""


def q(s):
    """A JSON string literal. Names, box and rule names need no escapes: they are copied
    whole (one new string, not one per character: the log is written at every score)."""
    s = str(s)
    for b in s.encode():
        if b < 32 or b == 34 or b == 92:
            break
    else:
        return '"' + s + '"'
    out = []
    for ch in s:
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif ord(ch) < 32:
            out.append("\\u%04x" % ord(ch))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def trace(e):
    """Print where an exception was raised (MicroPython's sys.print_exception) after its
    log line, so a fault on a device can be placed from the serial console."""
    import sys

    show = getattr(sys, "print_exception", None)
    if show is not None:
        show(e)


def _list(items):
    return "[" + ",".join(items) + "]"


def _head(game, ev):
    return '{"ev":"%s","rules":%s,"seed":%d' % (ev, q(game.rs.name), game.seed)


def start_line(game):
    """The game's rule set, seed and players; print it when the first turn begins."""
    return _head(game, "start") + ',"players":' + _list([q(n) for n in game.names]) + "}"


def score_line(game, seat, box, points, dice, bonus=0):
    """One scored box. Call it right after `points = game.score(box)`, with the `dice` and
    `bonus` (game.pending_yahtzee_bonus()) read just before scoring: the turn counter has
    moved on by then, so the turn just played is game.turn - 1, and the running total
    includes this box and every bonus earned so far."""
    turn = game.turn - 1
    return "".join((
        _head(game, "score"), ',"player":', q(game.names[seat]), ',"seat":%d,"turn":%d,"round":%d'
        % (seat, turn, turn // game.nseats + 1), ',"dice":', _list([str(d) for d in dice]),
        ',"box":', q(game.rs.boxes[box][0]), ',"score":%d,"bonus":%d,"total":%d}'
        % (points, bonus, game.total(seat))))


def end_line(game):
    """The final totals and the winning seats (several on a tie)."""
    totals = [str(game.total(s)) for s in range(game.nseats)]
    return (_head(game, "end") + ',"players":' + _list([q(n) for n in game.names])
            + ',"totals":' + _list(totals) + ',"winners":'
            + _list([str(s) for s in game.winners()]) + "}")
