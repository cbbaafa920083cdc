#!/usr/bin/env python3
"""python-chess's xboard client (chess.engine.SimpleEngine.popen_xboard), which
no one here wrote, drives `kestrel xboard`: full games on a clock, at fixed
time and at fixed depth (with pondering in one), analysis with a PV, a mate
found from a set-up position, and option setting. Every move and PV move is
checked for legality. Exit status 0 when all checks pass.

Usage: xboard_client.py PATH_TO_KESTREL
"""

import sys

import chess
import chess.engine

from client_checks import check, legal_line, play_game, run


def main():
    path = sys.argv[1]
    engine = chess.engine.SimpleEngine.popen_xboard([path, "xboard"])
    try:
        check(engine.id.get("name", "").startswith("Kestrel"), "name %r" % engine.id)
        check("NullMove" in engine.options, "options %s" % list(engine.options))
        engine.configure({"Contempt": 10, "OwnBook": False})

        # A clock game, a fixed-time game with pondering, a fixed-depth game.
        b = play_game(engine, chess.engine.Limit(white_clock=2, black_clock=2, white_inc=0.02, black_inc=0.02), max_plies=60)
        print("clock game: %d plies, %s" % (b.ply(), b.result(claim_draw=True)))
        b = play_game(engine, chess.engine.Limit(time=0.02), ponder=True, max_plies=30)
        print("fixed-time game with pondering: %d plies" % b.ply())
        b = play_game(engine, chess.engine.Limit(depth=3), max_plies=30)
        print("depth game: %d plies" % b.ply())

        # Chess960 (variant fischerandom): games from two start positions.
        for idx in (0, 959):
            board = chess.Board.from_chess960_pos(idx)
            while not board.is_game_over(claim_draw=True) and board.ply() < 30:
                result = engine.play(board, chess.engine.Limit(time=0.02))
                check(result.move in board.legal_moves, "illegal 960 move %s in %s" % (result.move, board.fen()))
                board.push(result.move)
            print("chess960 position %d: %d plies" % (idx, board.ply()))

        # A set-up position: mate in one, found and scored as a mate.
        board = chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
        result = engine.play(board, chess.engine.Limit(depth=3), info=chess.engine.INFO_ALL)
        check(result.move == chess.Move.from_uci("d1d8"), "mate in one: %s" % result.move)

        # Analysis: a PV that is legal and a score.
        board = chess.Board()
        board.push_san("e4")
        info = engine.analyse(board, chess.engine.Limit(time=0.3))
        check("pv" in info and legal_line(board, info["pv"]), "analysis pv %s" % info.get("pv"))
        check("score" in info, "analysis score %s" % info)
        print("analysis: depth %s score %s pv %s" % (info.get("depth"), info.get("score"),
                                                    board.variation_san(info["pv"][:4])))
    finally:
        engine.quit()


if __name__ == "__main__":
    run(main)
