#!/usr/bin/env python3
"""Builds tests/data/motifs.epd: positions, each with a move and the
tactical motifs that move shows, for measuring `kestrel explain`'s motif
finder (crates/explain; docs/explain.md).

The labels never come from Kestrel's finder. They come from
  * construction: each template below places the pieces of one motif (a
    knight forking king and rook, a bishop pinning a queen to its king, a
    back-rank mate, ...) at random squares, mirrored and with colours
    swapped at random, and python-chess (an independent rules library)
    checks what the construction promises: the position is legal, the move
    gives the check or mate it should, and a material search (alpha-beta
    with quiescence, written here) confirms that the move wins what the
    motif wins;
  * known solutions: Win At Chess (../shared/data/wac.epd, MIT) and
    matetrack (../shared/data/matetrack/matetrack.epd, GPL-3.0), whose
    mates python-chess verifies as forced from the solution's move (its
    mate pattern read off the final positions), and WAC's solutions that
    take an undefended piece.
Board facts python-chess checks for every entry are added to its labels:
a mate threat (after the move, were the mover to move again, a mate in
one), a forced mate of at most three moves from the move (mate in one,
two and three, with the pattern of the mates the search finds).

Usage: python3 scripts/motif_set.py [--seed 62] > tests/data/motifs.epd
(deterministic for a seed; needs `pip install chess`).
"""

import argparse
import random
import sys

import chess

VALUE = {chess.PAWN: 100, chess.KNIGHT: 320, chess.BISHOP: 330,
         chess.ROOK: 500, chess.QUEEN: 950, chess.KING: 0}
MATE = 100000


def material(board, color):
    return sum(VALUE[p.piece_type] for p in board.piece_map().values() if p.color == color)


def balance(board, color):
    return material(board, color) - material(board, not color)


def ordered(board, moves):
    """Captures and checks first: the search's only ordering."""
    def key(m):
        victim = board.piece_at(m.to_square)
        return -(VALUE[victim.piece_type] if victim else 0) - (50 if m.promotion else 0)
    return sorted(moves, key=key)


def negamax(board, moves, best, alpha, beta, child):
    """The best of `best` and the moves' scores (alpha-beta, side to move's
    view); child(alpha, beta) scores the position after a move, its side's
    view."""
    for m in ordered(board, moves):
        board.push(m)
        v = -child(-beta, -alpha)
        board.pop()
        if v > best:
            best = v
        if v > alpha:
            alpha = v
        if alpha >= beta:
            break
    return best


def qsearch(board, alpha, beta, ply, budget):
    budget[0] -= 1
    if board.is_checkmate():
        return -MATE + ply
    if board.is_stalemate() or budget[0] < 0:
        return 0 if board.is_stalemate() else balance(board, board.turn)
    if board.is_check():
        moves = list(board.legal_moves)
        best = -MATE
    else:
        best = balance(board, board.turn)
        if best >= beta:
            return best
        alpha = max(alpha, best)
        moves = [m for m in board.legal_moves if board.is_capture(m) or m.promotion]
    return negamax(board, moves, best, alpha, beta,
                   lambda a, b: qsearch(board, a, b, ply + 1, budget))


def search(board, depth, alpha=-MATE - 1, beta=MATE + 1, ply=0, budget=None):
    """Material negamax (side to move's view) with mates."""
    if budget is None:
        budget = [400000]
    if depth <= 0:
        return qsearch(board, alpha, beta, ply, budget)
    budget[0] -= 1
    if board.is_checkmate():
        return -MATE + ply
    if board.is_stalemate() or board.is_insufficient_material():
        return 0
    return negamax(board, list(board.legal_moves), -MATE - 1, alpha, beta,
                   lambda a, b: search(board, depth - 1, a, b, ply + 1, budget))


def gain(board, move, depth):
    """What `move` wins for its side by force, `depth` plies after it."""
    side = board.turn
    before = balance(board, side)
    board.push(move)
    v = -search(board, depth)
    board.pop()
    return v - before


def mates_in(board, n):
    """True when the side to move mates in at most `n` moves."""
    if n <= 0:
        return False
    for m in ordered(board, list(board.legal_moves)):
        board.push(m)
        ok = board.is_checkmate() or (n > 1 and mated_in(board, n - 1))
        board.pop()
        if ok:
            return True
    return False


def mated_in(board, n):
    """True when the side to move is mated in at most `n` moves whatever it does."""
    if board.is_checkmate():
        return True
    if board.is_stalemate():
        return False
    for r in board.legal_moves:
        board.push(r)
        ok = mates_in(board, n)
        board.pop()
        if not ok:
            return False
    return True


