#!/usr/bin/env python3
"""What BookInSearch does to the search's work: the same positions searched
to a fixed depth with BookInSearch off and on, nodes (independent of the
machine's load) and time summed, and how often the best move changes.

Positions: every game of a PGN file at a given ply (distinct positions), by
default the games of a book match that left the book at ply 6.

Usage: bench/book_in_search_cost.py GAMES.pgn [--kestrel target/release/kestrel]
           [--ply 6] [--depth 10] [--count 40]
"""

import argparse
import os

import chess
import chess.engine
import chess.pgn


def positions(path, ply, count):
    seen, out = set(), []
    with open(path, encoding="utf-8", errors="replace") as f:
        while len(out) < count:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            board = game.board()
            moves = list(game.mainline_moves())
            if len(moves) < ply:
                continue
            for m in moves[:ply]:
                board.push(m)
            if board.fen() not in seen:
                seen.add(board.fen())
                out.append(board)
    return out


def run(kestrel, boards, depth, on):
    engine = chess.engine.SimpleEngine.popen_uci(kestrel)
    engine.configure({"BookInSearch": on, "Threads": 1, "Hash": 16})
    nodes = secs = 0
    moves = []
    for b in boards:
        engine.configure({"Clear Hash": None})
        info = engine.analyse(b, chess.engine.Limit(depth=depth))
        nodes += info["nodes"]
        secs += info["time"]
        moves.append(info["pv"][0])
    engine.quit()
    return nodes, secs, moves


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("games")
    ap.add_argument("--kestrel", default=os.path.join(root, "target/release/kestrel"))
    ap.add_argument("--ply", type=int, default=6)
    ap.add_argument("--depth", type=int, default=10)
    ap.add_argument("--count", type=int, default=40)
    args = ap.parse_args()
    boards = positions(args.games, args.ply, args.count)
    off = run(args.kestrel, boards, args.depth, False)
    on = run(args.kestrel, boards, args.depth, True)
    changed = sum(a != b for a, b in zip(off[2], on[2]))
    print(f"{len(boards)} positions at ply {args.ply}, depth {args.depth}, 1 thread")
    print(f"BookInSearch off: {off[0]:>10} nodes {off[1]:7.2f} s")
    print(f"BookInSearch on:  {on[0]:>10} nodes {on[1]:7.2f} s  "
          f"({100.0 * on[0] / max(off[0], 1):.0f}% of the nodes)")
    print(f"best move changed in {changed} of {len(boards)} positions")


if __name__ == "__main__":
    main()
