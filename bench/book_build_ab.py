#!/usr/bin/env python3
"""Two Kestrel builds' book building, timed alternately on the same games.

Runs `kestrel book build` of each binary in turn, every-ply (--max-ply 1000
--min-games 3, like GNU Chess) and with the defaults (30 plies), --repeat
times, and prints the fastest run of each (the least disturbed one on a
shared machine). Alternating puts both builds under the same load.

Usage: bench/book_build_ab.py BEFORE AFTER [--pgn FILE] [--repeat 7]
(default games: ../shared/data/pgn/masters/*.pgn, concatenated)
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

from masters_pgn import one_pgn

CONFIGS = {
    "every ply": ["--max-ply", "1000", "--min-games", "3"],
    "30 plies (defaults)": [],
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--pgn", help="one PGN file (default: the master games)")
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        pgn = one_pgn(tmp, args.pgn)
        book = os.path.join(tmp, "book.bin")
        best = {}
        for _ in range(args.repeat):
            for config, extra in CONFIGS.items():
                for name in ("before", "after"):
                    argv = [getattr(args, name), "book", "build", "--quiet",
                            "--pgn", pgn, "--out", book] + extra
                    start = time.perf_counter()
                    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
                    secs = time.perf_counter() - start
                    key = (config, name)
                    best[key] = min(best.get(key, secs), secs)
    print(f"load average {os.getloadavg()[0]:.2f}; best of {args.repeat}, seconds")
    for config in CONFIGS:
        b, a = best[(config, "before")], best[(config, "after")]
        print(f"{config:22} before {b:.3f}  after {a:.3f}  ({(a / b - 1) * 100:+.0f} %)")


if __name__ == "__main__":
    main()
