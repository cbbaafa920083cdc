// The game kept across reloads. Its id is in the address (?game=ID), so a
// reload finds the server's game again (moves, variations, whether its
// evaluation is hidden), and the page's own part of it (who plays each
// side, the board's side, a game against the computer and its clocks)
// comes back from localStorage. The game's latest PGN is kept there too:
// when the server no longer has the game (it restarted, or dropped the
// game to make room for others: session.rs), a dialog says so and offers
// a new game or the game again from that PGN. Loaded before app.js, whose
// state (S) and helpers it uses when called.
'use strict';

const SAVE_PREFIX = 'kestrel-game:';
const SAVE_MAX = 30;        // games kept in localStorage; the oldest go first
const SAVE_DELAY_MS = 300;  // a burst of changes is saved once
const PERSIST = { timer: 0, version: null, expired: null };

const gameInUrl = () => new URLSearchParams(location.search).get('game');

// Names game `id` in the address: a new history entry when `push` (a
// new game: Back returns to the one before), else in place.
function putGameInUrl(id, push = false) {
  const u = new URL(location.href);
  if (u.searchParams.get('game') === id) return;
  u.searchParams.set('game', id);
  if (push) history.pushState(null, '', u);
  else history.replaceState(null, '', u);
}

// Shows another game under its own address (a new one, or one Back
// returns to): the page's part of the game left is kept first.
async function showGame(view, push = true) {
  if (S.game && S.game.id !== view.id) savePage();
  putGameInUrl(view.id, push);
  await attach(view); // app.js
}

// A new game under its own id (POST /api/game) from `fen` (or the usual
// start), made a game against Kestrel or filled from a PGN by `then`, a
// request sent for it ({ path, body }). The game on view is left as it is.
async function freshGame(fen, then = null) {
  const view = await api('POST', '/api/game', fen ? { fen } : {});
  if (!then) return view;
  return api('POST', then.path, { game: view.id, ...then.body });
}

// Goes to game `id` (the address's, after Back or Forward): the server's
// game with the page's part this browser kept, or the expired dialog.
async function openGameAt(id) {
  let view;
  try {
    view = await api('GET', `/api/state?game=${encodeURIComponent(id)}`);
  } catch (e) {
    if (isMissingGame(e)) showExpired(id);
    else showStatus(e.message);
    return;
  }
  savePage();
  adoptPage(readSaved(id));
  await attach(view);
  restoreView(readSaved(id));
}

// The server's answer for a game it does not have (api.rs, AppState::get).
const isMissingGame = (e) => e.status === 404 && /^no game '/.test(e.message);

function readSaved(id) {
  try { return JSON.parse(localStorage.getItem(SAVE_PREFIX + id)); } catch (e) { return null; }
}

function writeSaved(id, entry) {
  try {
    localStorage.setItem(SAVE_PREFIX + id, JSON.stringify(entry));
    const keys = Object.keys(localStorage).filter((k) => k.startsWith(SAVE_PREFIX));
    if (keys.length <= SAVE_MAX) return;
    const age = (k) => { try { return JSON.parse(localStorage.getItem(k)).savedAt || 0; } catch (e) { return 0; } };
    keys.sort((a, b) => age(a) - age(b)).slice(0, keys.length - SAVE_MAX).forEach((k) => localStorage.removeItem(k));
  } catch (e) { /* storage off or full: this game is not kept */ }
}

// The page's part of the game; clocks as time left now; the move on view
// as the way to it from the start (which child at each step), so that a
// game restored from its PGN, whose nodes are numbered anew, shows it too.
function pageState() {
  const c = S.clock;
  return {
    players: { ...S.players }, flipped: S.flipped, match: S.match,
    clock: c ? { left: { w: timeLeft('w'), b: timeLeft('b') }, inc: c.inc, running: c.running } : null,
    analyse: $('analyse').checked, unsaved: unsavedStudy(), onView: pathTo(S.game.current),
  };
}

// The child indices from the start to node `id`.
function pathTo(id) {
  const out = [];
  for (let n = treeNode(id); n && n.parent != null; n = treeNode(n.parent)) {
    out.unshift(treeNode(n.parent).children.indexOf(n.id));
  }
  return out;
}

// The node at the end of `path` in the game on view (as far as it goes).
function nodeAt(path) {
  let n = treeNode(0);
  for (const i of path || []) {
    const next = n && treeNode(n.children[i]);
    if (!next) break;
    n = next;
  }
  return n ? n.id : 0;
}

// Called with every view of the game: a changed game is saved a moment later.
function gameChanged(view) {
  if (view.version === PERSIST.version) return;
  PERSIST.version = view.version;
  clearTimeout(PERSIST.timer);
  PERSIST.timer = setTimeout(saveGame, SAVE_DELAY_MS);
}

async function saveGame() {
  if (!S.game) return;
  const id = S.game.id;
  try {
    const pgn = await backend.pgn(id);
    if (pgn === null) return;
    writeSaved(id, { pgn, plies: S.game.plies.length, page: pageState(), savedAt: Date.now() });
  } catch (e) { /* the server is gone: the last copy stays */ }
}

// On leaving (a reload): the page's part as it is now, clocks included,
// even when no copy of the moves was saved yet (changes in quick
// succession put that off), so that the players come back as they were.
function savePage() {
  if (!S.game) return;
  const saved = readSaved(S.game.id) || {};
  writeSaved(S.game.id, { ...saved, page: pageState(), savedAt: Date.now() });
}

