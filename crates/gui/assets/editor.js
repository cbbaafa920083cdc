// The board editor (/editor), as lichess's: pieces move on the board by
// drag or by click (pick one up, put it down), go off it when dragged off,
// and come from the spare pieces beside it (dragged on, or picked and then
// clicked onto squares; the ✕ takes pieces off by click). The side to
// move, castling rights and the en-passant square are set beside it, and
// the FEN box follows every edit and takes a pasted FEN. "Analyse" opens
// the position on the analysis board, "Play from here" a game against
// Kestrel from it (the new-game dialog first). The rules are checked when
// the position is used: a position the rules refuse shows their message.
// Loaded before app.js, whose state (S) and helpers it uses when called.
'use strict';

const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

// Opens the editor on the position on view.
function startEdit() {
  stopSearch();
  setPage('editor'); // pages.js
  S.edit = { board: null, tool: 'move' };
  loadEditFen(shownFen());
  $('edit-error').textContent = '';
  $('editor').classList.remove('hidden');
  buildPalette();
  renderBoard();
}

// The editor takes `fen` (its placement, side, castling and en passant).
function loadEditFen(fen) {
  const { board, turn, castling, ep } = parseFen(fen);
  S.edit.board = board;
  $('edit-turn').value = turn === 'b' ? 'b' : 'w';
  for (const c of 'KQkq') $(`edit-${c}`).checked = (castling || '').includes(c);
  $('edit-ep').value = !ep || ep === '-' ? '' : ep;
  showEditFen();
}

// The FEN of the position as edited.
function editFen() {
  const castling = [...'KQkq'].filter((c) => $(`edit-${c}`).checked).join('') || '-';
  const ep = $('edit-ep').value.trim() || '-';
  return `${boardToPlacement(S.edit.board)} ${$('edit-turn').value} ${castling} ${ep} 0 1`;
}

// Castling rights the pieces allow: a king and a rook on their squares.
// A right they no longer allow goes (and its box cannot be ticked).
const CASTLING = { K: ['e1', 'h1', 'K', 'R'], Q: ['e1', 'a1', 'K', 'R'], k: ['e8', 'h8', 'k', 'r'], q: ['e8', 'a8', 'k', 'r'] };
function fitCastling() {
  for (const [right, [king, rook, k, r]] of Object.entries(CASTLING)) {
    const allowed = S.edit.board[sqIndex(king)] === k && S.edit.board[sqIndex(rook)] === r;
    const box = $(`edit-${right}`);
    box.disabled = !allowed;
    if (!allowed) box.checked = false;
  }
}

// The FEN box follows the edit (unless it is being typed in).
function showEditFen() {
  fitCastling();
  if (document.activeElement !== $('edit-fen')) $('edit-fen').value = editFen();
}

// The spare pieces and the tools: the hand (move pieces on the board), a
// piece to put on squares by click (or drag it on), ✕ to take pieces off.
function buildPalette() {
  const pal = $('palette');
  pal.innerHTML = '';
  for (const p of ['move', ...'KQRBNPkqrbnp', 'x']) {
    const d = document.createElement('button');
    d.type = 'button';
    d.className = 'pc' + (S.edit.tool === p ? ' on' : '');
    d.dataset.piece = p;
    d.title = p === 'x' ? 'Take pieces off (click a square)' : p === 'move' ? 'Move pieces (drag or click)'
      : `Put ${p === p.toUpperCase() ? 'white' : 'black'} ${ROLES[p.toLowerCase()]}s on the board (click a square, or drag it on)`;
    if (p === 'x') d.textContent = '✕';
    else if (p === 'move') d.textContent = '✋';
    else {
      const img = document.createElement('img');
      img.src = pieceImg(p);
      img.draggable = false;
      d.appendChild(img);
      // Dragged onto the board: chessground drops it where it is let go.
      d.addEventListener('mousedown', (ev) => spareDrag(p, ev));
      d.addEventListener('touchstart', (ev) => spareDrag(p, ev), { passive: false });
    }
    d.onclick = () => { S.edit.tool = p; buildPalette(); renderBoard(); };
    pal.appendChild(d);
  }
}

