// Kestrel's page: draws the board and panels from the server's JSON and
// sends moves and searches to the API. The rules live on the server: the
// page only knows the legal moves the server listed.
'use strict';

const $ = (id) => document.getElementById(id);
const FILES = 'abcdefgh';

const S = {
  game: null,          // the server's GameView
  ply: 0,              // the main-line ply on view, or before the variation on view (variations.js)
  flipped: false,
  players: { w: 'human', b: 'human' }, // an analysis board: the engine plays a side only when asked
  settings: { w: null, b: null },
  paused: false,
  lines: {},           // multipv -> info event
  linesFen: null,      // the position those lines analyse
  statsFen: null,      // the position the statistics line is about
  options: [],
  levels: false,
  tablebase: false,    // the backend has endgame tables (the 3-4-piece ones are compiled in): only then are they asked
  tablebasePieces: 0,  // the most pieces they hold
  threadsMax: 1,       // the most search threads a game's engine may have (/api/options)
  hashMax: 16,         // its largest table, MiB
  pv: null,            // { fens, moves, idx } while stepping through an engine line
  edit: null,          // the board editor's position and tool (editor.js)
  events: null,
  match: null,         // a game against Kestrel: { human, engine, level, control, hideEval, fen (its start; null: the usual) } (match.js)
  matchFrom: null,     // the position the match dialog would start from (Play from here), null for the start
  clock: null,         // its clocks: { left: { w, b }, inc, running, since, plies (the main line they charged) }
  flagging: false,
  hideArrows: false,   // the engine's arrows turned off (keys.js, x)
  savedVersion: null,  // the game's version when it was loaded or its PGN taken (pages.js, unsavedStudy)
};

// ---------- the backend ----------