// A kept copy of the game's moves, or null (none, or only the page's part).
function savedMoves(id) {
  const saved = readSaved(id);
  return saved && saved.pgn ? saved : null;
}

// The page's part of a game back: players, board side, and for a game
// against the computer that goes on, the match and its clocks. After a
// reload the side to move was thinking while the page was away, as on a
// real clock (`chargeAway`); a game restored after the server lost it
// goes on with the clocks as they were kept.
function restorePage(saved, withMatch, chargeAway = true) {
  const page = saved && saved.page;
  if (!page) return;
  Object.assign(S.players, page.players);
  S.flipped = !!page.flipped;
  if (page.analyse != null) $('analyse').checked = page.analyse;
  if (withMatch && page.match) {
    S.match = page.match;
    const c = page.clock;
    if (c) {
      const away = c.running && chargeAway ? Date.now() - saved.savedAt : 0;
      const left = { ...c.left };
      if (c.running) left[c.running] = Math.max(0, left[c.running] - away);
      S.clock = { left, inc: c.inc, running: c.running, since: performance.now() };
    }
  }
  showPlayers();
  renderClocks();
}

// Another game's page part in place of this one's: none of this game's
// match, clocks or engine players carries over.
function adoptPage(saved) {
  S.match = null;
  S.clock = null;
  S.players.w = 'human';
  S.players.b = 'human';
  S.flipped = false;
  restorePage(saved, true);
  showPlayers();
  renderClocks();
}

// After the game is shown: the move that was on view (a game restored
// from its PGN has the node on view at its end), and whether it had moves
// no PGN was taken of.
function restoreView(saved) {
  const page = saved && saved.page;
  if (!page || !S.game) return;
  S.savedVersion = page.unsaved ? -1 : S.game.version;
  const id = nodeAt(page.onView);
  if (id !== S.game.current) gotoNode(id);
}

// The game the address names, or a new one (then named in the address).
// `saved` is what this browser kept of it; `view` is null when the server
// does not have it any more (the dialog then offers the way on).
async function openGame() {
  const id = gameInUrl();
  if (id) {
    try {
      return { view: await api('GET', `/api/state?game=${encodeURIComponent(id)}`), saved: readSaved(id) };
    } catch (e) {
      if (!isMissingGame(e)) throw e;
      return { view: null, saved: null, expired: id };
    }
  }
  const view = await api('POST', '/api/game', {});
  putGameInUrl(view.id);
  return { view, saved: null };
}

function showExpired(id) {
  const d = $('expired-dialog');
  if (d.open) return;
  if (S.events) { S.events.close(); S.events = null; }
  const saved = savedMoves(id);
  PERSIST.expired = { id, saved };
  $('expired-saved').textContent = saved
    ? `This browser kept its moves (${saved.plies} plies, ${new Date(saved.savedAt).toLocaleString()}).`
    : 'This browser kept no copy of its moves.';
  $('expired-restore').disabled = !saved;
  d.showModal();
}

// A new game on the server, from the kept PGN when `restore`; the page
// goes on with it. A game against the computer that was going on goes on
// (same side, level, clocks and hidden evaluation); one that had ended
// comes back ended and final; one the server will not take as either
// comes back as a game to study. `reload`: the page was reloaded (the
// static site's Worker lost its games), so the clock that ran was running
// meanwhile, and the move on view comes back too.
async function startAgain(restore, reload = false) {
  const old = PERSIST.expired;
  $('expired-error').textContent = '';
  try {
    let view = await api('POST', '/api/game', {});
    let resumed = false;
    if (restore && old.saved) {
      const match = old.saved.page && old.saved.page.match;
      const body = { game: view.id, pgn: old.saved.pgn };
      if (match) {
        try {
          view = await api('POST', '/api/pgn', { ...body, vs_engine: true, hide_eval: !!match.hideEval });
          resumed = true;
        } catch (e) { /* over, or not one line: studied instead */ }
      }
      if (!resumed) {
        view = await api('POST', '/api/pgn', body);
        endMatchMode();
      }
      restorePage(old.saved, resumed, reload);
      writeSaved(view.id, { ...old.saved, savedAt: Date.now() });
      try { localStorage.removeItem(SAVE_PREFIX + old.id); } catch (e) { /* storage off */ }
    } else {
      endMatchMode();
    }
    putGameInUrl(view.id);
    if ($('expired-dialog').open) $('expired-dialog').close();
    PERSIST.expired = null;
    await attach(view);
    if (restore) restoreView(old.saved);
  } catch (e) {
    if (reload) showExpired(old.id);
    $('expired-error').textContent = e.message;
  }
}

// A reload of a page whose host lost the game (the static site: its
// Worker's games go with the page): the kept copy comes back at once,
// as it was on screen; without a copy, the expired dialog.
async function reopenKept(id) {
  const saved = savedMoves(id);
  if (!self.kestrelBackend || !saved) { showExpired(id); return; }
  PERSIST.expired = { id, saved };
  await startAgain(true, true);
}

function wirePersist() {
  window.addEventListener('pagehide', savePage);
  // The dialog stays until a way on is picked: behind it there is no game.
  $('expired-dialog').addEventListener('cancel', (ev) => ev.preventDefault());
  $('expired-new').onclick = () => startAgain(false);
  $('expired-restore').onclick = () => startAgain(true);
}
