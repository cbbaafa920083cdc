"""Reads a PGN file written by `kestrel match` with python-chess and checks
every game: no parse errors (so every move is legal), a result, and a result
that matches the final position when the game ended by the rules.

Usage: check_pgn.py FILE EXPECTED_GAMES. Prints `N passed, M failed`."""

import sys

import chess
import chess.pgn


def check(game):
    if game.errors:
        return f"parse errors: {game.errors}"
    result = game.headers.get("Result")
    if result not in ("1-0", "0-1", "1/2-1/2"):
        return f"bad result {result}"
    for tag in ("Event", "Site", "Date", "Round", "White", "Black", "PlyCount"):
        if tag not in game.headers:
            return f"missing tag {tag}"
    board = game.end().board()
    if int(game.headers["PlyCount"]) != board.ply() - game.board().ply():
        return "PlyCount does not match the moves"
    if "Termination" not in game.headers:
        # Ended by the rules or by an engine's resignation: check the rules' verdicts.
        outcome = board.outcome(claim_draw=True)
        if outcome is not None and outcome.result() != result:
            return f"result {result} but the board says {outcome.result()}"
        if outcome is None and result == "1/2-1/2":
            return "a draw that no rule explains"
    return None


def main():
    path, expected = sys.argv[1], int(sys.argv[2])
    passed = failed = 0
    with open(path) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            problem = check(game)
            if problem:
                failed += 1
                print(f"game {passed + failed}: {problem}")
            else:
                passed += 1
    if passed + failed != expected:
        print(f"expected {expected} games, read {passed + failed}")
        failed += 1
    print(f"{passed} passed, {failed} failed")


main()
