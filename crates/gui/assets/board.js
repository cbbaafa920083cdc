// The board: lichess's chessground (assets/chessground, an ES module that
// app.js's main imports and hands to createBoard), drawn from S: the
// position on view, the side that may move and its legal moves (the server
// lists them), premoves while an engine player thinks, the engine's arrows,
// and the arrows and circles you draw with the right button, kept per
// position. Loaded before app.js, whose state (S) and helpers it uses.
'use strict';

const ROLES = { p: 'pawn', n: 'knight', b: 'bishop', r: 'rook', q: 'queen', k: 'king' };
const colourOf = (side) => (side === 'w' ? 'white' : 'black');

const BOARD = {
  cg: null,           // chessground's API
  key: null,          // the position on the board, as positionKey gives it
  shapes: new Map(),  // positionKey -> the arrows and circles drawn there
};

// Drawn shapes belong to a position, wherever it comes in the game: the
// FEN without its move counters.
const positionKey = (fen) => fen.split(' ').slice(0, 4).join(' ');

function createBoard(Chessground) {
  BOARD.cg = Chessground($('board'), {
    coordinates: true,
    animation: { enabled: true, duration: 200 },
    // In the editor chessground moves any piece itself (editor.js hears the change).
    movable: { free: false, showDests: true, events: { after: (orig, dest) => { if (!S.edit) tryMove(orig, dest); } } },
    premovable: { enabled: true, showDests: true, castle: true },
    draggable: { enabled: true, showGhost: true },
    drawable: {
      enabled: true,
      visible: true,
      // Your arrows stay with their position: set again when it comes back.
      onChange: (shapes) => { if (BOARD.key) BOARD.shapes.set(BOARD.key, shapes); },
    },
    // The editor puts the picked spare piece where you click, and follows
    // every change of the board (editor.js).
    events: { select: (key) => { if (S.edit) editSquare(key); }, change: () => editBoardChanged() },
  });
  // chessground keeps where the board is on screen and forgets it only on
  // a scroll or a resize; the page moves the board otherwise too (a clock
  // shown above it), so the place is read again at each press.
  for (const type of ['mousedown', 'touchstart']) {
    $('board').addEventListener(type, () => BOARD.cg.state.dom.bounds.clear(), { capture: true, passive: true });
  }
}

// The legal moves as chessground wants them: from-square -> to-squares.
function destsOf(legal) {
  const dests = new Map();
  for (const m of legal) {
    const to = dests.get(m.from) || [];
    if (!to.includes(m.to)) to.push(m.to);
    dests.set(m.from, to);
  }
  return dests;
}

// The side whose pieces you can move on the board: the side to move when
// it is a human's move; against an engine player, your side while it
// thinks (chessground then keeps the move as a premove); nobody in an
// engine line, the editor or a position of the game that is not its end.
function boardMover() {
  if (S.edit || S.pv || !S.game) return undefined;
  if (humanToMove()) return colourOf(S.game.turn);
  const turn = S.game.turn, other = turn === 'w' ? 'b' : 'w';
  const atEnd = S.game.current === lineEnd(0);
  if (atEnd && !S.game.status.over && S.players[turn] === 'engine' && S.players[other] === 'human') return colourOf(other);
  return undefined;
}

function renderBoard() {
  const cg = BOARD.cg;
  if (!cg || !S.game) return;
  const editing = !!S.edit;
  const fen = editing ? boardToPlacement(S.edit.board) + ' w - - 0 1' : shownFen();
  if (editing) {
    cg.set({ fen, orientation: S.flipped ? 'black' : 'white', lastMove: undefined, check: false, drawable: { enabled: false }, ...editBoardConfig() });
    BOARD.key = null;
    cg.setShapes([]);
    refreshArrows();
    return;
  }
  let last = null;
  if (!editing && S.pv && S.pv.idx > 0) last = S.pv.moves[S.pv.idx - 1];
  else if (!editing && !S.pv && S.game.current !== 0) last = curNode();
  const mover = boardMover();
  if (!mover) cg.cancelPremove();
  cg.set({
    fen,
    orientation: S.flipped ? 'black' : 'white',
    turnColor: colourOf(fen.split(' ')[1]),
    check: !editing && !!isCheck(),
    lastMove: last ? [last.from, last.to] : undefined,
    movable: { color: mover, dests: mover && humanToMove() ? destsOf(S.game.legal) : new Map() },
    drawable: { enabled: !editing },
  });
  // Setting a position clears chessground's drawn shapes: this one's come back.
  BOARD.key = editing ? null : positionKey(fen);
  cg.setShapes(editing ? [] : BOARD.shapes.get(BOARD.key) || []);
  refreshArrows();
}

// A premove made while the engine thought, played now that it is your move.
function playPremove() {
  if (BOARD.cg && humanToMove()) BOARD.cg.playPremove();
}

// The engine's arrows (chessground's auto shapes, under your own): the
// first move of each engine line, the best one blue as on lichess, the
// others grey; without lines, the game analysis's best move (review.js),
// green.
function refreshArrows() {
  if (!BOARD.cg) return;
  BOARD.cg.setAutoShapes(S.edit || S.pv ? [] : engineArrows());
}

function engineArrows() {
  if (hideEval() || S.hideArrows) return [];
  const keys = Object.keys(S.lines).map(Number).sort((a, b) => a - b);
  const live = S.linesFen === viewedFen() ? keys.map((k) => S.lines[k].pv[0]).filter(Boolean) : [];
  const seen = new Set();
  const arrows = [];
  live.forEach((m, n) => {
    if (seen.has(m.uci)) return;
    seen.add(m.uci);
    arrows.push({ orig: m.from, dest: m.to, brush: n === 0 ? 'paleBlue' : 'paleGrey' });
  });
  if (arrows.length) return arrows;
  const reviewed = reviewedHere();
  if (reviewed && reviewed.best_uci) {
    const uci = reviewed.best_uci;
    arrows.push({ orig: uci.slice(0, 2), dest: uci.slice(2, 4), brush: 'paleGreen' });
  }
  return arrows;
}

function isCheck() {
  if (S.pv) return S.pv.idx > 0 && S.pv.moves[S.pv.idx - 1].san.match(/[+#]$/);
  return S.game.check;
}
