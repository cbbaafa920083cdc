#!/usr/bin/env python3
"""Start positions for a "tables vs no tables" match: endgames from real
master games that simplify into tablebase territory.

From every game of the given PGN files, take the first position with at
most --max-pieces pieces (kings included): no castling rights, side to move
not in check, the game went on for at least 8 more plies. Keep those that
Stockfish (depth --depth) finds neither lost nor won outright for either
side (|eval| <= --max-cp), so that technique decides, deduplicate, shuffle
with --seed and write --count FENs (EPD without operations, one a line).

    python3 bench/make_tb_openings.py ../shared/data/pgn/masters/*.pgn \
        --out bench/tb_openings.epd
"""
import argparse
import random
import shutil
import sys

import chess
import chess.engine
import chess.pgn


def candidates(paths, max_pieces):
    seen = set()
    for path in paths:
        with open(path, encoding="latin-1") as f:
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                if game.errors or game.headers.get("Variant", "Standard") != "Standard":
                    continue
                board = game.board()
                moves = list(game.mainline_moves())
                for i, move in enumerate(moves):
                    board.push(move)
                    if len(board.piece_map()) <= max_pieces:
                        if (len(moves) - i - 1 >= 8 and not board.castling_rights
                                and not board.is_check() and not board.is_game_over()):
                            key = board.epd()
                            if key not in seen:
                                seen.add(key)
                                yield board.fen()
                        break


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--max-pieces", type=int, default=6)
    ap.add_argument("--max-cp", type=int, default=250)
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish")
    args = ap.parse_args()
    fens = list(candidates(args.pgn, args.max_pieces))
    random.Random(args.seed).shuffle(fens)
    kept = []
    with chess.engine.SimpleEngine.popen_uci(args.stockfish) as sf:
        for fen in fens:
            info = sf.analyse(chess.Board(fen), chess.engine.Limit(depth=args.depth))
            score = info["score"].white()
            if score.is_mate() or abs(score.score()) > args.max_cp:
                continue
            kept.append(fen)
            if len(kept) == args.count:
                break
    with open(args.out, "w") as f:
        for fen in kept:
            f.write(fen + "\n")
    print(f"{len(fens)} candidate positions, {len(kept)} written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