def mate_length(board, move, most=3):
    """The least n <= most such that `move` forces mate in n, else None."""
    board.push(move)
    try:
        if board.is_checkmate():
            return 1
        for n in range(2, most + 1):
            if mated_in(board, n - 1):
                return n
        return None
    finally:
        board.pop()


def pattern(board):
    """The pattern of the mate on `board` (the side to move mated), as a
    coach names it: 'smothered' (a knight mates a king walled in by its own
    pieces) or 'back_rank' (a rook or queen on the king's back rank, every
    square in front of the king held by its own pieces)."""
    mated = board.turn
    king = board.king(mated)
    checkers = list(board.checkers())
    if len(checkers) != 1:
        return None
    checker = board.piece_at(checkers[0])
    around = chess.SquareSet(chess.BB_KING_ATTACKS[king])
    own = board.occupied_co[mated]
    if checker.piece_type == chess.KNIGHT and all(own & chess.BB_SQUARES[s] for s in around):
        return 'smothered'
    back = 0 if mated == chess.WHITE else 7
    if (chess.square_rank(king) == back and chess.square_rank(checkers[0]) == back
            and checker.piece_type in (chess.ROOK, chess.QUEEN)):
        front = [s for s in around if chess.square_rank(s) != back]
        if front and all(own & chess.BB_SQUARES[s] for s in front):
            return 'back_rank'
    return None


def mate_patterns(board, move, n):
    """Patterns of the mates a forced mate in `n` from `move` can end in
    (every defence, every mating move that keeps the mate in n)."""
    found = set()

    def ours(b, k):
        for m in b.legal_moves:
            b.push(m)
            if b.is_checkmate():
                p = pattern(b)
                if p:
                    found.add(p)
            elif k > 1 and mated_in(b, k - 1):
                theirs(b, k - 1)
            b.pop()

    def theirs(b, k):
        for r in b.legal_moves:
            b.push(r)
            ours(b, k)
            b.pop()

    board.push(move)
    if board.is_checkmate():
        p = pattern(board)
        if p:
            found.add(p)
    else:
        theirs(board, n - 1)
    board.pop()
    return found


def threatens_mate(board, move):
    """After `move`, were its side to move again: a mate in one."""
    board.push(move)
    try:
        if board.is_check() or board.is_game_over():
            return False
        board.push(chess.Move.null())
        found = any(_mates(board, m) for m in board.legal_moves)
        board.pop()
        return found
    finally:
        board.pop()


def _mates(board, m):
    board.push(m)
    ok = board.is_checkmate()
    board.pop()
    return ok


# --- Building positions ------------------------------------------------------

def sq(f, r):
    return chess.square(f, r) if 0 <= f < 8 and 0 <= r < 8 else None


def ray(start, df, dr):
    f, r = chess.square_file(start) + df, chess.square_rank(start) + dr
    out = []
    while 0 <= f < 8 and 0 <= r < 8:
        out.append(chess.square(f, r))
        f, r = f + df, r + dr
    return out


DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
ORTH = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIRS = {chess.BISHOP: DIAG, chess.ROOK: ORTH, chess.QUEEN: DIAG + ORTH}
W, B = chess.WHITE, chess.BLACK
P, N, BI, R, Q, K = chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING


class Build:
    """Pieces placed on squares, White to move, checked as they go."""

    def __init__(self, rng):
        self.rng = rng
        self.pieces = {}
        self.reserved = set()

    def reserve(self, *pairs):
        """Keeps the squares between each pair of squares empty of scattered pawns."""
        for a, b in pairs:
            self.reserved |= set(chess.SquareSet(chess.between(a, b))) | {a, b}

    def free(self, s):
        return s is not None and s not in self.pieces

    def put(self, s, color, kind):
        if not self.free(s):
            raise Retry()
        self.pieces[s] = chess.Piece(kind, color)

    def empty_squares(self, ranks=range(8)):
        return [s for s in chess.SQUARES if s not in self.pieces and chess.square_rank(s) in ranks]

    def scatter(self, color, kind, count, ranks, keep_clear=()):
        for _ in range(count):
            options = [s for s in self.empty_squares(ranks)
                       if s not in keep_clear and s not in self.reserved]
            if options:
                self.pieces[self.rng.choice(options)] = chess.Piece(kind, color)

    def king_far(self, color, avoid, ranks=range(8)):
        """A king on a square at least two files or ranks from `avoid`."""
        options = [s for s in self.empty_squares(ranks)
                   if all(chess.square_distance(s, a) >= 2 for a in avoid)]
        if not options:
            raise Retry()
        s = self.rng.choice(options)
        self.pieces[s] = chess.Piece(K, color)
        return s

    def board(self):
        b = chess.Board(None)
        for s, p in self.pieces.items():
            b.set_piece_at(s, p)
        b.turn = W
        b.castling_rights = 0
        b.ep_square = None
        return b


