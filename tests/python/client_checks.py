"""What the client scripts share: counted checks, legal lines, a game
python-chess plays against Kestrel with every move, line and ponder move
checked, and the tally the Rust test reads (`N passed, 0 failed`)."""

import sys

import chess
import chess.engine

checks = 0


def check(condition, message):
    global checks
    checks += 1
    if not condition:
        raise AssertionError(message)


def legal_line(board, moves):
    b = board.copy()
    for m in moves:
        if m not in b.legal_moves:
            return False
        b.push(m)
    return True


def play_game(engine, limit, ponder=False, max_plies=200):
    board = chess.Board()
    while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
        result = engine.play(board, limit, ponder=ponder, info=chess.engine.INFO_ALL)
        check(result.move in board.legal_moves, "illegal move %s in %s" % (result.move, board.fen()))
        if "pv" in result.info:
            check(legal_line(board, result.info["pv"]), "illegal pv %s in %s" % (result.info["pv"], board.fen()))
        if result.ponder is not None:
            after = board.copy()
            after.push(result.move)
            check(result.ponder in after.legal_moves, "illegal ponder move %s" % result.ponder)
        board.push(result.move)
    return board


def run(main):
    """Runs `main` and prints the tally; exit status 1 at the first failed check."""
    try:
        main()
    except AssertionError as e:
        print("FAILED: %s" % e)
        print("%d passed, 1 failed" % (checks - 1))
        sys.exit(1)
    print("%d passed, 0 failed" % checks)
