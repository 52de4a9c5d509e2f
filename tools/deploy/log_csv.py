"""Score history from PicoYacht's game log: a CSV, one row per scored box.

The handheld prints one JSON line per scored box and per game end on its USB serial console
(picoyacht/gamelog.py). Capture it with any serial terminal, or let this tool run mpremote:

    python tools/deploy/log_csv.py LOG.txt [--csv out.csv] [--game N]
    python tools/deploy/log_csv.py --live [--port /dev/ttyACM0] [--raw LOG.txt]   (Ctrl-C: stop)

Lines that are not JSON (the REPL banner, tracebacks, other prints) are skipped. An "undo"
line drops the box it took back. Each row carries the player's running total, so any
spreadsheet plots the game; several games in one log are all written (or one, with --game).
"""

import argparse
import csv
import json
import subprocess
import sys
from pathlib import Path

from flash import mpremote_cmd  # this folder's: the first entry of sys.path

FIELDS = ("game", "rules", "seed", "turn", "round", "seat", "player", "box", "dice", "score",
          "bonus", "total")


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


def live_lines(port=None, raw=None, echo=True):
    """Lines from the board's console through `mpremote repl`, until Ctrl-C or EOF.
    The keyboard stays with mpremote (Ctrl-] or Ctrl-X also ends it)."""
    cmd = mpremote_cmd() + (["connect", port] if port else []) + ["repl"]
    out = open(raw, "a") if raw else None
    lines = []
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE)
    except FileNotFoundError:
        raise SystemExit("log_csv: mpremote is not installed (run `make test` to set up"
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
        print("log_csv: no scored boxes found", file=sys.stderr)
        return 1
    Path(args.csv).parent.mkdir(parents=True, exist_ok=True)
    write_csv(args.csv, gs)
    rows = sum(len(g.rows) for g in gs)
    print("%d game(s), %d scored boxes -> %s" % (len(gs), rows, args.csv))
    return 0


if __name__ == "__main__":
    sys.exit(main())