class Retry(Exception):
    """This random try does not work: draw another."""


def path_clear(pieces, a, b):
    return all(s not in pieces for s in chess.SquareSet(chess.between(a, b)))


def line_start(rng, pieces, kind, to, avoid_lines):
    """A square from which a `kind` line piece reaches `to`, off the lines
    through `avoid_lines` squares, the path empty."""
    options = []
    for df, dr in DIRS[kind]:
        for s in ray(to, df, dr):
            if s in pieces:
                break
            if any(chess.BB_SQUARES[s] & chess.ray(to, a) for a in avoid_lines):
                continue
            options.append(s)
    if not options:
        raise Retry()
    return rng.choice(options)


# Each template returns (builder, move, labels, note), White to move.

def t_knight_fork(rng):
    b = Build(rng)
    d = sq(rng.randint(1, 6), rng.randint(2, 5))
    targets = list(chess.SquareSet(chess.BB_KNIGHT_ATTACKS[d]))
    rng.shuffle(targets)
    bk, t2 = targets[0], targets[1]
    b.put(bk, B, K)
    kind = rng.choice([R, R, Q])
    b.put(t2, B, kind)
    starts = [s for s in chess.SquareSet(chess.BB_KNIGHT_ATTACKS[d])
              if b.free(s) and not chess.BB_KNIGHT_ATTACKS[s] & chess.BB_SQUARES[bk]]
    if not starts:
        raise Retry()
    s = rng.choice(starts)
    b.put(s, W, N)
    b.king_far(W, [bk, d, t2])
    b.scatter(W, P, rng.randint(0, 2), range(1, 5), keep_clear=[d])
    b.scatter(B, P, rng.randint(1, 3), range(3, 7), keep_clear=[d])
    return b, chess.Move(s, d), ['fork'], f'knight fork of king and {chess.piece_name(kind)}', 150, 3


def t_pawn_fork(rng):
    b = Build(rng)
    f, r = rng.randint(1, 6), rng.randint(2, 4)
    p, d = sq(f, r), sq(f, r + 1)
    left, right = sq(f - 1, r + 2), sq(f + 1, r + 2)
    b.put(p, W, P)
    kinds = [N, BI, R, Q]
    b.put(left, B, rng.choice(kinds))
    b.put(right, B, rng.choice(kinds))
    bk = b.king_far(B, [left, right, d], ranks=range(5, 8))
    b.king_far(W, [bk], ranks=range(0, 3))
    b.scatter(B, P, rng.randint(0, 2), range(5, 7), keep_clear=[d])
    return b, chess.Move(p, d), ['fork'], 'pawn fork of two pieces', 150, 3


def t_line_fork(rng):
    b = Build(rng)
    kind = rng.choice([Q, Q, BI, R])
    d = sq(rng.randint(1, 6), rng.randint(2, 5))
    rays = [ray(d, df, dr) for df, dr in DIRS[kind]]
    rays = [x for x in rays if x]
    rng.shuffle(rays)
    if len(rays) < 2:
        raise Retry()
    ks = rng.choice(rays[0][:4])
    ts = rng.choice(rays[1][:5])
    if chess.square_distance(ks, d) < 2 or chess.square_distance(ts, d) < 2:
        raise Retry()
    b.put(ks, B, K)
    tkind = rng.choice([R, N, BI]) if kind == Q else rng.choice([R, Q] if kind == BI else [Q, N, BI])
    b.put(ts, B, tkind)
    s = line_start(rng, b.pieces, kind, d, [ks, ts])
    b.put(s, W, kind)
    b.reserve((d, ks), (d, ts), (s, d))
    b.king_far(W, [ks, d, ts])
    b.scatter(B, P, rng.randint(1, 3), range(5, 7), keep_clear=[d])
    b.scatter(W, P, rng.randint(0, 2), range(1, 3), keep_clear=[d])
    return b, chess.Move(s, d), ['fork'], f'{chess.piece_name(kind)} fork of king and {chess.piece_name(tkind)}', 150, 3


