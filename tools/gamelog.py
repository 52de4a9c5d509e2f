"""Score history from PicoYacht's game log: a CSV (one row per scored box) and a PNG plot.

The handheld prints one JSON line per scored box and per game end on its USB serial console
(picoyacht/gamelog.py). Capture it with any serial terminal, or let this tool run mpremote:

    python tools/gamelog.py LOG.txt [--csv out.csv] [--png out.png] [--game N]
    python tools/gamelog.py --live [--port /dev/ttyACM0] [--raw LOG.txt]   (Ctrl-C: stop)

Lines that are not JSON (the REPL banner, tracebacks, other prints) are skipped. An "undo"
line drops the box it took back. The plot shows each player's running total after each of
their turns; several games in one log are all plotted (or one, with --game). The PNG is
written with zlib + struct only, its labels in the firmware's own 5x7 font.
"""

import argparse
import csv
import json
import struct
import subprocess
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "firmware"))
sys.path.append(str(ROOT / "tools" / "hostlib"))  # micropython.const off the device

from flash import mpremote_cmd  # noqa: E402

from picoyacht import font  # noqa: E402

FIELDS = ("game", "rules", "seed", "turn", "round", "seat", "player", "box", "dice", "score",
          "bonus", "total")
PALETTE = ((31, 119, 180), (214, 39, 40), (44, 160, 44), (255, 127, 14), (148, 103, 189),
           (23, 190, 207), (140, 86, 75), (227, 119, 194))
WHITE = (255, 255, 255)
INK = (40, 40, 40)
GRID = (225, 225, 225)
AXIS = (120, 120, 120)


# ---------------------------------------------------------------- reading the log
def events(lines):
    """The JSON objects with an "ev" key, in order; anything else is skipped."""
    for line in lines:
        i = line.find("{")
        if i < 0:
            continue
        try:
            obj = json.loads(line[i:].strip())
        except ValueError:
            continue
        if isinstance(obj, dict) and "ev" in obj:
            yield obj


class Game:
    def __init__(self, number, rules, seed, players=None):
        self.number = number
        self.rules = rules
        self.seed = seed
        self.players = list(players or [])
        self.rows = []
        self.ended = False
        self.totals = None
        self.winners = None


def games(lines):
    """The games in a log, each with its scored boxes (as CSV row dicts) in order."""
    out = []
    cur = None
    for ev in events(lines):
        kind = ev["ev"]
        if kind == "start" or (kind in ("score", "box", "end") and (
                cur is None or cur.ended or (cur.rules, cur.seed) != (ev.get("rules"),
                                                                      ev.get("seed")))):
            players = ev.get("players") if isinstance(ev.get("players"), list) else None
            cur = Game(len(out) + 1, ev.get("rules", "?"), ev.get("seed", 0), players)
            out.append(cur)
            if kind == "start":
                continue
        if kind in ("score", "box"):
            seat = int(ev.get("seat", 0))
            name = str(ev.get("player", "seat %d" % seat))
            while len(cur.players) <= seat:
                cur.players.append("seat %d" % len(cur.players))
            cur.players[seat] = name
            rnd = 1 + sum(1 for r in cur.rows if r["seat"] == seat)
            cur.rows.append({"game": cur.number, "rules": cur.rules, "seed": cur.seed,
                             "turn": int(ev.get("turn", len(cur.rows))), "round": rnd,
                             "seat": seat, "player": name, "box": ev.get("box", "?"),
                             "dice": " ".join(str(d) for d in ev.get("dice", [])),
                             "score": int(ev.get("score", 0)), "bonus": int(ev.get("bonus", 0)),
                             "total": int(ev.get("total", 0))})
        elif kind == "undo" and cur is not None and ev.get("seed") == cur.seed:
            for i in range(len(cur.rows) - 1, -1, -1):
                if cur.rows[i]["turn"] == ev.get("turn"):
                    del cur.rows[i]
                    break
        elif kind == "end":
            cur.ended = True
            cur.totals = ev.get("totals")
            cur.winners = ev.get("winners")
            if isinstance(ev.get("players"), list):
                cur.players = list(ev["players"])
    return [g for g in out if g.rows]


def write_csv(path, gs):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        for g in gs:
            for r in g.rows:
                w.writerow(r)


# ---------------------------------------------------------------- PNG
def encode_png(width, height, rgb):
    """An 8-bit RGB PNG from width*height*3 bytes, rows top to bottom."""
    stride = width * 3
    raw = b"".join(b"\x00" + bytes(rgb[y * stride:(y + 1) * stride]) for y in range(height))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw, 9))
            + chunk(b"IEND", b""))


class Image:
    def __init__(self, w, h, bg=WHITE):
        self.w = w
        self.h = h
        self.px = bytearray(bytes(bg) * (w * h))

    def set(self, x, y, c):
        if 0 <= x < self.w and 0 <= y < self.h:
            i = (y * self.w + x) * 3
            self.px[i:i + 3] = bytes(c)

    def rect(self, x, y, w, h, c):
        for yy in range(y, y + h):
            for xx in range(x, x + w):
                self.set(xx, yy, c)

    def line(self, x0, y0, x1, y1, c, width=2):
        """Bresenham, each step stamped as a width x width square."""
        dx, dy = abs(x1 - x0), -abs(y1 - y0)
        sx = 1 if x0 < x1 else -1
        sy = 1 if y0 < y1 else -1
        err = dx + dy
        off = width // 2
        while True:
            self.rect(x0 - off, y0 - off, width, width, c)
            if x0 == x1 and y0 == y1:
                return
            e2 = 2 * err
            if e2 >= dy:
                err += dy
                x0 += sx
            if e2 <= dx:
                err += dx
                y0 += sy

    def text(self, s, x, y, c=INK, scale=1):
        """The firmware's 5x7 font (8 rows with descenders); returns the x after it."""
        g = font.GLYPHS
        for ch in s:
            code = ord(ch)
            if code > 127:
                code = 63
            for col in range(5):
                bits = g[code * 5 + col]
                for row in range(8):
                    if bits >> row & 1:
                        self.rect(x + col * scale, y + row * scale, scale, scale, c)
            x += font.CELL * scale
        return x

    def png(self):
        return encode_png(self.w, self.h, self.px)


