#!/usr/bin/env python3
"""Times `kestrel bench` of two builds in one run, alternating, and prints
each one's median nodes per second and their ratio (new / old).

    python3 bench/nps_ab.py OLD_BINARY NEW_BINARY [--runs 7]
        [--old-args "..."] [--new-args "..."]

`--old-args` / `--new-args` are added to each side's `bench` command line,
e.g. `--new-args "--evaluator full"` to compare a build from before the
network with today's build on the same (hand-crafted) evaluation.

Alternating the two binaries spreads any load on the machine over both; the
median of each side drops the odd disturbed run. The node counts are printed
too: a pure speed change leaves them equal.
"""
import argparse
import os
import shlex
import statistics
import subprocess


def bench(binary, extra):
    out = subprocess.run([binary, "bench", *extra], capture_output=True, text=True, check=True)
    last = out.stdout.strip().splitlines()[-1].split()
    # The last line reads `N nodes M nps`.
    return int(last[0]), int(last[2])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--old-args", default="", help="extra arguments to the old build's bench")
    ap.add_argument("--new-args", default="", help="extra arguments to the new build's bench")
    args = ap.parse_args()
    nps = {"old": [], "new": []}
    nodes = {}
    for i in range(args.runs):
        for name in ("old", "new") if i % 2 == 0 else ("new", "old"):
            extra = shlex.split(getattr(args, f"{name}_args"))
            n, speed = bench(getattr(args, name), extra)
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
