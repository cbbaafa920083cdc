#!/usr/bin/env python3
"""Times `kestrel bench` of two builds in one run, alternating, and prints
each one's median nodes per second and their ratio (new / old).

    python3 bench/nps_ab.py OLD_BINARY NEW_BINARY [--runs 7]

Alternating the two binaries spreads any load on the machine over both; the
median of each side drops the odd disturbed run. The node counts are printed
too: a pure speed change leaves them equal.
"""
import argparse
import os
import statistics
import subprocess


def bench(binary):
    out = subprocess.run([binary, "bench"], capture_output=True, text=True, check=True)
    last = out.stdout.strip().splitlines()[-1].split()
    # The last line reads `N nodes M nps`.
    return int(last[0]), int(last[2])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    nps = {"old": [], "new": []}
    nodes = {}
    for i in range(args.runs):
        for name in ("old", "new") if i % 2 == 0 else ("new", "old"):
            n, speed = bench(getattr(args, name))
            nodes[name] = n
            nps[name].append(speed)
    load = os.getloadavg()[0]
    for name in ("old", "new"):
        print(f"{name}: {nodes[name]} nodes, median {statistics.median(nps[name]):,.0f} nps "
              f"(runs {', '.join(f'{v:,}' for v in nps[name])})")
    ratio = statistics.median(nps["new"]) / statistics.median(nps["old"])
    print(f"ratio new/old: {ratio:.3f} (load average {load:.2f} at the end)")


if __name__ == "__main__":
    main()