def t_pin(rng):
    b = Build(rng)
    kind, pinned = rng.choice([(BI, Q), (BI, R), (R, Q), (BI, Q)])
    df, dr = rng.choice(DIRS[kind])
    k = sq(rng.randint(0, 7), rng.randint(4, 7))
    line = ray(k, df, dr)
    if len(line) < 3:
        raise Retry()
    a = rng.randint(0, min(2, len(line) - 2))
    fsq = line[a]
    dsq = line[rng.randint(a + 1, min(a + 3, len(line) - 1))]
    b.put(k, B, K)
    b.put(fsq, B, pinned)
    # The pinner is defended: a pawn (or the king) behind it.
    guard = [s for s in (sq(chess.square_file(dsq) - 1, chess.square_rank(dsq) - 1),
                         sq(chess.square_file(dsq) + 1, chess.square_rank(dsq) - 1))
             if s is not None and 1 <= chess.square_rank(s) <= 6 and b.free(s)]
    if not guard:
        raise Retry()
    b.put(rng.choice(guard), W, P)
    s = line_start(rng, b.pieces, kind, dsq, [k, fsq])
    b.put(s, W, kind)
    b.reserve((k, dsq), (s, dsq))
    b.king_far(W, [k, fsq, dsq])
    b.scatter(B, P, rng.randint(1, 3), range(5, 7), keep_clear=[dsq])
    return b, chess.Move(s, dsq), ['pin'], f'{chess.piece_name(kind)} pins the {chess.piece_name(pinned)} to the king', 100, 4


def t_skewer(rng):
    b = Build(rng)
    kind = rng.choice([BI, R, Q])
    df, dr = rng.choice(DIRS[kind])
    dsq = sq(rng.randint(0, 7), rng.randint(0, 7))
    line = ray(dsq, df, dr)
    if len(line) < 3:
        raise Retry()
    a = rng.randint(1, min(3, len(line) - 2))
    front = line[a]
    back = line[rng.randint(a + 1, min(a + 3, len(line) - 1))]
    queen_front = kind != Q and rng.random() < 0.3
    if queen_front:
        b.put(front, B, Q)
        b.put(back, B, R)
        b.king_far(B, [front, back, dsq])
    else:
        b.put(front, B, K)
        b.put(back, B, Q if kind != Q else R)
    if chess.square_distance(front, back) < 2:
        raise Retry()
    s = line_start(rng, b.pieces, kind, dsq, [front, back])
    b.put(s, W, kind)
    b.reserve((dsq, back), (s, dsq))
    bk = [x for x, p in b.pieces.items() if p == chess.Piece(K, B)][0]
    b.king_far(W, [bk, dsq])
    b.scatter(B, P, rng.randint(0, 2), range(5, 7), keep_clear=[dsq])
    note = 'skewer of queen and rook' if queen_front else f'{chess.piece_name(kind)} skewers the king'
    return b, chess.Move(s, dsq), ['skewer'], note, 100, 4


def t_hanging(rng):
    b = Build(rng)
    tkind = rng.choice([N, BI, R, Q])
    t = sq(rng.randint(0, 7), rng.randint(2, 6))
    b.put(t, B, tkind)
    akind = rng.choice([P, N, BI, R, Q])
    if akind == P:
        s = rng.choice([x for x in (sq(chess.square_file(t) - 1, chess.square_rank(t) - 1),
                                     sq(chess.square_file(t) + 1, chess.square_rank(t) - 1)) if x is not None])
        if chess.square_rank(s) < 1:
            raise Retry()
    elif akind == N:
        s = rng.choice(list(chess.SquareSet(chess.BB_KNIGHT_ATTACKS[t])))
    else:
        s = line_start(rng, b.pieces, akind, t, [])
    b.put(s, W, akind)
    b.reserve((s, t))
    bk = b.king_far(B, [t, s], ranks=range(5, 8))
    b.king_far(W, [bk, t], ranks=range(0, 3))
    b.scatter(B, P, rng.randint(0, 3), range(4, 7))
    b.scatter(W, P, rng.randint(0, 3), range(1, 4))
    board = b.board()
    defended = board.is_attacked_by(B, t)
    if defended and VALUE[akind] + 100 > VALUE[tkind]:
        raise Retry()
    note = f'{chess.piece_name(tkind)} {"en prise" if defended else "undefended"}, taken by a {chess.piece_name(akind)}'
    return b, chess.Move(s, t), ['hanging'], note, 100, 3