def _nice_step(top):
    for step in (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        if top / step <= 8:
            return step
    return 10000


def plot(gs, width=720, height=420):
    """Running total after each turn, one line per player (per game)."""
    img = Image(width, height)
    left, right, top, bottom = 64, width - 190, 44, height - 46
    series = []
    colours = {}
    for g in gs:
        for seat, name in enumerate(g.players):
            pts = [(0, 0)] + [(r["round"], r["total"]) for r in g.rows if r["seat"] == seat]
            if len(pts) == 1:
                continue
            colour = colours.setdefault(name, PALETTE[len(colours) % len(PALETTE)])
            label = name if len(gs) == 1 else "%s g%d" % (name, g.number)
            series.append((label, colour, pts))
    xmax = max([p[0] for _, _, pts in series for p in pts] + [1])
    ymax_data = max([p[1] for _, _, pts in series for p in pts] + [1])
    step = _nice_step(ymax_data)
    ymax = -(-ymax_data // step) * step

    def px(x, y):
        return (left + round(x * (right - left) / xmax),
                bottom - round(y * (bottom - top) / ymax))

    title = "%s, seed %s" % (gs[0].rules, gs[0].seed) if len(gs) == 1 else \
        "%d games" % len(gs)
    img.text("Score history: " + title, left, 12, INK, 2)
    for v in range(0, ymax + 1, step):
        _, y = px(0, v)
        for x in range(left, right + 1):
            img.set(x, y, GRID)
        s = str(v)
        img.text(s, left - 8 - font.CELL * len(s), y - 3, AXIS)
    xstep = 1 if xmax <= 16 else (2 if xmax <= 32 else 5)
    for v in range(0, xmax + 1, xstep):
        x, _ = px(v, 0)
        for y in range(bottom, bottom + 5):
            img.set(x, y, AXIS)
        s = str(v)
        img.text(s, x - (font.CELL * len(s)) // 2, bottom + 8, AXIS)
    img.text("turn (boxes filled)", (left + right) // 2 - 57, bottom + 24, AXIS)
    img.line(left, top, left, bottom, AXIS, 1)
    img.line(left, bottom, right, bottom, AXIS, 1)
    for _label, colour, pts in series:
        for (x0, y0), (x1, y1) in zip(pts, pts[1:], strict=False):
            a, b = px(x0, y0), px(x1, y1)
            img.line(a[0], a[1], b[0], b[1], colour, 2)
        for x, y in pts[1:]:
            cx, cy = px(x, y)
            img.rect(cx - 2, cy - 2, 5, 5, colour)
    ly = top
    for label, colour, pts in series:
        img.rect(right + 16, ly + 1, 14, 8, colour)
        img.text("%s %d" % (label, pts[-1][1]), right + 36, ly + 1, INK)
        ly += 16
    return img.png()


# ---------------------------------------------------------------- live capture
def live_lines(port=None, raw=None, echo=True):
    """Lines from the board's console through `mpremote repl`, until Ctrl-C or EOF.
    The keyboard stays with mpremote (Ctrl-] or Ctrl-X also ends it)."""
    cmd = mpremote_cmd() + (["connect", port] if port else []) + ["repl"]
    out = open(raw, "a") if raw else None
    lines = []
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE)
    except FileNotFoundError:
        raise SystemExit("gamelog: mpremote is not installed (run `make test` to set up"
                         " .venv, or set PICOYACHT_MPREMOTE)") from None
    try:
        for b in proc.stdout:
            line = b.decode("utf-8", "replace").rstrip("\r\n")
            lines.append(line)
            if echo:
                print(line, flush=True)
            if out:
                out.write(line + "\n")
                out.flush()
    except KeyboardInterrupt:
        pass
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=5)
        if out:
            out.close()
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("log", nargs="?", help="captured console log (omit with --live)")
    ap.add_argument("--live", action="store_true", help="read the board through mpremote")
    ap.add_argument("--port", help="serial port for --live (default: mpremote's auto)")
    ap.add_argument("--raw", help="with --live: also append the raw console lines here")
    ap.add_argument("--csv", default="build/gamelog.csv", help="CSV to write")
    ap.add_argument("--png", default="build/gamelog.png", help="PNG plot to write")
    ap.add_argument("--game", type=int, help="only game N (1 = first in the log)")
    args = ap.parse_args(argv)
    if args.live:
        lines = live_lines(args.port, args.raw)
    elif args.log:
        with open(args.log, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    else:
        ap.error("give a log file, or --live")
    gs = games(lines)
    if args.game:
        gs = [g for g in gs if g.number == args.game]
    if not gs:
        print("gamelog: no scored boxes found", file=sys.stderr)
        return 1
    for path in (args.csv, args.png):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    write_csv(args.csv, gs)
    Path(args.png).write_bytes(plot(gs))
    rows = sum(len(g.rows) for g in gs)
    print("%d game(s), %d scored boxes -> %s, %s" % (len(gs), rows, args.csv, args.png))
    return 0


if __name__ == "__main__":
    sys.exit(main())
