"""The master games as one PGN file, for the book-building benchmarks
(`gnuchess --addbook` takes one file, and every tool should read the same)."""

import glob
import os
import sys


def one_pgn(tmp, pgn=None, data="../shared/data"):
    """`pgn` if given, else the master games under `data` concatenated into
    a file in the directory `tmp`; exits with a message when there are none."""
    if pgn is not None:
        return pgn
    files = sorted(glob.glob(os.path.join(data, "pgn/masters/*.pgn")))
    if not files:
        sys.exit(f"no {data}/pgn/masters/*.pgn: give --pgn FILE")
    path = os.path.join(tmp, "games.pgn")
    with open(path, "wb") as out:
        for f in files:
            with open(f, "rb") as src:
                out.write(src.read())
    return path