def t_discovered(rng):
    b = Build(rng)
    kind = rng.choice([BI, R, Q])
    df, dr = rng.choice(DIRS[kind])
    s = sq(rng.randint(0, 7), rng.randint(0, 3))
    line = ray(s, df, dr)
    if len(line) < 3:
        raise Retry()
    blocker = line[rng.randint(0, min(1, len(line) - 3))]
    target = line[rng.randint(line.index(blocker) + 1, min(line.index(blocker) + 4, len(line) - 1))]
    check_version = rng.random() < 0.4
    b.put(s, W, kind)
    b.reserve((s, target))
    if check_version:
        # The line piece aims at the king; the blocker attacks the queen as it leaves.
        b.put(target, B, K)
        moves = [m for m in chess.SquareSet(chess.BB_KNIGHT_ATTACKS[blocker])
                 if b.free(m) and not chess.BB_SQUARES[m] & chess.ray(s, target)]
        rng.shuffle(moves)
        for d in moves:
            if chess.BB_KNIGHT_ATTACKS[d] & chess.BB_SQUARES[target]:
                continue  # the knight would check too: a double check, a fork
            qs = [x for x in chess.SquareSet(chess.BB_KNIGHT_ATTACKS[d]) if b.free(x) and x != target]
            if qs:
                b.put(blocker, W, N)
                b.put(rng.choice(qs), B, Q)
                break
        else:
            raise Retry()
        b.king_far(W, [target])
        b.scatter(B, P, rng.randint(0, 2), range(5, 7))
        return b, chess.Move(blocker, d), ['discovered'], f'discovered check by the {chess.piece_name(kind)}', 100, 3
    tkind = Q if kind != Q else R
    b.put(target, B, tkind)
    k_options = []
    for d in chess.SquareSet(chess.BB_KNIGHT_ATTACKS[blocker]):
        if not b.free(d) or chess.BB_SQUARES[d] & chess.ray(s, target):
            continue
        if chess.BB_KNIGHT_ATTACKS[d] & chess.BB_SQUARES[target]:
            continue
        for ks in chess.SquareSet(chess.BB_KNIGHT_ATTACKS[d]):
            if b.free(ks) and chess.square_distance(ks, target) >= 2:
                k_options.append((d, ks))
    if not k_options:
        raise Retry()
    d, ks = rng.choice(k_options)
    b.put(blocker, W, N)
    b.put(ks, B, K)
    b.king_far(W, [ks, d])
    b.scatter(B, P, rng.randint(0, 2), range(5, 7), keep_clear=[d])
    return b, chess.Move(blocker, d), ['discovered'], f'discovered attack by the {chess.piece_name(kind)} on the {chess.piece_name(tkind)}', 100, 3


def t_promotion(rng):
    b = Build(rng)
    f = rng.randint(0, 7)
    run = rng.random() < 0.4
    rank = rng.choice([4, 5]) if run else 6
    p = sq(f, rank)
    b.put(p, W, P)
    if run:
        # The black king outside the pawn's square.
        far = [s for s in b.empty_squares()
               if max(abs(chess.square_file(s) - f), 7 - chess.square_rank(s)) > 7 - rank + 1
               and abs(chess.square_file(s) - f) >= 2]
        if not far:
            raise Retry()
        bk = rng.choice(far)
        b.put(bk, B, K)
        b.king_far(W, [bk], ranks=range(0, 3))
        b.scatter(B, P, rng.randint(0, 2), range(3, 7), keep_clear=[sq(f, x) for x in range(8)]
                  + [sq(f - 1, x) for x in range(8) if f > 0] + [sq(f + 1, x) for x in range(8) if f < 7])
        return b, chess.Move(p, sq(f, rank + 1)), ['promotion'], f'passed pawn run from rank {rank + 1}', 600, 6
    bk = b.king_far(B, [sq(f, 7), p], ranks=range(3, 8))
    if chess.square_distance(bk, sq(f, 7)) < 2:
        raise Retry()
    b.king_far(W, [bk], ranks=range(0, 4))
    b.scatter(B, P, rng.randint(0, 3), range(2, 6))
    return b, chess.Move(p, sq(f, 7), promotion=Q), ['promotion'], 'promotion to a queen', 300, 3


def boxed_king(b, kf):
    """The black king on its back rank on file kf, walled in by its own
    pawns in front: the start of the back-rank templates. Its square."""
    k = sq(kf, 7)
    b.put(k, B, K)
    for df in (-1, 0, 1):
        s = sq(kf + df, 6)
        if s is not None:
            b.put(s, B, P)
    return k


def clear_to_back_rank(b, start):
    """Retries unless the squares of start's file between it and the back
    rank are free: the way a rook or queen goes up to mate there."""
    for r in range(chess.square_rank(start) + 1, 7):
        if not b.free(sq(chess.square_file(start), r)):
            raise Retry()


