// Board colours and piece sets, picked in the "Look" panel and kept in
// localStorage for the next visit. The colours are CSS variables that
// body[data-board] switches (style.css); the pieces are the server's SVG
// sets (/pieces/SET/wK.svg), given to chessground's piece elements by a
// style sheet written here. Loaded before app.js, which draws the palette
// and the promotion chooser with pieceImg and calls wireThemes.
'use strict';

const BOARD_THEMES = { brown: 'Brown', blue: 'Blue', green: 'Green' };
const PIECE_THEMES = { cburnett: 'Cburnett', dejavu: 'DejaVu' };
const THEME_KEY = 'kestrel-theme';
const THEME = { board: 'brown', pieces: 'cburnett' };

// A saved choice the page no longer offers (an older version's) is dropped.
function loadTheme() {
  let saved = {};
  try { saved = JSON.parse(localStorage.getItem(THEME_KEY)) || {}; } catch (e) { /* storage off or garbled */ }
  if (saved.board in BOARD_THEMES) THEME.board = saved.board;
  if (saved.pieces in PIECE_THEMES) THEME.pieces = saved.pieces;
}

function saveTheme() {
  try { localStorage.setItem(THEME_KEY, JSON.stringify(THEME)); } catch (e) { /* storage off: this visit only */ }
}

const pieceImg = (p) => `/pieces/${THEME.pieces}/${p === p.toUpperCase() ? 'w' : 'b'}${p.toUpperCase()}.svg`;

// chessground draws a piece as <piece class="ROLE COLOUR">, its image the
// element's background: one rule per piece for the set chosen.
function pieceStyle() {
  const rules = [];
  for (const [letter, role] of Object.entries(ROLES)) {
    for (const [p, colour] of [[letter.toUpperCase(), 'white'], [letter, 'black']]) {
      rules.push(`.cg-wrap piece.${role}.${colour} { background-image: url("${pieceImg(p)}"); }`);
    }
  }
  return rules.join('\n');
}

function applyTheme() {
  document.body.dataset.board = THEME.board;
  document.body.dataset.pieces = THEME.pieces;
  $('piece-style').textContent = pieceStyle();
  $('theme-board').value = THEME.board;
  $('theme-pieces').value = THEME.pieces;
  if (!S.game) return;
  renderBoard();
  if (S.edit) buildPalette();
}

function wireThemes() {
  const fill = (select, names) => {
    for (const [value, text] of Object.entries(names)) select.add(new Option(text, value));
  };
  fill($('theme-board'), BOARD_THEMES);
  fill($('theme-pieces'), PIECE_THEMES);
  $('theme-board').onchange = () => { THEME.board = $('theme-board').value; saveTheme(); applyTheme(); };
  $('theme-pieces').onchange = () => { THEME.pieces = $('theme-pieces').value; saveTheme(); applyTheme(); };
  loadTheme();
  applyTheme();
}
