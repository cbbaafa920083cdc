#!/usr/bin/env python3
"""Can the engine mate in the basic endings, in a game, against the best
defence? Random won positions of KQ v K, KR v K, KBB v K, KBN v K and
KQ v KP (a seed picks them; Syzygy says each is won for the side to move),
each played out by every engine given as the strong side, `--nodes` a move,
against a defender that plays the tablebase move that keeps the loss
furthest away (the longest distance to zeroing among the moves that keep
the tablebase result, the tables having no distance to mate;
python-chess's Syzygy prober, not an engine). A game
is a win when the engine mates before the fifty-move rule draws it.

    python3 bench/mate_technique.py target/release/kestrel /usr/games/stockfish \\
        --syzygy ../shared/data/syzygy --positions 20 --nodes 100000

With `--analyse`, each engine instead searches each position once, as
analysis, and the table counts the positions where its last score (not a
bound) is a mate for the strong side (python-chess's `analysis`, as
matetrack's `matecheck.py` runs it; the tables vouch that the position is
won, no line is checked). Each cell is then the mates seen and, in
brackets, their mean length in moves.

Prints, for each ending and engine, the mates and the mean number of moves
they took beside the tablebase's distance to zeroing at the start (the
lower bound for a mate with no capture on the way).
"""
import argparse
import random
import sys
from collections import defaultdict

import chess
import chess.engine
import chess.syzygy

ENDINGS = {
    "KQvK": [chess.QUEEN],
    "KRvK": [chess.ROOK],
    "KBBvK": [chess.BISHOP, chess.BISHOP],
    "KBNvK": [chess.BISHOP, chess.KNIGHT],
    "KQvKP": [chess.QUEEN],
}


def random_position(rng, ending, tb):
    """A random position of `ending`, White the strong side and to move,
    legal, not over, and a win for White by the tables."""
    while True:
        board = chess.Board(None)
        squares = rng.sample(chess.SQUARES, 2 + len(ENDINGS[ending]) + (ending == "KQvKP"))
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for sq, role in zip(squares[2:], ENDINGS[ending]):
            board.set_piece_at(sq, chess.Piece(role, chess.WHITE))
        if ending == "KQvKP":
            # Black's pawn far advanced (its ranks 5 to 7).
            pawn = squares[-1]
            if chess.square_rank(pawn) not in (1, 2, 3):
                continue
            board.set_piece_at(pawn, chess.Piece(chess.PAWN, chess.BLACK))
        if ending == "KBBvK":
            bishops = list(board.pieces(chess.BISHOP, chess.WHITE))
            colours = {(chess.square_file(s) + chess.square_rank(s)) % 2 for s in bishops}
            if len(colours) != 2:
                continue
        board.turn = chess.WHITE
        if not board.is_valid() or board.is_game_over():
            continue
        if tb.probe_wdl(board) != 2:
            continue
        # In KQ v KP, only where the pawn does not fall at once: ten moves
        # or more before the first capture or mate.
        if ending == "KQvKP" and tb.probe_dtz(board) < 19:
            continue
        return board


def defend(board, tb):
    """The defender's move: of the moves after which the attacker's win is
    furthest from zeroing by the tables, the first in move order."""
    best, best_dtz = None, None
    for move in board.legal_moves:
        board.push(move)
        try:
            dtz = tb.probe_dtz(board)
        finally:
            board.pop()
        # dtz is from the attacker's view (to move after our move): a won
        # position has dtz > 0; keep the largest, prefer a draw (0) or a
        # loss for the attacker (< 0) to any win.
        key = (dtz <= 0, abs(dtz) if dtz > 0 else 0)
        if best is None or key > best_dtz:
            best, best_dtz = move, key
    return best


