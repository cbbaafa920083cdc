// The page's three pages, each at its own address as on lichess: /play (a
// game against Kestrel: board, clocks, moves, resign and draw), /analysis
// (the analysis board: engine lines, players, explorer, PGN and FEN, game
// review) and /editor (the board editor). One document: the address sets
// body[data-page] and style.css shows that page's panels; the game stays
// the same (?game=ID). Also the confirmations a player is asked for
// (resigning, offering a draw, taking back). Loaded before app.js, whose
// state (S) and helpers it uses when called.
'use strict';

const PAGE_NAMES = ['play', 'analysis', 'editor'];

// The page the address names; `/` is the analysis board.
function pageInUrl() {
  const name = location.pathname.replace(/^\/+|\/+$/g, '');
  return PAGE_NAMES.includes(name) ? name : 'analysis';
}

// Shows page `name` and puts it in the address: a new history entry
// (Back returns) unless `replace`.
function setPage(name, replace = false) {
  document.body.dataset.page = name;
  for (const a of document.querySelectorAll('#pages a')) {
    if (a.dataset.page === name) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  if (location.pathname === `/${name}`) return;
  const u = new URL(location.href);
  u.pathname = `/${name}`;
  if (replace) history.replaceState(null, '', u);
  else history.pushState(null, '', u);
}

// Opens page `name` (from the header, the history, a reload): the editor
// starts editing the position on view, the other pages leave the editor;
// /play without a game against Kestrel is the analysis board.
function openPage(name, replace = false) {
  if (name === 'editor') { if (!S.edit) startEdit(); return; }
  if (S.edit) endEdit();
  setPage(name === 'play' && !S.match ? 'analysis' : name, replace);
}

// After a reload or an address typed in: the page the address names.
const restorePageFromUrl = () => openPage(pageInUrl(), true);

// ---------- confirmations ----------

// Asks "text" under the board; `action` runs on Yes. lichess asks before
// a resignation, a draw offer and a takeback: so does this page.
function confirmThen(text, action) {
  $('confirm-text').textContent = text;
  $('confirm').classList.remove('hidden');
  $('confirm-yes').onclick = () => { closeConfirm(); action(); };
  $('confirm-yes').focus();
}

function closeConfirm() {
  $('confirm').classList.add('hidden');
  $('confirm-yes').onclick = null;
}

function wirePages() {
  for (const a of document.querySelectorAll('#pages a')) {
    a.onclick = (ev) => { ev.preventDefault(); openPage(a.dataset.page); };
  }
  $('confirm-no').onclick = closeConfirm;
  window.addEventListener('popstate', restorePageFromUrl);
}