def t_back_rank(rng):
    b = Build(rng)
    kf = rng.randint(0, 7)
    k = boxed_king(b, kf)
    two = rng.random() < 0.35
    kind = rng.choice([R, R, Q])
    files = [f for f in range(8) if abs(f - kf) >= 2]
    mf = rng.choice(files)
    m = sq(mf, 7)
    # The mating piece comes up its file.
    start = sq(mf, rng.randint(0, 3))
    clear_to_back_rank(b, start)
    b.put(start, W, kind)
    note = f'back-rank mate by the {chess.piece_name(kind)}'
    if two:
        # A black rook takes on the back rank; a second rook behind mates.
        b.put(sq(mf, chess.square_rank(start) - 1) if chess.square_rank(start) > 0 else None, W, R)
        rs = rng.choice([s for s in range(56, 64) if b.free(s)
                         and path_clear(b.pieces, s, m) and abs(chess.square_file(s) - kf) >= 1
                         and not chess.BB_SQUARES[s] & chess.between(k, m)])
        b.put(rs, B, R)
        note = 'back-rank mate in two: the defender taken off the rank'
    b.king_far(W, [k], ranks=range(0, 2))
    b.scatter(B, P, rng.randint(0, 2), range(3, 6))
    return b, chess.Move(start, m), ['mate', 'back_rank'], note, None, None


def t_smothered(rng):
    b = Build(rng)
    k = sq(7, 7)
    b.put(k, B, K)
    b.put(sq(6, 6), B, P)
    b.put(sq(7, 6), B, P)
    if rng.random() < 0.5:
        b.put(sq(6, 7), B, rng.choice([R, R, BI]))
        start = rng.choice([s for s in chess.SquareSet(chess.BB_KNIGHT_ATTACKS[sq(5, 6)])
                            if b.free(s) and not chess.BB_KNIGHT_ATTACKS[s] & chess.BB_SQUARES[k]])
        b.put(start, W, N)
        b.king_far(W, [k], ranks=range(0, 3))
        b.scatter(B, P, rng.randint(0, 3), range(3, 6))
        return b, chess.Move(start, sq(5, 6)), ['mate', 'smothered'], 'smothered mate', None, None
    # Philidor's: the queen sacrificed on g8, the rook takes, the knight mates.
    b.put(sq(7, 5), W, N)
    rook = rng.choice([s for s in range(56, 62) if path_clear(b.pieces, s, sq(6, 7))])
    b.put(rook, B, R)
    qstart = line_start(rng, b.pieces, Q, sq(6, 7), [k])
    b.put(qstart, W, Q)
    b.king_far(W, [k], ranks=range(0, 3))
    b.scatter(B, P, rng.randint(0, 3), range(3, 6))
    return b, chess.Move(qstart, sq(6, 7)), ['mate', 'smothered'], "Philidor's smothered mate", None, None


def t_mate_threat(rng):
    b = Build(rng)
    kf = rng.randint(1, 7)
    k = boxed_king(b, kf)
    kind = rng.choice([R, Q])
    mf = rng.choice([f for f in range(8) if abs(f - kf) >= 2])
    dest = sq(mf, rng.randint(0, 2))
    clear_to_back_rank(b, dest)
    # It arrives along its rank.
    starts = [sq(f, chess.square_rank(dest)) for f in range(8)
              if f != mf and path_clear(b.pieces, sq(f, chess.square_rank(dest)), dest)
              and b.free(sq(f, chess.square_rank(dest)))]
    if not starts:
        raise Retry()
    start = rng.choice(starts)
    if chess.square_file(start) == kf:
        raise Retry()
    b.put(start, W, kind)
    b.king_far(W, [k], ranks=range(0, 2))
    b.scatter(B, P, rng.randint(0, 2), range(3, 6))
    b.scatter(W, P, rng.randint(1, 3), range(1, 3))
    return b, chess.Move(start, dest), ['mate_threat'], 'back-rank mate threatened', None, None


def t_removed_defender(rng):
    b = Build(rng)
    # The black knight alone defends a black rook or bishop that the white queen attacks.
    tsq = sq(rng.randint(1, 6), rng.randint(3, 6))
    tkind = rng.choice([R, BI, R])
    b.put(tsq, B, tkind)
    dsq = rng.choice([s for s in chess.SquareSet(chess.BB_KNIGHT_ATTACKS[tsq])
                      if 2 <= chess.square_rank(s) <= 6])
    b.put(dsq, B, N)
    guard = [s for s in (sq(chess.square_file(dsq) - 1, chess.square_rank(dsq) + 1),
                         sq(chess.square_file(dsq) + 1, chess.square_rank(dsq) + 1)) if b.free(s)]
    if not guard:
        raise Retry()
    b.put(rng.choice(guard), B, P)
    qs = line_start(rng, b.pieces, Q, tsq, [dsq])
    b.put(qs, W, Q)
    bs = line_start(rng, b.pieces, BI, dsq, [tsq, qs])
    b.put(bs, W, BI)
    bk = b.king_far(B, [tsq, dsq], ranks=range(6, 8))
    b.king_far(W, [bk], ranks=range(0, 2))
    board = b.board()
    attackers = board.attackers(B, tsq)
    if list(attackers) != [dsq]:
        raise Retry()
    return b, chess.Move(bs, dsq), ['removed_defender'], 'the defender taken, then what it defended', 100, 4


