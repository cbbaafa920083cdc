#!/usr/bin/env python3
"""How much of its clock each engine of a match used.

Reads a PGN written by `kestrel match` (or fastchess, cutechess): each
move's comment carries its thinking time (`{+0.25/14 0.31s}`), the
`TimeControl` header the clock (`10+0.1`). Prints per engine the games,
moves, mean thinking time a move, and the clock left when the game ended
(mean, and the lowest any game saw), in seconds and as a share of the
starting clock. An engine that ends its games with most of its clock
unused is leaving strength on the table.

    python3 bench/clock_usage.py cumulative.pgn
"""

import argparse
import re
import statistics
import sys

import chess.pgn

TIME_IN_COMMENT = re.compile(r"(?:^|\s)(\d+(?:\.\d+)?)s(?:\s|$)")


def parse_tc(tc):
    """`base+inc` in seconds, or None for anything else (moves/time, `-`,
    a clock that starts empty)."""
    m = re.fullmatch(r"(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?", tc or "")
    if not m or float(m.group(1)) <= 0:
        return None
    return float(m.group(1)), float(m.group(2) or 0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pgn", nargs="+", help="PGN files with thinking times in the comments")
    args = ap.parse_args()
    games = {}  # engine -> list of (moves, seconds thought, clock left, lowest clock, start)
    skipped = 0
    for path in args.pgn:
        with open(path, encoding="utf-8", errors="replace") as f:
            while (g := chess.pgn.read_game(f)) is not None:
                tc = parse_tc(g.headers.get("TimeControl"))
                if tc is None:
                    skipped += 1
                    continue
                base, inc = tc
                names = {chess.WHITE: g.headers.get("White", "?"), chess.BLACK: g.headers.get("Black", "?")}
                clock = {c: base for c in names}
                lowest = dict(clock)
                thought = {c: 0.0 for c in names}
                moves = {c: 0 for c in names}
                for node in g.mainline():
                    m = TIME_IN_COMMENT.search(node.comment)
                    if not m:
                        continue
                    side = not node.board().turn  # the side that just moved
                    t = float(m.group(1))
                    clock[side] += inc - t
                    lowest[side] = min(lowest[side], clock[side])
                    thought[side] += t
                    moves[side] += 1
                for c, name in names.items():
                    games.setdefault(name, []).append((moves[c], thought[c], clock[c], lowest[c], base))
    if not games:
        sys.exit("no game with a base+increment TimeControl and thinking times in its comments")
    print("| engine | games | moves a game | thinking a move | clock left at the end | lowest clock |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, rows in sorted(games.items()):
        moves = sum(r[0] for r in rows)
        per_move = sum(r[1] for r in rows) / max(moves, 1)
        left = statistics.mean(r[2] for r in rows)
        share = statistics.mean(r[2] / r[4] for r in rows)
        low = min(rows, key=lambda r: r[3])
        print(
            f"| {name} | {len(rows)} | {moves / len(rows):.1f} | {per_move * 1000:.0f} ms "
            f"| {left:.2f} s ({share:.0%}) | {low[3]:.2f} s ({low[3] / low[4]:.0%}) |"
        )
    if skipped:
        print(f"({skipped} games without a base+increment TimeControl skipped)")


if __name__ == "__main__":
    main()
