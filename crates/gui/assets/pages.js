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
// /play without a game against Kestrel opens the new-game dialog there,
// as lichess's Play does (cancelled, it is the analysis board).
function openPage(name, replace = false) {
  if (name === 'editor') { if (!S.edit) startEdit(); return; }
  if (S.edit) endEdit();
  setPage(name, replace);
  if (name === 'play' && !S.match) openMatchDialog(); // match.js
}

// After a reload or an address typed in: the page the address names.
const restorePageFromUrl = () => openPage(pageInUrl(), true);

// The browser's Back and Forward: the page the address names, and its
// game when that is another (each game has its own address: persist.js).
async function followUrl() {
  const id = gameInUrl();
  if (id && S.game && id !== S.game.id) await openGameAt(id); // persist.js
  restorePageFromUrl();
}

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

// A game against Kestrel in progress: what leaving it would throw away.
const matchRunning = () => !!(S.match && S.game && !S.game.status.over);

// Moves made on this page that no PGN was taken of yet (Show or Download
// PGN): the game stays at its own address, but the player is asked before
// the page leaves it.
const unsavedStudy = () => !!(S.game && !S.game.status.final && S.game.nodes.length > 1
  && S.game.version !== S.savedVersion);

// Runs `action`, which leaves the game on view for another (New game, a
// FEN or PGN loaded, a game against Kestrel started), once the player
// agrees: a game against Kestrel in progress is resigned first, a study
// with moves made here is left as it is (Back returns to it). Nothing a
// player made goes in one click.
function leaveGameThen(action) {
  if (matchRunning()) {
    confirmThen('A game against Kestrel is in progress: resign it and leave?', async () => {
      await resign(); // match.js
      if ($('over-dialog').open) $('over-dialog').close(); // the next game is on its way
      await action();
    });
  } else if (unsavedStudy()) {
    confirmThen('Leave this game? It stays at its address: Back returns to it.', action);
  } else {
    action();
  }
}

function wirePages() {
  for (const a of document.querySelectorAll('#pages a')) {
    a.onclick = (ev) => { ev.preventDefault(); openPage(a.dataset.page); };
  }
  $('confirm-no').onclick = closeConfirm;
  window.addEventListener('popstate', followUrl);
  // Closing the tab or leaving the site during a game against Kestrel asks
  // first (the browser's own question); a reload comes back to the game.
  window.addEventListener('beforeunload', (ev) => { if (matchRunning()) { ev.preventDefault(); ev.returnValue = ''; } });
}
