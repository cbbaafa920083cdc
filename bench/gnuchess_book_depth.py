#!/usr/bin/env python3
"""How deep GNU Chess's book from a PGN reaches: the share of its positions
(Polyglot keys) found in Kestrel books built from the same games up to
several ply limits. All of them at the highest limit only means GNU Chess
takes every ply, as Kestrel's every-ply build does.

Usage: bench/gnuchess_book_depth.py [--kestrel target/release/kestrel]
           [--pgn FILE] (default: ../shared/data/pgn/masters/*.pgn)
Needs gnuchess (apt-get install gnuchess).
"""

import argparse
import os
import shutil
import struct
import subprocess
import sys
import tempfile

from masters_pgn import one_pgn


def keys(path):
    data = open(path, "rb").read()
    return {struct.unpack(">Q", data[i:i + 8])[0] for i in range(0, len(data), 16)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kestrel", default="target/release/kestrel")
    ap.add_argument("--pgn")
    args = ap.parse_args()
    gnuchess = shutil.which("gnuchess") or "/usr/games/gnuchess"
    if not os.path.exists(gnuchess):
        sys.exit("gnuchess not found: apt-get install gnuchess")
    with tempfile.TemporaryDirectory() as tmp:
        pgn = one_pgn(tmp, args.pgn)
        pgn = os.path.abspath(pgn)
        subprocess.run([gnuchess, f"--addbook={pgn}"], cwd=tmp, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        gnu = keys(os.path.join(tmp, "book.bin"))
        print(f"GNU Chess book: {len(gnu)} positions")
        for plies in (10, 16, 20, 24, 30, 40, 60, 1000):
            out = os.path.join(tmp, f"k{plies}.bin")
            subprocess.run([args.kestrel, "book", "build", "--quiet", "--pgn", pgn,
                            "--out", out, "--max-ply", str(plies), "--min-games", "1"],
                           check=True, stdout=subprocess.DEVNULL)
            share = len(gnu & keys(out)) / max(len(gnu), 1)
            print(f"Kestrel up to ply {plies:4}: {share:7.2%} of GNU Chess's positions")


if __name__ == "__main__":
    main()
