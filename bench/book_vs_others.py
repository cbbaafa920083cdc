#!/usr/bin/env python3
"""Reading PGN and building books: Kestrel against GNU Chess, pgn-extract and
python-chess, measured side by side in one run on the same games.

All tools read one file: the master games (shared/data/pgn/masters/*.pgn,
12,883 games) concatenated into a temporary file, because
`gnuchess --addbook` takes one file. Measured, wall clock, launch to exit:

  kestrel book build, every ply   --max-ply 1000 --min-games 3: like GNU Chess, which
                                  reads every ply and keeps ~12,000 entries
  kestrel book build, 30 plies    the defaults (--max-ply 30, every entry kept)
  kestrel pgn stats               read and replay every move of every game, variations too
  gnuchess --addbook              GNU Chess 6 compiling book.bin from the games
  pgn-extract -r                  validating the games (report errors, extract nothing)
  python-chess                    chess.pgn.read_game over the file (replays every move)

Each fast tool runs --repeat times, interleaved, and the fastest run counts
(the machine is shared; the minimum is the least disturbed run).
python-chess, which takes a minute, runs once. Prints games/s of each and
the ratio of Kestrel's book build to each of the others, with the load
average before and after.

Usage: bench/book_vs_others.py [--kestrel target/release/kestrel]
           [--data ../shared/data] [--repeat 5] [--threads N] [--skip-python]
Build first: cargo build --release
"""

import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time


def find_tool(name):
    for path in (shutil.which(name), f"/usr/games/{name}"):
        if path and os.path.exists(path):
            return path
    return None


def timed(argv, cwd=None, env=None):
    start = time.perf_counter()
    proc = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, errors="replace")
    secs = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return secs, proc.stdout + proc.stderr


def python_chess_read(path):
    import chess.pgn
    start = time.perf_counter()
    games = errors = 0
    with open(path, encoding="utf-8", errors="replace") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            games += 1
            errors += bool(game.errors)
    return time.perf_counter() - start, games, errors


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kestrel", default=os.path.join(root, "target/release/kestrel"))
    ap.add_argument("--data", default=os.path.join(root, "../shared/data"))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--threads", type=int, default=None,
                    help="RAYON_NUM_THREADS for Kestrel (default: all cores)")
    ap.add_argument("--skip-python", action="store_true")
    args = ap.parse_args()

    files = sorted(glob.glob(os.path.join(args.data, "pgn/masters/*.pgn")))
    if not files:
        sys.exit(f"no PGN files in {args.data}/pgn/masters")
    if not os.path.exists(args.kestrel):
        sys.exit(f"{args.kestrel} not found: cargo build --release")
    gnuchess = find_tool("gnuchess")
    pgn_extract = find_tool("pgn-extract")

    tmp = tempfile.mkdtemp(prefix="kestrel-bench-")
    all_pgn = os.path.join(tmp, "masters.pgn")
    with open(all_pgn, "wb") as out:
        for f in files:
            with open(f, "rb") as src:
                out.write(src.read())
                out.write(b"\n")
    size_mb = os.path.getsize(all_pgn) / 1e6

    env = dict(os.environ)
    if args.threads:
        env["RAYON_NUM_THREADS"] = str(args.threads)

    games_out = {}

    def kestrel_build(max_ply, min_games):
        def run():
            secs, out = timed([args.kestrel, "book", "build", "--quiet", "--pgn", all_pgn,
                               "--out", os.path.join(tmp, f"k{max_ply}.bin"),
                               "--max-ply", str(max_ply), "--min-games", str(min_games)],
                              env=env)
            games = int(out.split("games")[1].split()[0])
            bad = int(out.split("bad games")[1].split()[0])
            return secs, games + bad
        return run

    def kestrel_stats():
        secs, out = timed([args.kestrel, "pgn", "stats", "--quiet", all_pgn])
        games = int(out.split("games")[1].split()[0])
        errors = int(out.split("errors")[1].split()[0])
        return secs, games + errors

    def gnu():
        work = os.path.join(tmp, "gnu")
        os.makedirs(work, exist_ok=True)
        book = os.path.join(work, "book.bin")
        if os.path.exists(book):
            os.remove(book)
        start = time.perf_counter()
        proc = subprocess.run([gnuchess, f"--addbook={all_pgn}"], cwd=work, input="quit\n",
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              errors="replace")
        secs = time.perf_counter() - start
        if "all done" not in proc.stdout:
            sys.exit(f"gnuchess --addbook failed:\n{proc.stdout[-2000:]}")
        games = int(proc.stdout.split(" games.")[0].split()[-1])
        return secs, games

    def extract():
        secs, out = timed([pgn_extract, "-r", "--quiet", all_pgn])
        return secs, count_games()

    def count_games():
        return games_out.setdefault("n", sum(1 for line in open(all_pgn, "rb")
                                             if line.startswith(b"[Event ")))

    tools = [
        ("kestrel book build, every ply", kestrel_build(1000, 3)),
        ("kestrel book build, 30 plies", kestrel_build(30, 1)),
        ("kestrel pgn stats (full read)", kestrel_stats),
    ]
    if gnuchess:
        tools.append(("gnuchess --addbook", gnu))
    else:
        print("skipping GNU Chess: gnuchess not found (apt-get install gnuchess)")
    if pgn_extract:
        tools.append(("pgn-extract -r (validate)", extract))
    else:
        print("skipping pgn-extract: not found (apt-get install pgn-extract)")

    load_before = os.getloadavg()
    best = {}
    for _ in range(args.repeat):
        for name, run in tools:
            secs, games = run()
            if name not in best or secs < best[name][0]:
                best[name] = (secs, games)
    if not args.skip_python:
        try:
            secs, games, errors = python_chess_read(all_pgn)
            best["python-chess read_game"] = (secs, games)
        except ImportError:
            print("skipping python-chess: not installed (pip install chess)")
    load_after = os.getloadavg()

    print(f"input: {len(files)} files, {size_mb:.1f} MB, {os.cpu_count()} cores, "
          f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after; "
          f"best of {args.repeat} (python-chess: 1 run)")
    ref = best["kestrel book build, every ply"]
    ref_rate = ref[1] / ref[0]
    print(f"{'tool':34} {'games':>7} {'seconds':>8} {'games/s':>9}  Kestrel build (every ply) is")
    for name, (secs, games) in best.items():
        rate = games / secs
        print(f"{name:34} {games:7d} {secs:8.3f} {rate:9.0f}  {ref_rate / rate:6.1f}x")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
