#!/usr/bin/env python3
"""Serves a folder (default target/web) the way `python3 -m http.server`
does, with the two headers that make a page cross-origin isolated
(Cross-Origin-Opener-Policy: same-origin, Cross-Origin-Embedder-Policy:
require-corp). Isolated, the page may share memory with its Workers, and
Kestrel's Worker stops a search at once on `stop` (crates/web/js/kestrel.js).

    scripts/serve-web.py [--port 8000] [--bind 127.0.0.1] [DIR]

With --port 0 the system picks a free port; the first line printed names
the URL either way.
"""

import argparse
import functools
import http.server


class IsolatingHandler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--bind", default="127.0.0.1")
    parser.add_argument("directory", nargs="?", default="target/web")
    args = parser.parse_args()
    handler = functools.partial(IsolatingHandler, directory=args.directory)
    server = http.server.ThreadingHTTPServer((args.bind, args.port), handler)
    print(f"serving {args.directory} on http://{args.bind}:{server.server_port}/", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
