"""Serve a built site (build/web) on 127.0.0.1 for `make web`, the browser tests and the
bench: module scripts and WebAssembly must come over http, not file://.

    python tools/web/serve.py [--dir build/web] [--port 8000] [--build-tables]

Port 0 picks a free one. Any static host serves the same folder (see the README).
--build-tables: a table the page asks for that the site lacks is built then (into the
tables/ cache, its progress in words on this terminal) and served; `make web` so builds
only the tables the games played need, when they first need them.
"""

import argparse
import functools
import http.server
import shutil
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tools/, for paths
from paths import ROOT

TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
         ".bin": "application/octet-stream", ".json": "application/json",
         ".webmanifest": "application/manifest+json", ".txt": "text/plain; charset=utf-8"}


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}
    tables = None  # the cache a table the site lacks is built into (None: build none)

    def do_GET(self):  # noqa: N802 (http.server's name)
        if self.tables is not None and self.path.startswith("/tables/"):
            bring_table(Path(self.directory), self.path[len("/tables/"):], self.tables)
        super().do_GET()

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")  # a rebuilt site shows at once
        super().end_headers()

    def copyfile(self, source, outputfile):
        try:
            super().copyfile(source, outputfile)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the browser moved on (a reload) before the file was sent

    def log_message(self, fmt, *args):
        pass  # quiet: the page is the interface


_BUILDING = threading.Lock()  # one build at a time: two requests for a table build it once


def bring_table(site, file, cache):
    """Puts tables/<file> into the site, building it into `cache` first if it is not
    there (or stale)."""
    import build_tables

    if (site / "tables" / file).exists():
        return
    with _BUILDING:
        path = build_tables.provide(file, cache, out=sys.stdout)
        if path is not None:
            (site / "tables").mkdir(exist_ok=True)
            shutil.copyfile(path, site / "tables" / file)


def start(directory, port=0, tables=None):
    """A server thread for `directory` on 127.0.0.1; returns (server, url). tables: the
    cache to build a table the page asks for into, when the site lacks it."""
    handler = functools.partial(type("Handler", (Handler,), {"tables": tables}),
                                directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, "http://127.0.0.1:%d/" % server.server_address[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", default=str(ROOT / "build" / "web"))
    ap.add_argument("--port", type=int, default=8000)
    ap.add_argument("--build-tables", action="store_true",
                    help="build a table the page asks for when the site lacks it")
    args = ap.parse_args()
    if not (Path(args.dir) / "index.html").exists():
        raise SystemExit("no site in %s: run `make web` (or tools/web/build_site.py)" % args.dir)
    server, url = start(args.dir, args.port, ROOT / "tables" if args.build_tables else None)
    print("PicoYacht in your browser: %s  (Ctrl-C stops)" % url, flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.shutdown()


if __name__ == "__main__":
    main()
