"""Serve a built site (build/web) on 127.0.0.1 for `make web`, the browser tests and the
bench: module scripts and WebAssembly must come over http, not file://.

    python tools/web/serve.py [--dir build/web] [--port 8000]

Port 0 picks a free one. Any static host serves the same folder (see the README).
"""

import argparse
import functools
import http.server
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
         ".bin": "application/octet-stream", ".json": "application/json",
         ".webmanifest": "application/manifest+json", ".txt": "text/plain; charset=utf-8"}


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}

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


def start(directory, port=0):
    """A server thread for `directory` on 127.0.0.1; returns (server, url)."""
    handler = functools.partial(Handler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, "http://127.0.0.1:%d/" % server.server_address[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", default=str(ROOT / "build" / "web"))
    ap.add_argument("--port", type=int, default=8000)
    args = ap.parse_args()
    if not (Path(args.dir) / "index.html").exists():
        raise SystemExit("no site in %s: run `make web` (or tools/web/build_site.py)" % args.dir)
    server, url = start(args.dir, args.port)
    print("PicoYacht in your browser: %s  (Ctrl-C stops)" % url, flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.shutdown()


if __name__ == "__main__":
    main()