function spareDrag(p, ev) {
  if (ev.button !== undefined && ev.button !== 0) return;
  ev.preventDefault();
  const piece = { role: ROLES[p.toLowerCase()], color: p === p.toUpperCase() ? 'white' : 'black' };
  BOARD.cg.dragNewPiece(piece, ev, true);
}

// chessground's board changed (a piece moved, dropped on, dragged off):
// the editor's position is the board's.
function editBoardChanged() {
  if (!S.edit) return;
  S.edit.board = parseFen(`${BOARD.cg.getFen()} w - - 0 1`).board;
  showEditFen();
}

// A click on a square with a spare piece or ✕ picked: the piece goes there
// (the same piece again takes it off), or the square is emptied.
function editSquare(name) {
  const tool = S.edit.tool;
  if (tool === 'move') return; // chessground moves the piece itself
  const i = sqIndex(name);
  S.edit.board[i] = tool === 'x' || S.edit.board[i] === tool ? null : tool;
  renderBoard();
  showEditFen();
}

// How chessground works in the editor: any piece anywhere, by drag or by
// click with the hand; with a spare piece or ✕ picked, a click puts it
// down (drags still move pieces).
function editBoardConfig() {
  const hand = S.edit.tool === 'move';
  return {
    movable: { free: true, color: 'both', showDests: false, dests: new Map() },
    selectable: { enabled: hand },
    draggable: { deleteOnDropOff: true },
    premovable: { enabled: false },
  };
}

// The position used: a new game on the analysis board, with its own id
// (the game edited from stays at its address); the rules' refusal shown.
async function applyEdit() {
  let view;
  try {
    view = await freshGame(editFen()); // persist.js
  } catch (e) {
    $('edit-error').textContent = e.message;
    return;
  }
  endMatchMode();
  endEdit();
  await showGame(view);
}

// A game against Kestrel from the edited position: the dialog first.
function playFromEdit() {
  $('edit-error').textContent = '';
  openMatchDialog(editFen()); // match.js
}

// Leaves the editor for the page of the game on view.
function endEdit() {
  leaveEditor();
  setPage(S.match && !S.game.status.over ? 'play' : 'analysis');
  render();
}

// The editor closed, whichever page comes next.
function leaveEditor() {
  if (!S.edit) return;
  S.edit = null;
  $('editor').classList.add('hidden');
  BOARD.cg.set({ movable: { free: false }, selectable: { enabled: true }, draggable: { deleteOnDropOff: false }, premovable: { enabled: true } });
}

function wireEditor() {
  $('edit-cancel').onclick = endEdit;
  $('edit-apply').onclick = applyEdit;
  $('edit-play').onclick = playFromEdit;
  $('edit-clear').onclick = () => { loadEditFen('8/8/8/8/8/8/8/8 w - - 0 1'); renderBoard(); };
  $('edit-start').onclick = () => { loadEditFen(START_FEN); renderBoard(); };
  for (const id of ['edit-turn', 'edit-K', 'edit-Q', 'edit-k', 'edit-q', 'edit-ep']) $(id).addEventListener('input', showEditFen);
  // A FEN pasted or typed: the editor takes it (Enter, or leaving the box).
  const takeFen = () => {
    const text = $('edit-fen').value.trim();
    if (!S.edit || !text || text === editFen()) return;
    if (!/^[1-8pnbrqkPNBRQK/]+(\s|$)/.test(text) || text.split(' ')[0].split('/').length !== 8) {
      $('edit-error').textContent = `not a FEN: ${text}`;
      return;
    }
    $('edit-error').textContent = '';
    loadEditFen(text);
    renderBoard();
  };
  $('edit-fen').addEventListener('keydown', (ev) => { if (ev.key === 'Enter') { ev.preventDefault(); takeFen(); $('edit-fen').blur(); } });
  $('edit-fen').addEventListener('change', takeFen);
  $('edit-fen').addEventListener('blur', showEditFen);
}
