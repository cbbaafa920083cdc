#!/usr/bin/env python3
"""Mates found on a fixed random subset of Stockfish's matetrack positions,
by ../shared/tools/matecheck.py (the tool Stockfish's developers use), at
a node budget per position, for one or more engine binaries (Kestrel's, or
another engine's such as Debian's Stockfish 15.1, /usr/games/stockfish).

    python3 bench/matetrack.py OLD_BINARY NEW_BINARY [--positions 500] [--seed 1] [--nodes 1000000]
        [--min-mate 10] [--go-mate] [--option NAME=VALUE ...] [--found-dir DIR] [--epd FILE]

The subset is `random.seed(SEED); random.sample(lines, POSITIONS)` of
../shared/data/matetrack/matetrack.epd (6,554 positions), or of its
positions with a mate of at least --min-mate moves (2,472 have 10 or more),
so the same arguments give the same positions. --epd reads another file of
`FEN bm #N;` lines instead (matetrack's `classic280.epd`, say: 280 classic
endgame mates, KRK to KQKR, from vondele/matetrack, GPL-3.0), from which
--positions are sampled the same way. --go-mate adds the mate's
length to each search (`go nodes N mate M`, matecheck's `--mate 0`), for
engines with a mode for that; --option sets a UCI option on every engine
that has it (Kestrel's `QSTableDepth=true`, say). matecheck searches with
python-chess's `analyse`, which sets `UCI_AnalyseMode` to true on an engine
that has the option (Kestrel from 2f3ecd5 on, which then searches as
analysis does: `QSTableDepth` and `SacrificeSearch` on); `--option
UCI_AnalyseMode=false` measures a game's search. Node budgets make the counts
independent of the machine's load. --found-dir keeps each engine's found
mates (matecheck's --foundMatesFile) in DIR/N-NAME.epd, N its place on the
command line, for `comm` between runs. Each engine's line carries
matecheck's counts and every issue it found (invalid, better-than-best,
wrong or unexpected mate scores, bad PVs); an issue it did not find is
left out, so a line without "Wrong" or "Invalid" has no wrong mate score.
OwnBook is turned off where the engine has it. Needs python-chess and tqdm.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile

import chess.engine

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, "..", "..", "shared")


def engine_options(path, extra):
    """The options every run sets: no opening book, where there is one, and
    the --option settings the engine has."""
    with chess.engine.SimpleEngine.popen_uci(path) as engine:
        options = {"OwnBook": False} if "OwnBook" in engine.options else {}
        for setting in extra:
            name, _, value = setting.partition("=")
            if name in engine.options:
                options[name] = value
        return options


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("engines", nargs="+")
    ap.add_argument("--positions", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--nodes", type=int, default=1_000_000)
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--min-mate", type=int, default=0,
                    help="only positions with a mate of at least this many moves")
    ap.add_argument("--go-mate", action="store_true",
                    help="give each search the mate's length (go ... mate M)")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="a UCI option for every engine that has it")
    ap.add_argument("--epd", metavar="FILE",
                    help="positions from FILE instead of matetrack.epd")
    ap.add_argument("--found-dir", metavar="DIR",
                    help="keep each engine's found mates in DIR/N-NAME.epd")
    args = ap.parse_args()
    epd = args.epd or os.path.join(SHARED, "data", "matetrack", "matetrack.epd")
    lines = [l for l in open(epd).read().splitlines() if l.strip()
             and abs(int(re.search(r"bm #(-?\d+)", l).group(1))) >= args.min_mate]
    random.seed(args.seed)
    subset = random.sample(lines, min(args.positions, len(lines)))
    with tempfile.NamedTemporaryFile("w", suffix=".epd", delete=False) as f:
        f.write("\n".join(subset) + "\n")
        path = f.name
    try:
        if args.found_dir:
            os.makedirs(args.found_dir, exist_ok=True)
        for n, engine in enumerate(args.engines, 1):
            found = (["--foundMatesFile", os.path.join(
                args.found_dir, f"{n}-{os.path.basename(engine)}.epd")]
                if args.found_dir else [])
            out = subprocess.run(
                [sys.executable, os.path.join(SHARED, "tools", "matecheck.py"),
                 "--engine", os.path.abspath(engine), "--epdFile", path,
                 "--nodes", str(args.nodes), "--concurrency", str(args.concurrency),
                 *(["--mate", "0"] if args.go_mate else []), *found,
                 "--engineOpts", json.dumps(engine_options(os.path.abspath(engine), args.option))],
                capture_output=True, text=True, check=True)
            summary = [l for l in out.stdout.splitlines()
                       if l.startswith(("Total FENs", "Found mates", "Best mates", "Invalid",
                                        "Better", "Wrong", "Unexpected", "Bad", "MultiPV"))]
            print(f"{engine}: " + "; ".join(" ".join(l.split()) for l in summary))
    finally:
        os.unlink(path)


if __name__ == "__main__":
    main()