def t_overloaded(rng):
    b = Build(rng)
    # A black queen guards a rook on its back rank and a minor piece; a
    # rook takes the back-rank rook, the queen recaptures, the minor falls.
    t1 = sq(rng.randint(0, 7), 7)
    b.put(t1, B, R)
    d = rng.choice([s for s in ray(t1, 0, -1)[:3]])
    b.put(d, B, Q)
    board = b.board()
    reach = [s for s in chess.SquareSet(board.attacks(d))
             if b.free(s) and s != t1 and 2 <= chess.square_rank(s) <= 5
             and not chess.BB_SQUARES[s] & chess.ray(t1, d)]
    if not reach:
        raise Retry()
    t2 = rng.choice(reach)
    b.put(t2, B, rng.choice([N, BI]))
    # The white rook comes to t1 along the back rank... from below, on another file? along rank 8.
    rs = [s for s in range(56, 64) if b.free(s) and path_clear(b.pieces, s, t1)]
    if not rs:
        raise Retry()
    r = rng.choice(rs)
    b.put(r, W, R)
    kind2 = rng.choice([BI, R])
    w2 = line_start(rng, b.pieces, kind2, t2, [d])
    b.put(w2, W, kind2)
    board = b.board()
    if not board.is_attacked_by(W, t2) or list(board.attackers(B, t2)) != [d]:
        raise Retry()
    if list(board.attackers(W, t1)) != [r]:
        raise Retry()  # a second attacker of the rook makes the capture a plain win
    if board.attackers(W, d):
        raise Retry()  # the queen itself attacked: taking it is the point
    bk = b.king_far(B, [t1, d, t2], ranks=range(5, 8))
    b.king_far(W, [bk], ranks=range(0, 2))
    return b, chess.Move(r, t1), ['overloaded'], 'the queen recaptures and leaves the minor piece', 100, 4


def t_trapped(rng):
    b = Build(rng)
    # A black bishop on a2 that took a pawn: b3 (defended by c2) walls it
    # in, the king on c1 covers b1, and Kb2 and Kxa2 follow.
    b.put(sq(0, 1), B, BI)
    b.put(sq(1, 1), W, P)
    b.put(sq(2, 1), W, P)
    b.put(sq(2, 0), W, K)
    b.reserve((sq(0, 1), sq(6, 7)))
    bk = b.king_far(B, [sq(0, 1), sq(1, 2)], ranks=range(5, 8))
    if chess.square_distance(bk, sq(0, 1)) < 6:
        raise Retry()
    b.scatter(B, P, rng.randint(1, 3), range(4, 7))
    b.scatter(W, P, rng.randint(0, 2), range(1, 3))
    return b, chess.Move(sq(1, 1), sq(1, 2)), ['trapped'], 'bishop trapped on a2 by b3', 200, 5


TEMPLATES = [
    ('fork', t_knight_fork, 30), ('fork', t_pawn_fork, 12), ('fork', t_line_fork, 18),
    ('pin', t_pin, 35), ('skewer', t_skewer, 35), ('hanging', t_hanging, 35),
    ('discovered', t_discovered, 35), ('promotion', t_promotion, 35),
    ('back_rank', t_back_rank, 30), ('smothered', t_smothered, 14),
    ('mate_threat', t_mate_threat, 16), ('removed_defender', t_removed_defender, 14),
    ('overloaded', t_overloaded, 14), ('trapped', t_trapped, 12),
]


def transform(pieces, move, flip_files, swap_colours):
    def f(s):
        if flip_files:
            s = chess.square(7 - chess.square_file(s), chess.square_rank(s))
        if swap_colours:
            s = chess.square_mirror(s)
        return s
    out = {}
    for s, p in pieces.items():
        out[f(s)] = chess.Piece(p.piece_type, p.color != swap_colours)
    board = chess.Board(None)
    for s, p in out.items():
        board.set_piece_at(s, p)
    board.turn = W if not swap_colours else B
    board.castling_rights = 0
    board.ep_square = None
    return board, chess.Move(f(move.from_square), f(move.to_square), move.promotion)