// The one way the page reaches the engine and the game logic (docs/gui.md,
// "How the page is built"): requests in the API's paths, a game's PGN, and
// its event stream (the PageEvent enum, as an EventSource: the
// `onmessage`/`onopen` target). This one talks to `kestrel gui` over HTTP;
// the static site (`make web`) loads its own first (crates/web/site/
// backend.js: the game logic and the engine in Web Workers), which answers
// the same calls.
const backend = self.kestrelBackend || {
  // JSON in, JSON out: { ok, status, data }.
  async request(method, path, body) {
    const res = await fetch(path, {
      method,
      headers: body ? { 'Content-Type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    const data = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
    return { ok: res.ok, status: res.status, data };
  },
  // The game as PGN text; null when the backend does not have it.
  async pgn(id) {
    const res = await fetch(`/api/pgn?game=${encodeURIComponent(id)}`);
    return res.ok ? res.text() : null;
  },
  events(id) {
    return new EventSource(`/api/events?game=${encodeURIComponent(id)}`);
  },
  // Game `id` of the explorer's collection `db` (masters, mine) as PGN
  // text; throws what went wrong.
  async explorerGame(id, db = 'masters') {
    const res = await fetch(`/api/explorer/game?id=${encodeURIComponent(id)}&db=${db}`);
    if (!res.ok) throw new Error((await res.json().catch(() => ({}))).error || `HTTP ${res.status}`);
    return res.text();
  },
};

// ---------- API ----------

async function api(method, path, body) {
  const { ok, status, data } = await backend.request(method, path, body);
  if (!ok) {
    const err = Object.assign(new Error(data.error || `HTTP ${status}`), { status });
    // The server dropped this page's game (persist.js offers the way on).
    if (isMissingGame(err) && S.game) showExpired(S.game.id);
    throw err;
  }
  return data;
}
const post = (path, body) => api('POST', path, { game: S.game && S.game.id, ...body });

// ---------- positions ----------

function parseFen(fen) {
  const board = new Array(64).fill(null); // index: rank * 8 + file, a1 = 0
  const [placement, turn, castling, ep] = fen.split(' ');
  placement.split('/').forEach((row, i) => {
    let file = 0;
    for (const c of row) {
      if (/\d/.test(c)) file += Number(c);
      else { board[(7 - i) * 8 + file] = c; file++; }
    }
  });
  return { board, turn, castling, ep };
}

function boardToPlacement(board) {
  const rows = [];
  for (let r = 7; r >= 0; r--) {
    let row = '', empty = 0;
    for (let f = 0; f < 8; f++) {
      const p = board[r * 8 + f];
      if (!p) { empty++; continue; }
      if (empty) { row += empty; empty = 0; }
      row += p;
    }
    rows.push(row + (empty ? empty : ''));
  }
  return rows.join('/');
}

const escapeHtml = (t) => String(t).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const timeText = (ms) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);
const sqIndex = (name) => FILES.indexOf(name[0]) + (Number(name[1]) - 1) * 8;
// Moves can be made in the position on view (the server lists them).
const live = () => !S.pv && S.game && S.game.legal.length > 0;

function shownFen() {
  if (S.pv) return S.pv.fens[S.pv.idx];
  return viewedFen();
}

// The game's position picked in the move list (an engine line stepped
// through starts from it): the one analysis is about.
function viewedFen() {
  return S.game.fen;
}

// ---------- moving (the board itself is board.js) ----------

const movesFrom = (sq) => S.game.legal.filter((m) => m.from === sq);
const humanToMove = () => live() && !S.edit && S.players[S.game.turn] === 'human';

// A move made on the board (chessground has moved the piece already): a
// promotion asks for its piece; a move the server does not list (none
// should come) puts the board back.
function tryMove(from, to) {
  const moves = movesFrom(from).filter((m) => m.to === to);
  if (moves.length > 1 || (moves[0] && moves[0].promotion)) {
    choosePromotion(moves, (m) => sendMove(m.uci));
  } else if (moves.length === 1) {
    sendMove(moves[0].uci);
  } else {
    renderBoard();
  }
}

function choosePromotion(moves, done) {
  const box = $('promotion');
  box.innerHTML = '';
  const white = S.game.turn === 'w';
  for (const role of ['q', 'r', 'b', 'n']) {
    const m = moves.find((x) => x.promotion === role);
    if (!m) continue;
    const img = document.createElement('img');
    img.src = pieceImg(white ? role.toUpperCase() : role);
    img.dataset.role = role;
    img.title = { q: 'Queen', r: 'Rook', b: 'Bishop', n: 'Knight' }[role];
    img.onclick = () => { box.classList.add('hidden'); done(m); };
    box.appendChild(img);
  }
  box.classList.remove('hidden');
}

async function sendMove(uci) {
  try {
    setGame(await post('/api/move', { move: uci, from: S.game.current }));
    afterChange();
  } catch (e) {
    showStatus(e.message);
  }
}

// ---------- sound (WebAudio: no sound files) ----------

let audio = null;
function beep(freq, ms, when = 0, type = 'sine', gain = 0.15) {
  if (!$('sound').checked) return;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const t = audio.currentTime + when;
    const osc = audio.createOscillator();
    const g = audio.createGain();
    osc.type = type;
    osc.frequency.setValueAtTime(freq, t);
    g.gain.setValueAtTime(gain, t);
    g.gain.exponentialRampToValueAtTime(0.001, t + ms / 1000);
    osc.connect(g).connect(audio.destination);
    osc.start(t);
    osc.stop(t + ms / 1000);
  } catch (e) { /* no audio device: silence */ }
}
function playSound(ply) {
  if (!ply) return;
  if (ply.check) { beep(660, 90); beep(880, 140, 0.1); }
  else if (ply.capture) beep(180, 140, 0, 'triangle', 0.3);
  else beep(420, 60, 0, 'triangle', 0.25);
}

// ---------- game state ----------

function setGame(view) {
  const sameGame = S.game && view.id === S.game.id;
  // A view sent before the latest change (a slow answer) is out of date.
  if (sameGame && view.version < S.game.version) return;
  const grew = sameGame && view.nodes.length === S.game.nodes.length + 1;
  const ended = sameGame && !S.game.status.over && view.status.over;
  // A message is about the game as it was: a change of the game clears it.
  if (!sameGame || view.version !== S.game.version) showStatus('');
  S.game = view;
  gameChanged(view); // persist.js: kept for a reload
  indexTree(view); // variations.js
  S.pv = null;
  // The new move has the highest id.
  if (grew) playSound(view.nodes[view.nodes.length - 1]);
  clockAfter(view); // match.js: the clocks follow the game
  // Drawn on every view, not only when a clock changed: resign and draw
  // belong to a game in progress, and a reload sets the game after its clocks.
  renderClocks();
  render();
  playPremove(); // board.js: the move you made while the engine thought
  // Against the computer the end is announced; elsewhere (analysis, set-up
  // positions) the header and the move list say it without interrupting.
  if (ended && S.match) {
    finishMatch(); // match.js: the record is for study now, never played on
    showGameOver();
  }
  // What was hidden while the game went on (book, explorer, tables) shows.
  if (ended) refreshPanels();
}

// The header: the game's state, whatever move is on view: its result and
// why, or whose move it is in the game (against Kestrel, yours or its).
function gameStateText() {
  const st = S.game.status;
  if (st.over) return `${st.result} — ${st.reason}`;
  const side = st.to_move === 'w' ? 'White' : 'Black';
  if (!S.match) return `${side} to move`;
  return `${side} to move (${st.to_move === S.match.human ? 'you' : 'Kestrel'})`;
}

function render() {
  renderBoard();
  renderMoves();
  renderReview(); // review.js: graph, ?! ? ?? marks
  renderOpening(); // opening.js
  $('status').textContent = gameStateText();
  renderCommands();
  // Lines, bar, arrows and statistics belong to one position: another one clears them.
  const fen = viewedFen();
  if ((S.linesFen && S.linesFen !== fen) || (S.statsFen && S.statsFen !== fen)) clearLines();
  else renderLines(); // also says when the evaluation is hidden
  $('evalbar').classList.toggle('flipped', S.flipped);
  $('fen').value = shownFen();
  $('download').href = `/api/pgn?game=${S.game.id}`;
  $('pvnote').classList.toggle('hidden', !S.pv);
  $('pause').textContent = S.paused ? 'Resume' : 'Pause';
}

// The message area under the board, always in view: an answer (a draw
// declined), a refusal or an error. A change of the game clears it.
function showStatus(text) { $('message').textContent = text; }

// The board's commands as the game allows: Undo where a takeback or an
// edit may be made (never in a finished game, whose moves stand as played).
function renderCommands() {
  const st = S.game.status;
  $('undo').classList.toggle('hidden', st.final || (document.body.dataset.page === 'play' && !matchRunning()));
  $('undo').textContent = S.match ? 'Takeback' : 'Undo';
}

// The move list is a tree (variations.js).
const renderMoves = () => renderMoveTree();

// Goes to a ply of the main line (the graph, the first button).
function goto(ply) {
  if (S.pv) { S.pv.idx = Math.max(0, Math.min(S.pv.fens.length - 1, ply)); render(); return; }
  const at = Math.max(0, Math.min(S.game.plies.length, ply));
  gotoNode(at === 0 ? 0 : S.game.plies[at - 1].node);
}
const step = (d) => (S.pv ? goto(S.pv.idx + d) : stepNode(d));
// The end of the engine line, or of the game's line on view.
const gotoEnd = () => (S.pv ? goto(S.pv.fens.length - 1) : gotoNode(lineEnd(S.game.current)));

// After any change of the game: the engine's turn, the panels.
function afterChange() {
  refreshPanels();
  maybeEngine();
  restartAnalysis();
}

// ---------- engine players ----------

function sideSettings(side) {
  const box = $(`side-${side}`);
  const get = (k) => box.querySelector(`[data-k="${k}"]`);
  // A game against Kestrel is played at Kestrel's own settings (and the
  // level picked); the analysis board's engine at the settings panel's.
  const playing = S.match && side === S.match.engine;
  const settings = { own_book: get('book').checked, options: playing ? {} : engineOptions() };
  const amount = Number(get('amount').value) || 1;
  // Against you on a clock, Kestrel shares out its own time.
  if (S.clock && playing) settings.clock = clockSettings();
  else if (get('limit').value === 'depth') settings.depth = Math.round(amount);
  else settings.movetime_ms = Math.round(amount * 1000);
  const level = get('level');
  if (level && level.value !== 'max') {
    settings.options.UCI_LimitStrength = true;
    settings.options.UCI_Elo = Number(level.value);
  }
  return settings;
}

// Asking twice is harmless: the server keeps the engine player's search
// that runs for the same move, and an analysis request leaves it alone.
async function maybeEngine() {
  if (!S.game || S.paused || S.edit) return;
  // Against the computer the engine moves at the game's end, wherever you look.
  const end = S.game.linear ? treeNode(lineEnd(0)) : curNode();
  if (S.game.status.over && end.id === lineEnd(0)) return;
  const side = end.fen.split(' ')[1];
  if (S.players[side] !== 'engine') return;
  if (!S.game.linear && !S.game.legal.length) return;
  await playEngine(side);
}

// An engine move for `side` with that side's settings, from the node on
// view (against the computer: from the game's end).
async function playEngine(side) {
  try {
    const body = { settings: sideSettings(side), play: true };
    if (!S.game.linear) body.node = S.game.current;
    await post('/api/go', body);
  } catch (e) {
    showStatus(e.message);
  }
}

// "Engine move" (Space): the engine plays one move for the side to move,
// whoever plays it; not for you during a game against the computer.
async function engineMove() {
  if (!S.game || S.edit || S.pv) return;
  if (S.match && !S.game.status.over) { showStatus('Against the computer you make your own moves.'); return; }
  if (!S.game.legal.length) return;
  await playEngine(S.game.turn);
}

function flipBoard() {
  S.flipped = !S.flipped;
  render();
  renderLines();
}

// Analyses the position viewed in the move list (the live one, or an earlier one).
async function restartAnalysis() {
  if (!$('analyse').checked || !S.game || S.edit) return;
  if (hideEval()) return; // the server gives no analysis of this game
  if (reviewRunning()) return; // the game's pass has the engine; analysis resumes after it
  const atEnd = S.game.current === lineEnd(0);
  if (atEnd && S.game.status.over) {
    clearLines();
    $('lines').textContent = `The game is over (${S.game.status.reason}): no moves to analyse here.`;
    return;
  }
  if (curNode().children.length === 0 && S.players[S.game.turn] === 'engine' && !S.paused) return; // the player's search shows its lines
  // The server stops the search before (or keeps an engine player's, whose
  // lines then show) and says so on the event stream: `started` clears the lines.
  const body = { settings: { infinite: true, own_book: false, options: { ...engineOptions(), MultiPV: analysisLines() } } };
  body.node = S.game.current;
  try {
    await post('/api/go', body);
    // Analysis turned off while the start was on its way: the stop went
    // first, so this search would run on unseen.
    if (!$('analyse').checked) stopAnalysis();
  } catch (e) { showStatus(e.message); }
}

// Analysis off: its search stops (never an engine player's move) and its
// lines go; its statistics, sent as it ends, show.
async function stopAnalysis() {
  clearLines();
  if (!S.game) return;
  try { await post('/api/stop', { purpose: 'analysis' }); } catch (e) { /* nothing runs */ }
}

function clearLines() {
  S.lines = {};
  S.linesFen = null;
  setStats('', null);
  renderLines();
  refreshArrows();
}

// The statistics line and the position it is about.
function setStats(text, fen) {
  $('stats').textContent = text;
  S.statsFen = text ? fen : null;
}

// The game's event stream (the server's PageEvent). The server drops the
// events of a search superseded or stopped, so what arrives is drawn: the
// only filter here is what is on view (lines of the position viewed, no
// analysis lines with analysis off).
function onEvent(ev) {
  const e = JSON.parse(ev.data);
  reviewEvent(e);
  if (e.type === 'started') {
    clearLines(); // a new search: the lines so far were another's
    const side = e.fen.split(' ')[1] === 'w' ? 'White' : 'Black';
    $('thinking').textContent = e.purpose === 'move' ? `${side} is thinking…` : '';
  } else if (e.type === 'stopped') {
    $('thinking').textContent = '';
    clearLines();
  } else if (e.type === 'info') {
    if (!S.game || e.fen !== viewedFen()) return;
    if (e.purpose === 'analysis' && !$('analyse').checked) return;
    S.linesFen = e.fen;
    S.lines[e.multipv] = e;
    renderLines();
    refreshArrows();
  } else if (e.type === 'stats') {
    // A search stopped because the position changed reports as it ends:
    // only statistics about the position on view.
    if (!S.game || e.fen !== viewedFen()) return;
    setStats(`${e.nodes.toLocaleString()} nodes, ${e.nps.toLocaleString()} nps, ${(e.time_ms / 1000).toFixed(2)} s. ${e.text}`, e.fen);
  } else if (e.type === 'state') {
    $('thinking').textContent = '';
    setGame(e.state);
    afterChange();
  } else if (e.type === 'error') {
    // The server had no memory left to send the engine's output (its
    // --games-memory is full): what to do is in the message.
    showStatus(e.error);
  } else if (e.type === 'expired') {
    showExpired(S.game.id); // persist.js
  } else if (e.type === 'bestmove') {
    $('thinking').textContent = '';
    // Said after the book move is on the board, so it goes with the next change.
    if (e.book && e.move) setStats(`Book move ${e.move.san}`, viewedFen());
  }
}

function scoreText(s) {
  if (s.kind === 'mate') return (s.value > 0 ? '#' : '#-') + Math.abs(s.value);
  return (s.value > 0 ? '+' : '') + (s.value / 100).toFixed(2);
}

function renderLines() {
  const el = $('lines');
  el.innerHTML = '';
  el.dataset.fen = S.linesFen || '';
  if (hideEval()) {
    $('explain-line').textContent = '';
    el.innerHTML = '<div class="hidden-eval">The evaluation is hidden while you play (new game dialog).</div>';
    setEvalBar(null);
    return;
  }
  const keys = Object.keys(S.lines).map(Number).sort((a, b) => a - b);
  for (const k of keys) {
    const info = S.lines[k];
    const div = document.createElement('div');
    div.className = 'line';
    const sc = document.createElement('span');
    sc.className = 'score';
    sc.textContent = scoreText(info.score);
    div.appendChild(sc);
    const meta = document.createElement('span');
    meta.className = 'small';
    meta.textContent = ` d${info.depth}/${info.seldepth} ${(info.nodes / 1000).toFixed(0)}k ${(info.nps / 1000).toFixed(0)}k nps `;
    div.appendChild(meta);
    const fens = [info.fen, ...info.pv.map((m) => m.fen)];
    const numbers = moveNumbers(info.fen, info.pv.length);
    info.pv.forEach((m, i) => {
      if (numbers[i]) {
        const n = document.createElement('span');
        n.className = 'pvn';
        n.textContent = numbers[i] + ' ';
        div.appendChild(n);
      }
      const s = document.createElement('span');
      s.className = 'pvm';
      s.textContent = m.san + ' ';
      // Outside a game against the computer the line's moves up to this one
      // join the game as a variation; during one it is only shown.
      s.onclick = () => {
        if (S.game.linear) { S.pv = { fens, moves: info.pv, idx: i + 1 }; render(); }
        else playLine(S.game.current, info.pv.slice(0, i + 1));
      };
      div.appendChild(s);
    });
    el.appendChild(div);
  }
  const best = S.lines[keys[0]];
  // Under the lines: what the best move does, what the opponent threatens.
  $('explain-line').textContent = (best && best.explain) || '';
  const reviewed = best ? null : reviewedHere();
  setEvalBar(best ? best.score : reviewed && reviewed.score);
}

// The move numbers before each move of a line from `fen`: "12." before
// White's moves, "12..." before a first move by Black, "" elsewhere.
function moveNumbers(fen, count) {
  const parts = fen.split(' ');
  let number = Number(parts[5]) || 1;
  let white = parts[1] === 'w';
  const out = [];
  for (let i = 0; i < count; i++) {
    out.push(white ? `${number}.` : i === 0 ? `${number}...` : '');
    if (!white) number++;
    white = !white;
  }
  return out;
}

// The bar: White's share from White's side of the board (the bottom unless
// flipped), the score written large on the side that is better; empty
// without lines for the position on view.
// The bar's figure, short enough for its width: +0.4, -2.3, +12, #3.
function barText(s) {
  if (s.kind === 'mate') return '#' + Math.abs(s.value);
  const pawns = s.value / 100;
  return (pawns >= 0 ? '+' : '') + pawns.toFixed(Math.abs(pawns) < 10 ? 1 : 0);
}

function setEvalBar(score) {
  const text = $('evaltext');
  $('evalbar').classList.toggle('blank', hideEval());
  if (!score || hideEval()) {
    $('evalfill').style.height = '50%';
    text.textContent = '';
    return;
  }
  let white;
  if (score.kind === 'mate') white = score.value > 0 ? 100 : 0;
  else white = 50 + 50 * (2 / (1 + Math.exp(-score.value / 250)) - 1);
  $('evalfill').style.height = white + '%';
  text.textContent = barText(score);
  const whiteBetter = score.value >= 0;
  text.classList.toggle('on-white', whiteBetter);
  // White's end of the bar is at the bottom, or at the top when flipped.
  text.classList.toggle('at-top', whiteBetter === S.flipped);
}


// ---------- players panel ----------

function buildSides() {
  const box = $('sides');
  box.innerHTML = '';
  for (const side of ['w', 'b']) {
    const div = document.createElement('div');
    div.className = 'side';
    div.id = `side-${side}`;
    const elo = S.options.find((o) => o.name === 'UCI_Elo');
    let level = '';
    if (S.levels && elo) {
      const opts = levelChoices().map((c) => `<option value="${c.value}">${c.text}</option>`);
      level = `<label>Level <select data-k="level">${opts.join('')}</select></label>`;
    }
    // Who plays and how long each move may take; how Kestrel searches
    // is the engine settings panel's (engine_settings.js).
    div.innerHTML = `
      <b>${side === 'w' ? 'White' : 'Black'}</b>
      <select data-k="player"><option value="human">Human</option><option value="engine">Engine</option></select>
      <select data-k="limit"><option value="time">seconds</option><option value="depth">depth</option></select>
      <input data-k="amount" type="number" min="0.1" step="0.1" value="1" style="width:5em">
      <label><input type="checkbox" data-k="book" checked> Book</label>
      ${level}`;
    box.appendChild(div);
    const player = div.querySelector('[data-k="player"]');
    player.value = S.players[side];
    player.onchange = () => { S.players[side] = player.value; endMatchMode(true); afterChange(); };
  }
}

// ---------- explorer, book and tables ----------

// A White/draw/Black bar as lichess's explorer draws it: each part's width
// its share of the games, its percentage written where there is room.
function resultBar(white, draws, black) {
  const total = white + draws + black;
  if (!total) return '';
  const part = (n, cls) => {
    const pct = (100 * n) / total;
    const label = pct >= 12 ? `${Math.round(pct)}%` : '';
    return pct > 0 ? `<span class="${cls}" style="width:${pct.toFixed(2)}%" title="${Math.round(pct)}%">${label}</span>` : '';
  };
  return `<div class="wdb">${part(white, 'w')}${part(draws, 'd')}${part(black, 'b')}</div>`;
}

const formatCount = (n) => n.toLocaleString('en-US');

// The explorer's filters as a query string (lichess's: the players' mean
// rating and the years; a year that is not four digits is left open), and
// kept for the next visit.
const XFILTER_KEY = 'kestrel-explorer-filter';
function explorerQuery() {
  const year = (id) => (/^\d{4}$/.test($(id).value.trim()) ? $(id).value.trim() : '');
  const f = { db: explorerDb(), min_rating: $('x-rating').value, since: year('x-since'), until: year('x-until') };
  return Object.entries(f).filter(([, v]) => v).map(([k, v]) => `&${k}=${v}`).join('');
}
// The collection explored: the master games, or the player's own when the
// host has them (`kestrel gui --explorer FILE...`, or a file chosen here).
const explorerDb = () => (S.ownGames && $('x-db').value === 'mine' ? 'mine' : 'masters');

// "Masters" / "My games (files)": the choice shown once there are own
// games; the file button where the host takes a file from the page.
function showOwnGames(own) {
  S.ownGames = own || null;
  $('xdb').hidden = !S.ownGames;
  if (S.ownGames) {
    const names = S.ownGames.files.join(', ');
    $('x-db').options[1].textContent = `My games (${names.length > 40 ? `${names.slice(0, 39)}…` : names})`;
    $('x-db').title = `Masters, or your ${formatCount(S.ownGames.games)} games of ${names}`;
  }
}

// A PGN file chosen in the page (the static site): its size checked here
// first (the host's limit), read, and indexed by the backend.
async function loadOwnGames(file) {
  if (file.size > S.ownGamesMaxBytes) {
    showStatus(`${file.name} is ${Math.ceil(file.size / 1e6)} MB; the explorer indexes at most ${Math.floor(S.ownGamesMaxBytes / 1e6)} MB of your games: keep the games you want to explore (by year, by player) in a smaller file`);
    return;
  }
  $('explorer').textContent = `Indexing ${file.name}…`;
  try {
    const own = await api('POST', '/api/explorer/own', { name: file.name, text: await file.text() });
    showOwnGames(own);
    $('x-db').value = 'mine';
    $('x-db').onchange();
    showStatus(`${file.name}: ${formatCount(own.games)} games indexed${own.left_out ? `, ${formatCount(own.left_out)} left out (unreadable, unfinished or from a set-up position)` : ''}.`);
  } catch (e) {
    showStatus(e.message);
    refreshPanels();
  }
}

function initExplorerFilter() {
  let saved = {};
  try { saved = JSON.parse(localStorage.getItem(XFILTER_KEY) || '{}') || {}; } catch (e) { saved = {}; }
  $('x-file').onchange = () => { const f = $('x-file').files[0]; $('x-file').value = ''; if (f) loadOwnGames(f); };
  for (const id of ['x-db', 'x-rating', 'x-since', 'x-until']) {
    if (typeof saved[id] === 'string') $(id).value = saved[id];
    $(id).onchange = () => {
      const now = {};
      for (const k of ['x-db', 'x-rating', 'x-since', 'x-until']) now[k] = $(k).value;
      try { localStorage.setItem(XFILTER_KEY, JSON.stringify(now)); } catch (e) { /* private mode: not kept */ }
      refreshPanels();
    };
  }
}

// The master games' moves in the position on view, and their best-rated
// games, the filters applied: a move plays it (on the analysis board, or
// when it is your move), a game loads on the analysis board.
let explorerAsked = 0;
async function refreshExplorer() {
  const el = $('explorer');
  const fen = shownFen();
  // Answers can come back out of order (a filter changed while the last
  // position's answer was on its way): only the latest request's is shown.
  const asked = ++explorerAsked;
  let x;
  try {
    x = await api('GET', `/api/explorer?game=${S.game.id}${explorerQuery()}`);
  } catch (e) { if (asked === explorerAsked) el.textContent = e.message; return; }
  if (asked !== explorerAsked || shownFen() !== fen) return; // the view moved on meanwhile
  const mine = x.source === 'mine';
  if (!x.moves.length) {
    const which = mine ? 'game of yours' : 'master game';
    el.innerHTML = x.filtered
      ? `<span class="small">No ${which} within the filters reached this position.</span>`
      : `<span class="small">No ${which} reached this position (their first ${x.max_ply / 2} moves are indexed).</span>`;
    return;
  }
  const total = x.white + x.draws + x.black;
  const rows = x.moves.map((m) => `<tr class="xm" data-uci="${escapeHtml(m.uci)}" title="${m.rating ? `average rating ${m.rating}` : ''}">`
    + `<td>${escapeHtml(m.san)}</td><td class="num">${Math.round((100 * m.games) / total)}%</td>`
    + `<td class="num">${formatCount(m.games)}</td><td class="barcell">${resultBar(m.white, m.draws, m.black)}</td></tr>`);
  rows.push(`<tr class="xt"><td>Σ</td><td class="num">100%</td><td class="num">${formatCount(total)}</td><td class="barcell">${resultBar(x.white, x.draws, x.black)}</td></tr>`);
  const player = (name, elo) => `${escapeHtml(name)}${elo ? ` <span class="small">${elo}</span>` : ''}`;
  const games = x.top_games.map((g) => `<tr class="xg" data-id="${g.id}" title="${escapeHtml(g.event)}: load this game">`
    + `<td>${player(g.white, g.white_elo)}<br>${player(g.black, g.black_elo)}</td>`
    + `<td class="num">${escapeHtml(g.result.replace('1/2-1/2', '½-½'))}</td><td class="num">${g.year || ''}</td><td>${escapeHtml(g.san)}</td></tr>`);
  el.dataset.fen = fen; // what the table is of (a test waits on it)
  const named = mine ? `My games (${escapeHtml(S.ownGames.files.join(', '))})` : 'Masters';
  el.dataset.source = x.source;
  el.innerHTML = `<div class="small">${named}: ${formatCount(x.collection)} games${x.filtered ? `, ${formatCount(total)} here within the filters` : ''}</div>`
    + `<table class="xmoves"><tr><th>Move</th><th></th><th>Games</th><th>White / Draw / Black</th></tr>${rows.join('')}</table>`
    + (games.length ? `<h3 class="sub">Top games</h3><table class="xgames">${games.join('')}</table>` : '');
  for (const tr of el.querySelectorAll('tr.xm')) tr.onclick = () => { if (humanToMove()) sendMove(tr.dataset.uci); };
  for (const tr of el.querySelectorAll('tr.xg')) {
    tr.onclick = async () => {
      try {
        await loadPgn(await backend.explorerGame(tr.dataset.id, x.source));
        setPage('analysis');
      } catch (e) { el.textContent = e.message; }
    };
  }
}

async function refreshPanels() {
  if (!S.game) return;
  $('fen').value = shownFen();
  // Book and tables are help too: hidden with the evaluation while you play.
  $('xfilter').hidden = hideEval() || !$('showbook').checked;
  if (hideEval()) {
    $('explorer').innerHTML = '';
    $('book').innerHTML = '<span class="small">Hidden while you play.</span>';
    $('tb').textContent = '';
    return;
  }
  if ($('showbook').checked && !S.pv) {
    refreshExplorer();
    try {
      const b = await api('GET', `/api/book?game=${S.game.id}`);
      // Only a text book named with --book takes new moves: say so on the button, not after a click.
      $('bookadd').disabled = !b.writable;
      $('bookadd').title = b.writable
        ? `Add the last move played to ${b.book}`
        : `The book (${b.book}) takes no moves: start kestrel gui with --book FILE.txt to add them`;
      // Polyglot books (the embedded one) keep no game counts: no W/L/D column of zeros.
      const counted = b.moves.some((m) => m.wins + m.losses + m.draws > 0);
      const wld = (m) => (counted ? `<td>${m.wins}/${m.losses}/${m.draws}</td>` : '');
      const rows = b.moves.map((m) => `<tr class="bm" data-uci="${escapeHtml(m.uci)}"><td>${escapeHtml(m.san)}</td><td>${m.weight}</td><td>${m.percent.toFixed(1)}%</td>${wld(m)}</tr>`);
      $('book').innerHTML = rows.length
        ? `<table><tr><th>Move</th><th>Weight</th><th>Share</th>${counted ? '<th>W/L/D</th>' : ''}</tr>${rows.join('')}</table>`
        : `<span class="small">No book moves here (book: ${escapeHtml(b.book)}).</span>`;
      for (const tr of $('book').querySelectorAll('tr.bm')) tr.onclick = () => { if (humanToMove()) sendMove(tr.dataset.uci); };
    } catch (e) { $('book').textContent = e.message; }
  } else {
    $('explorer').innerHTML = '';
    $('book').innerHTML = '';
  }
  const pieces = parseFen(S.game.fen).board.filter(Boolean).length;
  if (S.tablebase && !S.pv && pieces <= S.tablebasePieces) refreshTablebase();
  else { $('tb').innerHTML = ''; $('tb').dataset.fen = ''; }
}

// lichess's words for what a move leads to, from its mover's view.
const TB_WORDS = { win: 'Win', 'cursed-win': 'Cursed win', draw: 'Draw', 'blessed-loss': 'Blessed loss', loss: 'Loss' };

// The tablebase panel, as lichess's: the position's value for the side to
// move, then every legal move with its value and DTZ (mate, stalemate and
// a zeroing move said so), win first and the shortest first; a click on a
// move plays it where you may move.
async function refreshTablebase() {
  const el = $('tb');
  const fen = shownFen();
  let t;
  try {
    t = await api('GET', `/api/tablebase?game=${S.game.id}`);
  } catch (e) { el.textContent = e.message; return; }
  if (shownFen() !== fen) return; // the view moved on meanwhile
  el.dataset.fen = fen;
  if (!t.found) { el.innerHTML = `<span class="small">Tablebase: ${escapeHtml(t.reason)}</span>`; return; }
  const dtz = (n) => (n ? `DTZ ${Math.abs(n)}` : '');
  const note = (m) => (m.checkmate ? 'Checkmate' : m.stalemate ? 'Stalemate' : dtz(m.dtz) + (m.zeroing && m.dtz ? ' · zeroing' : ''));
  const rows = t.moves.map((m) => `<tr class="tbm ${m.category}" data-uci="${escapeHtml(m.uci)}"><td>${escapeHtml(m.san)}</td>`
    + `<td class="tbw">${TB_WORDS[m.category]}</td><td class="small">${note(m)}</td></tr>`);
  el.innerHTML = `<h3 class="sub">Tablebase <span class="tbw ${t.category}">${TB_WORDS[t.category]}</span>`
    + ` <span class="small">for the side to move${t.dtz ? ` (${dtz(t.dtz)})` : ''}</span></h3>`
    + `<table class="tbmoves">${rows.join('')}</table>`;
  for (const tr of el.querySelectorAll('tr.tbm')) tr.onclick = () => { if (humanToMove()) sendMove(tr.dataset.uci); };
}

// ---------- commands ----------

// Stops whatever searches (the server then sends `stopped`).
async function stopSearch() {
  if (!S.game) return;
  try { await post('/api/stop', {}); } catch (e) { /* nothing runs */ }
}

// A FEN or a PGN loaded (or the start, for New game): a new game with
// its own id and address, once the player agrees to leave the one on
// view (pages.js); a bad one is refused with the rules' message and the
// game on view stays.
function loadFen(fen) {
  return new Promise((done) => leaveGameThen(async () => { await openNew(fen, null); done(); }));
}

function loadPgn(pgn) {
  return new Promise((done) => leaveGameThen(async () => { await openNew(null, { path: '/api/pgn', body: { pgn } }); done(); }));
}

async function openNew(fen, then) {
  let view;
  try {
    view = await freshGame(fen, then); // persist.js
  } catch (e) { $('ioerror').textContent = e.message; return; }
  await stopSearch();
  endMatchMode();
  $('ioerror').textContent = '';
  await showGame(view);
}

// Undo: one move, or against an engine your move and its reply, so that
// it is your move again.
async function takeBack() {
  if (S.game.status.final) { showStatus('The game is over and its moves stand as played: step back and play a move for a variation.'); return; }
  await stopSearch();
  const vsEngine = S.players.w !== S.players.b;
  const plies = vsEngine && S.players[S.game.turn] === 'human' && S.game.plies.length >= 2 ? 2 : 1;
  try { setGame(await post('/api/undo', { plies })); refreshPanels(); restartAnalysis(); } catch (e) { showStatus(e.message); }
}

function wire() {
  $('first').onclick = () => goto(0);
  $('back').onclick = () => step(-1);
  $('forward').onclick = () => step(1);
  $('last').onclick = gotoEnd;
  $('flip').onclick = flipBoard;
  $('enginemove').onclick = engineMove;
  // The phone layout folds the panels away (style.css): this opens them.
  $('morebtn').onclick = () => {
    const open = document.body.classList.toggle('more');
    $('morebtn').setAttribute('aria-expanded', String(open));
  };
  $('pvexit').onclick = () => { S.pv = null; render(); };
  $('undo').onclick = () => {
    // During a game against Kestrel a takeback is asked for first (pages.js).
    if (matchRunning()) confirmThen('Take back your last move?', takeBack);
    else takeBack();
  };
  // A new game is a fresh analysis board under its own id (a game against
  // Kestrel starts from "Play the computer"), asked first (pages.js).
  // On /play it is a new game against Kestrel: its dialog first, the
  // question at Start (match.js).
  $('newgame').onclick = () => {
    if (document.body.dataset.page === 'play') openMatchDialog();
    else leaveGameThen(async () => { await openNew(null, null); setPage('analysis'); });
  };
  $('editbtn').onclick = startEdit;
  $('pause').onclick = () => {
    S.paused = !S.paused;
    render();
    if (!S.paused) maybeEngine();
  };
  // Live analysis takes the bar and the arrows from the game analysis, and gives them back.
  $('analyse').onchange = () => {
    if ($('analyse').checked) { renderLines(); refreshArrows(); restartAnalysis(); } else stopAnalysis();
  };
  $('showbook').onchange = refreshPanels;
  initExplorerFilter();
  $('bookadd').onclick = async () => {
    try { const r = await post('/api/book/add', {}); $('bookmsg').textContent = `Added ${r.added} to ${r.book}.`; refreshPanels(); } catch (e) { $('bookmsg').textContent = e.message; }
  };
  $('loadfen').onclick = () => loadFen(($('pgn').value.trim() || $('fen').value).trim());
  $('fen').addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') { ev.preventDefault(); loadFen($('fen').value.trim()); }
  });
  $('loadpgn').onclick = () => loadPgn($('pgn').value);
  $('showpgn').onclick = async () => { S.savedVersion = S.game.version; $('pgn').value = (await backend.pgn(S.game.id)) || ''; };
  $('download').addEventListener('click', () => { S.savedVersion = S.game.version; });
  $('upload').onchange = async (ev) => {
    const file = ev.target.files[0];
    if (!file) return;
    const text = await file.text();
    $('pgn').value = text;
    // One line with slashes is a FEN; anything else is read as PGN.
    if (/^\s*[^\s[]+\/[^\s]+\s+[wb]\b/.test(text) && text.trim().split('\n').length === 1) loadFen(text.trim());
    else loadPgn(text);
    ev.target.value = '';
  };
}

