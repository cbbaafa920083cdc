#!/usr/bin/env python3
"""The depth at which an engine first reports each short mate it should see.

    python3 bench/mate_depth.py ENGINE [ENGINE...] [--epd FILE] [--max-depth 14]
        [--option Name=Value ...]

Each position of the EPD file carries `bm #N` (a mate in N moves for the
side to move, as matetrack writes it) or, for WAC lines, `dm N`. The engine
searches it with `go depth MAX` on a fresh hash (one thread, no book), and
the script prints the first iteration whose score is `mate N` or shorter,
against 2N+2, the depth by which a search that prunes soundly near a mate
should prove it (issue 45's bound). With several engines (old and new
binaries, or Kestrel and /usr/games/stockfish) the columns sit side by side.
Depths do not depend on the machine's speed or load.

The default file is crates/engine/tests/data/short_mates.epd, the positions
the engine's test `short_mates_by_depth` pins.
"""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_EPD = os.path.join(HERE, "..", "crates", "engine", "tests", "data", "short_mates.epd")


def positions(path):
    """(fen, mate in N, id) for every line of the EPD file with a mate."""
    out = []
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fields = line.split()
        fen = " ".join(fields[:4]) + " 0 1"
        m = re.search(r"bm #(-?\d+)", line) or re.search(r"dm (\d+)", line)
        if not m:
            continue
        ident = re.search(r'id "([^"]+)"', line)
        out.append((fen, int(m.group(1)), ident.group(1) if ident else fen))
    return out


class Engine:
    def __init__(self, path, options):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        names = set()
        for line in self.lines_until("uciok"):
            m = re.match(r"option name (.+?) type", line)
            if m:
                names.add(m.group(1))
        if "OwnBook" in names:
            self.send("setoption name OwnBook value false")
        for opt in options:
            name, value = opt.split("=", 1)
            if name not in names:
                sys.exit(f"{path} has no option {name!r}")
            self.send(f"setoption name {name} value {value}")

    def send(self, cmd):
        self.p.stdin.write(cmd + "\n")

    def lines_until(self, prefix):
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("engine quit")
            yield line.strip()
            if line.startswith(prefix):
                return

    def first_mate_depth(self, fen, n, max_depth):
        """The first depth reporting a mate in n or fewer for the side to
        move (n < 0: being mated), or None."""
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send(f"go depth {max_depth}")
        found = None
        for line in self.lines_until("bestmove"):
            m = re.match(r"info depth (\d+) .*score mate (-?\d+)", line)
            if m and found is None and "bound" not in line:
                depth, mate = int(m.group(1)), int(m.group(2))
                if (n > 0 and 0 < mate <= n) or (n < 0 and n <= mate < 0):
                    found = depth
        return found

    def close(self):
        self.send("quit")
        self.p.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("engines", nargs="+")
    ap.add_argument("--epd", default=DEFAULT_EPD)
    ap.add_argument("--max-depth", type=int, default=14)
    ap.add_argument("--option", action="append", default=[],
                    help="Name=Value, set on every engine that is Kestrel (repeatable)")
    args = ap.parse_args()
    engines = [Engine(e, args.option if "kestrel" in os.path.basename(e) else [])
               for e in args.engines]
    print("position".ljust(16) + "mate  bound  " + "  ".join(os.path.basename(e)[:12].rjust(12)
                                                          for e in args.engines))
    late = [0] * len(engines)
    for fen, n, ident in positions(args.epd):
        bound = 2 * abs(n) + 2
        depths = [e.first_mate_depth(fen, n, args.max_depth) for e in engines]
        for i, d in enumerate(depths):
            if d is None or d > bound:
                late[i] += 1
        print(ident[:15].ljust(16) + f"{n:>4}  {bound:>5}  "
              + "  ".join(("-" if d is None else str(d)).rjust(12) for d in depths))
    print("later than 2N+2: " + ", ".join(f"{os.path.basename(e)} {k}"
                                          for e, k in zip(args.engines, late)))
    for e in engines:
        e.close()


if __name__ == "__main__":
    main()