def facts(board, move, labels):
    """Board facts python-chess sees, added to the labels."""
    labels = set(labels)
    if threatens_mate(board, move):
        labels.add('mate_threat')
    n = mate_length(board, move, 3)
    if n:
        labels.add('mate')
        labels |= mate_patterns(board, move, n)
    return labels


def constructed(rng, per_template_scale):
    rows = []
    seen = set()
    for name, template, count in TEMPLATES:
        made, tries = 0, 0
        want = max(1, round(count * per_template_scale))
        while made < want and tries < 20000:
            tries += 1
            try:
                b, move, labels, note, need, depth = template(rng)
            except (Retry, IndexError, ValueError):
                continue
            board, move = transform(b.pieces, move, rng.random() < 0.5, rng.random() < 0.5)
            if not board.is_valid() or board.is_check() or move not in board.legal_moves:
                continue
            if board.epd() in seen:
                continue
            if any(_mates(board, m) for m in board.legal_moves) and 'mate' not in labels:
                continue  # a mate in one elsewhere would be the real point
            if need is not None:
                if gain(board, move, depth) < need:
                    continue
            else:
                n = mate_length(board, move, 2)
                if 'mate' in labels and not n:
                    continue
                if name == 'mate_threat' and not threatens_mate(board, move):
                    continue
            if name == 'trapped' and not bishop_was_free(board, move):
                continue
            seen.add(board.epd())
            made += 1
            rows.append((board, move, facts(board, move, labels),
                         f'{name}.{template.__name__[2:]}.{made:03d}',
                         f'constructed: {note}'))
    return rows


def bishop_was_free(board, move):
    """Before the trapping move the bishop could have left (with the move
    passed to its side): the move traps it."""
    b = board.copy()
    b.push(chess.Move.null())
    bishops = [s for s in b.pieces(chess.BISHOP, b.turn)]
    return any(b.piece_at(m.from_square).piece_type == chess.BISHOP and not b.is_attacked_by(not b.turn, m.to_square)
               for m in b.legal_moves if m.from_square in bishops)


def known(path_wac, path_mates):
    rows = []
    for line in open(path_wac):
        if ' bm ' not in line:
            continue
        board, ops = chess.Board.from_epd(line.strip())
        for move in ops.get('bm', [])[:1]:
            n = mate_length(board, move, 3)
            ident = ops.get('id', '?')
            if n:
                labels = facts(board, move, ['mate'])
                rows.append((board, move, labels, f'{ident}', f'WAC (MIT): mate in {n} from the solution'))
                continue
            victim = board.piece_at(move.to_square) if board.is_capture(move) else None
            if (victim and victim.piece_type in (N, BI, R, Q)
                    and not board.is_attacked_by(victim.color, move.to_square)
                    and gain(board, move, 3) >= VALUE[victim.piece_type] - 50):
                rows.append((board, move, facts(board, move, ['hanging']), ident,
                             'WAC (MIT): the solution takes an undefended piece'))
    for line in open(path_mates):
        fields = line.split(' bm #')
        if len(fields) < 2:
            continue
        n = int(fields[1].split(';')[0])
        if not 1 <= n <= 2:
            continue
        board = chess.Board(fields[0] + ' 0 1')
        found = None
        for m in ordered(board, list(board.legal_moves)):
            if mate_length(board, m, n) == n:
                found = m
                break
        if found:
            rows.append((board, found, facts(board, found, ['mate']),
                         f'matetrack.{len(rows)}', f'matetrack (GPL-3.0): mate in {n}, the move found by python-chess'))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--seed', type=int, default=62)
    ap.add_argument('--scale', type=float, default=1.0, help='entries per template, as a share of the default counts')
    ap.add_argument('--wac', default='../shared/data/wac.epd')
    ap.add_argument('--matetrack', default='../shared/data/matetrack/matetrack.epd')
    args = ap.parse_args()
    rng = random.Random(args.seed)
    rows = constructed(rng, args.scale) + known(args.wac, args.matetrack)
    print(f'# Kestrel motif set: {len(rows)} positions, built by scripts/motif_set.py --seed {args.seed}.')
    print('# Each line: FEN, bm (the move), motif (its labels, comma-separated), id, c0 (its source).')
    print('# WAC positions: MIT (jdart1/arasan-chess tests/wacnew.epd); matetrack positions:')
    print('# GPL-3.0 (vondele/matetrack); constructed ones: GPL-3.0-or-later (Kestrel\'s).')
    for board, move, labels, ident, note in rows:
        print(board.epd(bm=move, motif=','.join(sorted(labels)), id=ident, c0=note))


if __name__ == '__main__':
    main()