def play(engine, board, tb, nodes, options):
    """Plays the strong side (White) out; returns (mated, full moves)."""
    board = board.copy()
    game = object()
    while not board.is_game_over(claim_draw=False) and board.halfmove_clock < 100:
        if board.turn == chess.WHITE:
            result = engine.play(board, chess.engine.Limit(nodes=nodes), game=game, options=options)
            board.push(result.move)
        else:
            board.push(defend(board, tb))
    return board.is_checkmate() and board.turn == chess.BLACK, board.fullmove_number


def mate_seen(engine, board, nodes, options):
    """The mate (moves, > 0 for the side to move) of the last score that is
    not a bound of a search of `board` at `nodes`, or None."""
    mate = None
    with engine.analysis(board, chess.engine.Limit(nodes=nodes), game=object(), options=options) as analysis:
        for info in analysis:
            if "score" not in info or "upperbound" in info or "lowerbound" in info:
                continue
            mate = info["score"].pov(board.turn).mate()
    return mate if mate is not None and mate > 0 else None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engines", nargs="+")
    ap.add_argument("--syzygy", required=True, help="folder of the 3-4 piece Syzygy tables")
    ap.add_argument("--positions", type=int, default=20, help="positions of each ending")
    ap.add_argument("--nodes", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--endings", default=",".join(ENDINGS))
    ap.add_argument("--analyse", action="store_true",
                    help="instead of playing, search each position once (`--nodes`, as analysis) and count the mates seen")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="a UCI option for every engine that has it")
    args = ap.parse_args()
    endings = args.endings.split(",")
    for e in endings:
        if e not in ENDINGS:
            sys.exit(f"unknown ending {e!r}: one of {', '.join(ENDINGS)}")
    try:
        tb = chess.syzygy.open_tablebase(args.syzygy)
        # Every ending here needs its table and those it converts into.
        for fen in ("8/8/8/3k4/8/8/8/2B1KN2 w - - 0 1", "8/8/8/3k4/8/8/p7/Q3K3 w - - 0 1",
                    "8/8/8/3k4/8/8/8/q3K1Q1 w - - 0 1", "8/8/8/3k4/8/8/8/2B1KB2 w - - 0 1",
                    "8/8/8/3k4/8/8/8/4K1Q1 w - - 0 1", "8/8/8/3k4/8/8/8/4K1R1 w - - 0 1"):
            tb.probe_dtz(chess.Board(fen))
    except (OSError, KeyError) as e:
        sys.exit(f"--syzygy {args.syzygy}: the 3-4 piece Syzygy tables are needed ({e})")
    rng = random.Random(args.seed)
    positions = {e: [random_position(rng, e, tb) for _ in range(args.positions)] for e in endings}
    print("ending", "positions", "dtz-start", *args.engines, sep="\t")
    totals = defaultdict(int)
    engines = [chess.engine.SimpleEngine.popen_uci(path) for path in args.engines]
    try:
        for ending in endings:
            boards = positions[ending]
            dtz = sum(tb.probe_dtz(b) for b in boards) / len(boards) / 2
            cells = []
            for path, engine in zip(args.engines, engines):
                options = {}
                for kv in args.option:
                    name, _, value = kv.partition("=")
                    if name in engine.options:
                        options[name] = value
                mates, moves = 0, 0
                for board in boards:
                    if args.analyse:
                        mate = mate_seen(engine, board, args.nodes, options)
                        mated, length = mate is not None, mate or 0
                    else:
                        mated, fullmoves = play(engine, board, tb, args.nodes, options)
                        length = fullmoves - board.fullmove_number
                    if mated:
                        mates += 1
                        moves += length
                totals[path] += mates
                mean = f"{moves / mates:.1f}" if mates else "-"
                cells.append(f"{mates} ({mean} moves)")
            print(ending, len(boards), f"{dtz:.1f}", *cells, sep="\t", flush=True)
    finally:
        for engine in engines:
            engine.quit()
    print("total", sum(len(b) for b in positions.values()), "", *(totals[p] for p in args.engines), sep="\t")


if __name__ == "__main__":
    main()
