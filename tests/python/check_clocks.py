"""Reads the first game of a PGN file with python-chess and prints, one
line per main-line move, its SAN, the mover's clock python-chess reads from
its [%clk] comment (GameNode.clock(), seconds, "-" for none) and the
engine's thinking time where the comment has one ("1.50s", as `kestrel gui`
writes it after an engine move, else "-").

Usage: check_clocks.py FILE [BASE INC]. With BASE and INC (seconds), also
checks the clocks as those of a game at BASE+INC played on `kestrel gui`'s
page, where each side's first move is free (lichess's rule):
- every move has a clock;
- each side's first move leaves it BASE;
- after that, a side's clock never gains more than INC (1 s slack: clocks
  are written in whole seconds);
- an engine move's clock is its clock before, plus INC, less the time the
  engine thought, to within 2 s (the page's clock also counts the time the
  move took to reach it, and whole seconds round);
- at least one increment shows: some move leaves its side more time than
  it had before (a side that moved in less than INC).
Then prints `clocks ok`, or each problem and `clocks wrong`."""

import re
import sys

import chess
import chess.pgn

ENGINE_TIME = re.compile(r"(?:^|\s)(\d+\.\d\d)s(?:\s|$)")


def moves(game):
    for node in game.mainline():
        found = ENGINE_TIME.search(node.comment)
        yield node.san(), node.turn(), node.clock(), float(found.group(1)) if found else None


def check(rows, base, inc):
    problems = []
    last = {}  # the mover's colour -> its clock after its previous move
    gained = False
    for ply, (san, turn, clock, thought) in enumerate(rows, 1):
        mover = not turn  # after the move, the other side is to move
        where = f"ply {ply} ({san})"
        if clock is None:
            problems.append(f"{where}: no clock")
            continue
        if mover not in last:
            if abs(clock - base) > 0.5:
                problems.append(f"{where}: first move leaves {clock} s, not {base}")
        else:
            before = last[mover]
            if clock > before + inc + 1:
                problems.append(f"{where}: {before} -> {clock} s gains more than the increment {inc}")
            if clock > before:
                gained = True
            if thought is not None and abs(before + inc - thought - clock) > 2:
                problems.append(f"{where}: {before} + {inc} - {thought} thought, but the clock says {clock}")
        last[mover] = clock
    if not gained:
        problems.append("no move shows an increment")
    return problems


def main():
    path = sys.argv[1]
    with open(path) as f:
        game = chess.pgn.read_game(f)
    if game is None or game.errors:
        print(f"cannot read the game: {game.errors if game else 'none'}")
        sys.exit(1)
    rows = list(moves(game))
    for san, _, clock, thought in rows:
        print(san, "-" if clock is None else f"{clock:g}", "-" if thought is None else f"{thought:g}")
    if len(sys.argv) == 4:
        problems = check(rows, float(sys.argv[2]), float(sys.argv[3]))
        for p in problems:
            print(p)
        print("clocks wrong" if problems else "clocks ok")


main()
