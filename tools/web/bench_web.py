"""The browser board's budgets, measured in headless Chromium (never asserted in tests):

  load    navigation to the title frame on the canvas (first visit, then warm): < 1 s
  size    the site's bytes gzipped, without Expert's tables (fetched only when a game
          needs one): < 600 KB
  cpu     the longest loop pass (one Runner.step) while CPUs think, in a demo game:
          < 16 ms, so the page keeps 60 frames a second; and the frames it drew

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

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SITE = ROOT / "build" / "web-bench"
CHROMIUM = Path("/usr/bin/chromium")
sys.path.insert(0, str(HERE))

import build_site  # noqa: E402
import npm  # noqa: E402
import serve  # noqa: E402


def gzipped(site):
    """{file: gzipped bytes} of the site without its tables."""
    return {str(f.relative_to(site)): len(gzip.compress(f.read_bytes(), 9))
            for f in sorted(site.rglob("*")) if f.is_file() and "tables" not in f.parts}


def main():
    build_site.build(SITE, tables=True)
    sizes = gzipped(SITE)
    rep = {"load_average": os.getloadavg(), "gzipped": sizes, "gzipped_total": sum(sizes.values()),
           "tables": json.loads((SITE / "tables.json").read_text())}
    if not CHROMIUM.exists():
        rep["browser"] = "skipped: %s is not installed (apt-get install chromium)" % CHROMIUM
    else:
        server, url = serve.start(SITE)
        try:
            r = subprocess.run(["node", str(HERE / "browser_check.mjs"),
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
