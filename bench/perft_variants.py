#!/usr/bin/env python3
"""Which way of walking the tree, and which slider lookup, is faster?

Builds Kestrel twice (the default, which uses PEXT where the CPU has BMI2,
and one with `--features chess/magic` for magic bitboards) and times perft
with make/unmake (the default) and copy-make (`--copy-make`), in one run,
fastest of --repeat runs each. The decision recorded in docs/measurements.md and in
`crates/chess/src/make.rs` comes from this script.

Usage: bench/perft_variants.py [--repeat 5]
"""

import argparse
import os
import re
import subprocess
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
CASES = [
    ("startpos", None, 6),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5),
]


def build(features, target_dir):
    cmd = ["cargo", "build", "--release", "--quiet", "--target-dir", target_dir]
    if features:
        cmd += ["--features", features]
    subprocess.run(cmd, cwd=ROOT, check=True)
    return os.path.join(target_dir, "release", "kestrel")


def run(binary, fen, depth, extra):
    cmd = [binary, "perft", str(depth)] + (["--fen", fen] if fen else []) + extra
    start = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    elapsed = time.perf_counter() - start
    nodes = int(re.search(r"Nodes searched: (\d+)", out.stdout).group(1))
    return nodes, elapsed


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    binaries = {
        "pext": build(None, os.path.join(ROOT, "target")),
        "magic": build("chess/magic", os.path.join(ROOT, "target", "magic")),
    }
    variants = [(lookup, walk) for lookup in binaries for walk in ("copy-make", "make-unmake")]
    print("%-10s %-6s %-12s %14s" % ("position", "lookup", "walk", "nodes/s"))
    for name, fen, depth in CASES:
        best = {}
        for _ in range(args.repeat):
            for lookup, walk in variants:
                extra = ["--copy-make"] if walk == "copy-make" else []
                nodes, secs = run(binaries[lookup], fen, depth, extra)
                key = (lookup, walk)
                best[key] = min(best.get(key, secs), secs)
        for (lookup, walk), secs in best.items():
            print("%-10s %-6s %-12s %14.0f" % (name, lookup, walk, nodes / secs))


if __name__ == "__main__":
    main()
