#!/usr/bin/env python3
"""Times many tiny searches over UCI: the wall time of N `go depth 1`
commands (each sent once the previous `bestmove` has arrived), for two
builds, at each thread count asked for, alternating the builds; prints
each one's median time per `go` and their ratio (new / old).

    python3 bench/go_latency.py OLD_BINARY NEW_BINARY [--gos 1000] [--rounds 5] [--threads 1 2]

A depth-1 search takes a few microseconds, so what is measured is the
cost around it: the protocol round trip, and whatever the engine does to
start and end a search (before the persistent thread pool, a thread start
with a 64 MiB stack per `go`, plus one per helper thread). Each round
starts a fresh engine per build, sets `Threads`, warms up with a few
searches, then times the `go`s; alternating the builds spreads any load on
the machine over both, and the median over rounds drops a disturbed one.
"""
import argparse
import os
import statistics
import subprocess
import time


class Engine:
    """A UCI engine on pipes."""

    def __init__(self, binary):
        self.proc = subprocess.Popen(
            [binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"the engine ended before '{prefix}'")
            if line.startswith(prefix):
                return line

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=30)


def seconds_for(binary, threads, gos, warmup=20):
    """Wall time of `gos` searches at depth 1, one after another."""
    e = Engine(binary)
    e.send("uci")
    e.until("uciok")
    e.send(f"setoption name Threads value {threads}")
    e.send("ucinewgame")
    e.send("position startpos")
    e.send("isready")
    e.until("readyok")
    for _ in range(warmup):
        e.send("go depth 1")
        e.until("bestmove")
    start = time.perf_counter()
    for _ in range(gos):
        e.send("go depth 1")
        e.until("bestmove")
    elapsed = time.perf_counter() - start
    e.close()
    return elapsed


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--gos", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    args = ap.parse_args()
    for threads in args.threads:
        times = {"old": [], "new": []}
        for i in range(args.rounds):
            for name in ("old", "new") if i % 2 == 0 else ("new", "old"):
                times[name].append(seconds_for(getattr(args, name), threads, args.gos))
        load = os.getloadavg()[0]
        print(f"Threads={threads}, {args.gos} x go depth 1, {args.rounds} rounds:")
        for name in ("old", "new"):
            med = statistics.median(times[name])
            runs = ", ".join(f"{t:.3f}" for t in times[name])
            print(f"  {name}: median {med:.3f} s = {med / args.gos * 1e6:.0f} us per go (runs {runs} s)")
        ratio = statistics.median(times["new"]) / statistics.median(times["old"])
        print(f"  ratio new/old: {ratio:.3f} (load average {load:.2f} at the end)")


if __name__ == "__main__":
    main()
