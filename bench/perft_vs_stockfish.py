#!/usr/bin/env python3
"""Perft speed: Kestrel against Stockfish, measured in the same run.

Both engines are driven the same way, over UCI: `position fen F`, `isready`,
then the clock runs from `go perft D` until `Nodes searched`. Each case runs
--repeat times per engine, alternating engines, and the fastest run counts
(the machine is shared and noisy; the minimum is the least disturbed run).
Prints nodes/s of both and the ratio Kestrel/Stockfish (>= 1.0: Kestrel is
faster). Also times Kestrel's start-up: launch to `uciok`.

Usage: bench/perft_vs_stockfish.py [--kestrel target/release/kestrel]
                                   [--stockfish stockfish] [--repeat 5]
Build first: cargo build --release
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

CASES = [
    ("startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5),
]


class Engine:
    def __init__(self, argv):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.send("uci")
        self.wait_for("uciok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, prefix):
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("engine exited; output so far: %r" % lines[-5:])
            lines.append(line.strip())
            if line.strip().startswith(prefix):
                return line.strip()

    def perft(self, fen, depth):
        self.send("position fen " + fen)
        self.send("isready")
        self.wait_for("readyok")
        start = time.perf_counter()
        self.send("go perft %d" % depth)
        line = self.wait_for("Nodes searched")
        elapsed = time.perf_counter() - start
        return int(line.split(":")[1]), elapsed

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


def startup_ms(argv, runs=20):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        p.stdin.write("uci\n")
        p.stdin.flush()
        for line in p.stdout:
            if line.strip() == "uciok":
                break
        times.append((time.perf_counter() - start) * 1000)
        p.stdin.write("quit\n")
        p.stdin.flush()
        p.wait()
    return min(times), statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--kestrel", default=os.path.join(here, "..", "target", "release", "kestrel"))
    ap.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    for path in (args.kestrel, args.stockfish):
        if not (os.path.exists(path) or shutil.which(path)):
            sys.exit("not found: %s (build with 'cargo build --release'; apt-get install stockfish)" % path)

    engines = {"kestrel": Engine([args.kestrel]), "stockfish": Engine([args.stockfish])}
    results = []
    try:
        for name, fen, depth in CASES:
            best = {}
            for _ in range(args.repeat):
                for label, engine in engines.items():
                    nodes, secs = engine.perft(fen, depth)
                    if label not in best or secs < best[label][1]:
                        best[label] = (nodes, secs)
            if best["kestrel"][0] != best["stockfish"][0]:
                sys.exit("node counts differ on %s: %s" % (name, best))
            nps = {k: v[0] / v[1] for k, v in best.items()}
            ratio = nps["kestrel"] / nps["stockfish"]
            results.append({"case": name, "depth": depth, "nodes": best["kestrel"][0],
                            "kestrel_s": round(best["kestrel"][1], 4),
                            "stockfish_s": round(best["stockfish"][1], 4),
                            "kestrel_nps": round(nps["kestrel"]), "stockfish_nps": round(nps["stockfish"]),
                            "ratio": round(ratio, 2)})
    finally:
        for engine in engines.values():
            engine.close()

    print("%-10s %5s %12s %14s %14s %7s" % ("position", "depth", "nodes", "kestrel nps", "stockfish nps", "ratio"))
    for r in results:
        print("%-10s %5d %12d %14.0f %14.0f %7.2f" % (r["case"], r["depth"], r["nodes"], r["kestrel_nps"],
                                                     r["stockfish_nps"], r["ratio"]))
    best_ms, median_ms = startup_ms([args.kestrel])
    print("kestrel start-up to uciok: %.1f ms best, %.1f ms median" % (best_ms, median_ms))
    print(json.dumps({"perft": results, "startup_ms": {"best": round(best_ms, 1), "median": round(median_ms, 1)}}))


if __name__ == "__main__":
    main()