async function main() {
  // lichess's board, an ES module (assets/chessground): imported here so
  // that the page's other scripts stay classic ones.
  const { Chessground } = await import('/chessground.js');
  createBoard(Chessground); // board.js
  wire();
  wireMatch();
  wirePages();
  wireReview();
  wireTree();
  wireKeys();
  wireAnnotate();
  wireThemes();
  wirePersist();
  wireEngineSettings();
  wireResize(); // resize.js
  wireEditor(); // editor.js
  const [opts, opened] = await Promise.all([api('GET', '/api/options'), openGame()]);
  S.options = opts.options;
  S.levels = opts.levels;
  S.tablebase = !!opts.tablebase;
  S.tablebasePieces = opts.tablebase_pieces || 0;
  // The explorer's second collection: the player's own games.
  S.ownGamesUpload = !!opts.own_games_upload;
  S.ownGamesMaxBytes = opts.own_games_max_bytes || 0;
  $('x-own').hidden = !S.ownGamesUpload;
  showOwnGames(opts.own_games);
  S.threadsMax = opts.threads_max || 1;
  S.hashMax = opts.hash_max_mib || 16;
  buildSides();
  buildEngineSettings(); // engine_settings.js
  wireSyzygyPath(opts); // engine_settings.js
  if (opened.view) {
    restorePage(opened.saved, true); // persist.js: a reload
    await attach(opened.view);
    restoreView(opened.saved);
    restorePageFromUrl(); // pages.js: the page the address names
  } else {
    setPage(pageInUrl() === 'editor' ? 'analysis' : pageInUrl(), true);
    await reopenKept(opened.expired); // persist.js
    if (S.game) restorePageFromUrl();
  }
  document.body.dataset.readyMs = performance.now().toFixed(0);
  document.body.dataset.ready = '1';
}

// Shows a game and listens to its engine; the engine's turn, analysis.
async function attach(view) {
  if (S.events) S.events.close();
  // Another game: the PGN box held the one before (a fresh game's moves
  // are its own, a loaded one's were read already).
  if (!S.game || S.game.id !== view.id) $('pgn').value = '';
  S.savedVersion = view.version;
  S.game = null;
  setGame(view);
  S.events = backend.events(view.id);
  S.events.onmessage = onEvent;
  await new Promise((resolve) => { S.events.onopen = resolve; setTimeout(resolve, 1000); });
  await applyResources(); // engine_settings.js: this game's engine gets the kept threads and table
  afterChange();
}

main().catch((e) => showStatus(`cannot start: ${e.message}`));
