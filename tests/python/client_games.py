#!/usr/bin/env python3
"""python-chess, a UCI client no one here wrote, drives Kestrel: full games
(with and without pondering, on a clock and at fixed time), analysis with
MultiPV, a mate score, and option setting. Every move and every PV move is
checked for legality. Exit status 0 when all checks pass.

Usage: client_games.py PATH_TO_KESTREL
"""

import sys

import chess
import chess.engine

from client_checks import check, legal_line, play_game, run


def main():
    path = sys.argv[1]
    with chess.engine.SimpleEngine.popen_uci(path) as engine:
        check(engine.id.get("name", "").startswith("Kestrel"), "engine name %r" % engine.id)
        engine.configure({"Hash": 16, "Threads": 1, "Move Overhead": 20})

        board = play_game(engine, chess.engine.Limit(time=0.03), ponder=False)
        print("game 1 (30 ms/move): %s after %d plies" % (board.result(claim_draw=True), board.ply()))
        board = play_game(engine, chess.engine.Limit(time=0.03), ponder=True)
        print("game 2 (30 ms/move, pondering): %s after %d plies" % (board.result(claim_draw=True), board.ply()))
        clock = chess.engine.Limit(white_clock=3, black_clock=3, white_inc=0.03, black_inc=0.03)
        board = play_game(engine, clock, ponder=True)
        print("game 3 (3 s + 0.03 s clock, pondering): %s after %d plies" % (board.result(claim_draw=True), board.ply()))

        start = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
        infos = engine.analyse(start, chess.engine.Limit(depth=9), multipv=3)
        check(len(infos) == 3, "multipv 3 gave %d lines" % len(infos))
        firsts = set()
        for info in infos:
            check(legal_line(start, info["pv"]), "illegal multipv line %s" % info["pv"])
            firsts.add(info["pv"][0])
        check(len(firsts) == 3, "multipv lines must start with different moves")
        scores = [i["score"].relative.score(mate_score=100000) for i in infos]
        check(scores == sorted(scores, reverse=True), "multipv lines out of order: %s" % scores)

        with engine.analysis(start) as analysis:
            seen = 0
            for info in analysis:
                if "pv" in info:
                    check(legal_line(start, info["pv"]), "illegal streamed pv")
                    seen += 1
                if info.get("depth", 0) >= 8:
                    break
            check(seen > 0, "no streamed analysis")

        mate = chess.Board("7k/8/8/8/8/8/1R6/R5K1 w - - 0 1")
        info = engine.analyse(mate, chess.engine.Limit(depth=8))
        check(info["score"].white().mate() == 2, "mate in 2 reported as %s" % info["score"])


if __name__ == "__main__":
    run(main)
