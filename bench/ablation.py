#!/usr/bin/env python3
"""Ablation: what each search technique is worth in nodes and time.

For every on/off search option Kestrel lists (read from its `uci` output, so
the list never goes stale), runs `kestrel bench DEPTH` with the option
flipped from its default, and compares nodes and time with the default
configuration, as the seed programs measured (TT 68 s -> 41 s, null move
134 s -> 41 s). Prints a Markdown table; time is the fastest of --repeat runs.
Fewer nodes to the same depth is not the same as more strength (pruning
trades accuracy for depth): matches measure that.

Usage: bench/ablation.py [--depth 11] [--repeat 1] [--kestrel target/release/kestrel]
"""

import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
NOT_SEARCH = {"Ponder", "UCI_Chess960", "OwnBook", "Syzygy50MoveRule"}


def switches(binary):
    out = subprocess.run([binary], input="uci\nquit\n", capture_output=True, text=True, check=True).stdout
    found = []
    for line in out.splitlines():
        m = re.match(r"option name (.+) type check default (true|false)", line)
        if m and m.group(1) not in NOT_SEARCH:
            found.append((m.group(1), m.group(2) == "true"))
    return found


def bench(binary, depth, options, repeat):
    best = None
    for _ in range(repeat):
        cmd = [binary, "bench", str(depth)] + ["--option=%s=%s" % kv for kv in options]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        ms = int(re.search(r"time (\d+) ms", out).group(1))
        nodes = int(re.search(r"(\d+) nodes \d+ nps", out).group(1))
        best = (nodes, ms) if best is None or ms < best[1] else best
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kestrel", default=os.path.join(HERE, "..", "target", "release", "kestrel"))
    ap.add_argument("--depth", type=int, default=11)
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    if not os.path.exists(args.kestrel):
        sys.exit("not found: %s (cargo build --release first)" % args.kestrel)

    base_nodes, base_ms = bench(args.kestrel, args.depth, [], args.repeat)
    print("Bench depth %d, %d positions; default configuration: %d nodes, %d ms.\n" % (args.depth, 50, base_nodes, base_ms))
    print("| technique | flipped to | nodes | nodes vs default | time (ms) | time vs default |")
    print("|---|---|---:|---:|---:|---:|")
    for name, default in switches(args.kestrel):
        flipped = "false" if default else "true"
        nodes, ms = bench(args.kestrel, args.depth, [(name, flipped)], args.repeat)
        print("| %s | %s | %d | %.2fx | %d | %.2fx |" % (name, "off" if default else "on", nodes,
                                                       nodes / base_nodes, ms, ms / max(base_ms, 1)))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
