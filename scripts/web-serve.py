#!/usr/bin/env python3
"""Serves the browser page (target/web) on 127.0.0.1 with the headers that make it
cross-origin isolated (COOP same-origin, COEP require-corp), so the page can share
memory with its engine worker: the stop flag, and threads where the build has them.
Also used by scripts/web-test.py. Standard library only."""

import argparse
import functools
import http.server
import sys


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".webmanifest": "application/manifest+json",
        ".svg": "image/svg+xml",
    }
    isolate = True

    def end_headers(self):
        if self.isolate:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, fmt, *args):
        if self.server.verbose:
            super().log_message(fmt, *args)


def make_server(site, port, isolate=True, verbose=False):
    handler = functools.partial(Handler, directory=site)
    Handler.isolate = isolate
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    server.verbose = verbose
    return server


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--site", default="target/web")
    ap.add_argument("--port", type=int, default=8230)
    ap.add_argument("--no-isolation", action="store_true",
                    help="leave out COOP/COEP (the page then stops its engine by ending the worker)")
    args = ap.parse_args()
    server = make_server(args.site, args.port, not args.no_isolation, verbose=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        sys.exit(0)


if __name__ == "__main__":
    main()
