"""The browser board's budgets, measured in headless Chromium (never asserted in tests):

  load    navigation to the title frame on the canvas (first visit, then warm): < 1 s
  size    the site's bytes gzipped, without Expert's tables (fetched only when a game
          needs one): < 600 KB
  cpu     the longest loop pass (one Runner.step) while CPUs think, in a demo game:
          < 16 ms, so the page keeps 60 frames a second; and the frames it drew. On a
          busy machine the page's wall clock counts time the browser was not running,
          so the same demo game is also timed in Node by CPU time (process.cpuUsage)

    python tools/web/bench_web.py      (`make bench-web`; `make bench` runs it too)

Builds the site with Expert's tables if `make tables` made them, serves it on a free
port of 127.0.0.1, writes build/bench_web.json.
"""

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tools/, for paths
import paths

import build_site
import npm
import serve

ROOT = paths.ROOT
DRIVERS = paths.RIGS  # node_run.mjs: the port in Node; browser_check.mjs: the page
SITE = ROOT / "build" / "web-bench"
CHROMIUM = Path("/usr/bin/chromium")


def gzipped(site):
    """{file: gzipped bytes} of the site without its tables."""
    return {str(f.relative_to(site)): len(gzip.compress(f.read_bytes(), 9))
            for f in sorted(site.rglob("*")) if f.is_file() and "tables" not in f.parts}


# A whole demo game (every seat a CPU, Expert's table if built) on the port in Node, each
# Runner.step timed by the process's CPU time.
PASSES = """
import host, board_web, os
from board_sim import Driver
from picoyacht import buttons as K
board = board_web.start(host, 11, 0)
d = Driver(board, board.runner)
d.run_ms(50)
d.press(K.B_DOWN)
d.press(K.B_DOWN)
d.press(K.B_OK)
if board.wanted:
    for name in board.wanted.split():
        if name in TABLES:
            with open("/tables/" + name, "wb") as f:
                f.write(open("/lib/" + name, "rb").read())
            break
    board.table_ready()
times = []
while not (board.app.turn.game and board.app.turn.game.over) and len(times) < 200000:
    t0 = host.cpu_us()
    board.runner.step()
    times.append(host.cpu_us() - t0)
times.sort()
print("PASSES", len(times), times[-1], times[len(times) * 99 // 100], times[len(times) // 2],
      sum(1 for t in times if t > 16000), board.app.turn.game.over)
"""


def passes_in_node():
    """{passes, max_us, p99_us, median_us, over_16ms, ended} of a demo game in Node."""
    tables = sorted((SITE / "tables").glob("*.bin"))
    src = "TABLES = %r\n" % [t.name for t in tables] + PASSES
    script = ROOT / "build" / "web-bench-passes.py"
    script.write_text(src)
    cmd = ["node", str(DRIVERS / "node_run.mjs"), str(SITE)]
    for t in tables:
        cmd += ["--file", str(t)]
    r = subprocess.run(cmd + ["--", str(script)], capture_output=True, text=True, timeout=900)
    line = [x for x in r.stdout.splitlines() if x.startswith("PASSES ")]
    if not line:
        return {"error": (r.stdout + r.stderr)[-1000:]}
    f = line[0].split()
    return {"passes": int(f[1]), "max_us": int(f[2]), "p99_us": int(f[3]),
            "median_us": int(f[4]), "over_16ms": int(f[5]), "ended": f[6] == "True"}


def main():
    build_site.build(SITE, tables=True)
    sizes = gzipped(SITE)
    rep = {"load_average": os.getloadavg(), "gzipped": sizes, "gzipped_total": sum(sizes.values()),
           "tables": json.loads((SITE / "tables.json").read_text())}
    rep["node_passes"] = passes_in_node()
    if not CHROMIUM.exists():
        rep["browser"] = "skipped: %s is not installed (apt-get install chromium)" % CHROMIUM
    else:
        server, url = serve.start(SITE)
        try:
            r = subprocess.run(["node", str(DRIVERS / "browser_check.mjs"),
                                str(npm.modules()), url, "bench"],
                               capture_output=True, text=True, timeout=600)
        finally:
            server.shutdown()
        if r.returncode:
            sys.exit(r.stdout[-2000:] + r.stderr[-2000:])
        rep["browser"] = json.loads(r.stdout.splitlines()[-1])
    (ROOT / "build" / "bench_web.json").write_text(json.dumps(rep, indent=1))
    table(rep)


def table(rep):
    print("The page (tools/web/bench_web.py, headless Chromium; load average %.1f when run)"
          % rep["load_average"][0])
    print("  site gzipped, without Expert's tables   %6.1f KB   (budget 600 KB)" % (
        rep["gzipped_total"] / 1024))
    for name, n in sorted(rep["gzipped"].items(), key=lambda x: -x[1])[:4]:
        print("      %-34s %6.1f KB" % (name, n / 1024))
    print("  Expert's tables (fetched when needed)    %s" % (
        ", ".join("%s %d KB" % (k, v // 1024) for k, v in rep["tables"].items()) or "none built"))
    n = rep["node_passes"]
    if "error" in n:
        print("  demo game in Node: " + n["error"])
    else:
        print("  loop passes of a demo game, CPU time     max %.1f ms, p99 %.1f, median %.2f; "
              "%d of %d over 16 ms%s" % (n["max_us"] / 1000, n["p99_us"] / 1000,
                                         n["median_us"] / 1000, n["over_16ms"], n["passes"],
                                         "" if n["ended"] else " (game unfinished)"))
    b = rep["browser"]
    if isinstance(b, str):
        print("  " + b)
        return
    loads = b["loads"]
    print("  load to the title frame                  first %.0f ms, warm %.0f-%.0f ms"
          "   (budget 1000 ms)" % (loads[0], min(loads[1:]), max(loads[1:])))
    print("  longest loop pass, CPUs thinking         %.1f ms   (budget 16 ms; per half "
          "second: %s)" % (max(b["longestUs"]) / 1000,
                           " ".join("%.1f" % (u / 1000) for u in b["longestUs"])))
    print("  frames drawn meanwhile                   %.0f a second  (on %s, turn %s)" % (
        b["fps"], b["screen"], (b["game"] or {}).get("turn")))


if __name__ == "__main__":
    main()
