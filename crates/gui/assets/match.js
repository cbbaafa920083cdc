// A game against Kestrel: the new-game dialog (colour, level, time
// control, hiding the evaluation), both clocks (the engine is told them),
// resigning, offering a draw (the server has Kestrel weigh it), the
// game-over dialog and the players' names in the exported PGN. Loaded
// before app.js, whose state (S) and helpers it uses when called.
'use strict';

// The levels to pick from: full strength, then the lowest Elo, round
// steps (1400, 1500, ...) and the top one.
function levelChoices() {
  const elo = S.options.find((o) => o.name === 'UCI_Elo');
  const out = [{ value: 'max', text: 'Full strength' }];
  if (!S.levels || !elo) return out;
  const step = Math.max(50, Math.round((elo.max - elo.min) / 12 / 50) * 50);
  const values = [elo.min];
  for (let v = (Math.floor(elo.min / step) + 1) * step; v < elo.max; v += step) values.push(v);
  values.push(elo.max); // the top level is a choice too
  for (const v of values) out.push({ value: String(v), text: `Elo ${v}` });
  return out;
}

// The dialog, for a game from the start or, with `fen`, from that
// position ("Play from here": you get the side to move unless you pick
// the other).
function openMatchDialog(fen = null) {
  S.matchFrom = fen;
  $('match-from').classList.toggle('hidden', !fen);
  $('match-from-fen').textContent = fen || '';
  if (fen) $('match-form').querySelector(`input[name="colour"][value="${fen.split(' ')[1]}"]`).checked = true;
  if (!$('match-name').value) {
    try { $('match-name').value = localStorage.getItem('kestrel-name') || 'You'; } catch (e) { $('match-name').value = 'You'; }
  }
  const level = $('match-level');
  if (!level.options.length) {
    for (const c of levelChoices()) level.add(new Option(c.text, c.value));
  }
  $('match-dialog').returnValue = ''; // Esc closes it with the last value otherwise
  $('match-dialog').showModal();
}

// Reads "5+3" as milliseconds: base and increment.
function parseControl(text) {
  const m = /^(\d+(?:\.\d+)?)\+(\d+)$/.exec(text || '');
  return m ? { base: Math.round(Number(m[1]) * 60000), inc: Number(m[2]) * 1000, text } : null;
}

// The dialog's choices: a game against Kestrel.
function startMatch() {
  const colour = new FormData($('match-form')).get('colour');
  const human = colour === 'random' ? (Math.random() < 0.5 ? 'w' : 'b') : colour;
  beginMatch({ human, level: $('match-level').value, control: parseControl($('match-time').value), hideEval: $('match-hide').checked, fen: S.matchFrom });
}

// "Play from here" on the analysis board: a game against Kestrel from
// the position on view (the dialog first, as lichess's "Continue from
// here"). A position without a move to make has no game to play.
function playFromHere() {
  if (!S.game || S.edit) return;
  const fen = shownFen();
  const node = curNode();
  if (!S.pv && node.fen === fen && S.game.legal.length === 0) { showStatus('The game is over in this position: no moves to play.'); return; }
  openMatchDialog(fen);
}

// The result dialog's Rematch: the same level, clock and hiding, the
// colours swapped (as lichess's rematch).
function rematch() {
  if ($('over-dialog').open) $('over-dialog').close();
  const m = S.match;
  if (!m) { openMatchDialog(); return; }
  beginMatch({ human: m.engine, level: m.level, control: m.control, hideEval: m.hideEval, fen: m.fen });
}

// The result dialog's "Analyse this game": the analysis board with the
// game, and the game review started (the evaluation is no longer hidden).
function analyseThisGame() {
  if ($('over-dialog').open) $('over-dialog').close();
  setPage('analysis');
  refreshPanels(); // app.js: nothing hidden or left of another game
  if (S.game.plies.length) startReview(); // review.js
}

// A game against Kestrel: a new game with its own id and address (the
// game on view stays at its own: Back returns to it), from the start or
// from the position "Play from here" was pressed on.
async function beginMatch({ human, level, control, hideEval, fen = null }) {
  const engine = human === 'w' ? 'b' : 'w';
  let view;
  try {
    // The server keeps a hidden evaluation to itself too (no game analysis
    // until the end). One line until it ends: a takeback undoes moves, no variations.
    view = await freshGame(fen, { path: '/api/position', body: { fen: fen || undefined, hide_eval: hideEval, vs_engine: true } });
    const name = level === 'max' ? 'Kestrel' : `Kestrel (level ${level})`;
    const you = $('match-name').value.trim() || 'You';
    try { localStorage.setItem('kestrel-name', you); } catch (e) { /* storage off: asked again next time */ }
    const tags = { White: human === 'w' ? you : name, Black: human === 'b' ? you : name,
      Event: 'Kestrel GUI game against the computer', TimeControl: control ? `${control.base / 1000}+${control.inc / 1000}` : '-',
      WhiteElo: engine === 'w' && level !== 'max' ? level : '', BlackElo: engine === 'b' && level !== 'max' ? level : '' };
    view = await api('POST', '/api/tags', { game: view.id, tags });
  } catch (e) { showStatus(e.message); return; }
  await stopSearch();
  leaveEditor(); // editor.js: "Play from here" there
  if (S.game) savePage(); // persist.js: the game left keeps its page part
  S.match = { human, engine, level, control, hideEval, fen };
  S.players[human] = 'human';
  S.players[engine] = 'engine';
  S.paused = false;
  showPlayers();
  S.flipped = human === 'b'; // your side at the bottom
  $('ioerror').textContent = '';
  if (S.match.hideEval) $('analyse').checked = false;
  setPage('play'); // pages.js
  S.clock = control ? { left: { w: control.base, b: control.base }, inc: control.inc, running: null, plies: 0, since: performance.now() } : null;
  renderClocks();
  await showGame(view); // persist.js
}

// Kestrel's name on its clock and in the header: its level, or full strength.
const kestrelName = (level) => (level === 'max' ? 'Kestrel (full strength)' : `Kestrel ${level}`);

// The players panel as S says: who plays each side, and Kestrel's level
// in a game against it.
function showPlayers() {
  for (const side of ['w', 'b']) {
    const box = $(`side-${side}`);
    box.querySelector('[data-k="player"]').value = S.players[side];
    const levelSel = box.querySelector('[data-k="level"]');
    const level = S.match && S.match.level;
    if (levelSel && level && side === S.match.engine) {
      if (![...levelSel.options].some((o) => o.value === level)) levelSel.add(new Option(`Elo ${level}`, level));
      levelSel.value = level;
    } else if (levelSel && S.match) {
      levelSel.value = 'max'; // your side: no level left from the last game
    }
  }
}

// The game against Kestrel ended: its record is for study now. Nobody is
// an engine player any more (a variation tried in the finished game gets
// no reply, and nothing takes the game up again), and resign and draw go.
function finishMatch() {
  closeConfirm(); // a resignation or draw offer asked about goes with the game
  S.players.w = 'human';
  S.players.b = 'human';
  showPlayers();
  renderClocks();
  refreshPanels(); // app.js: book, explorer and tables were hidden while it went on
}

// Leaves match mode (a position loaded; the players changed by hand, kept).
function endMatchMode(keepPlayers = false) {
  // The match's engine player goes with it: a position or game loaded
  // next is for study, and Kestrel moves in it only when asked.
  if (S.match && !keepPlayers) finishMatch();
  S.match = null;
  S.clock = null;
  renderClocks();
  if (document.body.dataset.page === 'play') setPage('analysis');
}

// ---------- clocks ----------

function timeLeft(side) {
  const c = S.clock;
  if (!c) return 0;
  const running = c.running === side ? performance.now() - c.since : 0;
  return Math.max(0, c.left[side] - running);
}

function clockText(ms) {
  const s = Math.ceil(ms / 100) / 10;
  if (s < 10) return `0:0${s.toFixed(1)}`;
  const whole = Math.ceil(ms / 1000);
  const mmss = `${Math.floor(whole / 60) % 60}:${String(whole % 60).padStart(2, '0')}`;
  return whole < 3600 ? mmss : `${Math.floor(whole / 3600)}:${mmss.padStart(5, '0')}`;
}

// The side to move at the end of the game's main line, and whether `side`
// has moved in it yet: the clocks follow the game, not the move on view.
function gameTurn(view) {
  const n = view.plies.length;
  return (n ? view.plies[n - 1].fen : view.nodes[0].fen).split(' ')[1];
}
function hasMoved(view, side) {
  const first = view.nodes[0].fen.split(' ')[1];
  return view.plies.length >= (first === side ? 1 : 2);
}

// The game changed: a move added to the main line charges the side whose
// clock ran (with the increment), a takeback goes on with the side to move,
// the end stops both. Stepping through the moves changes nothing. A side's
// clock starts after its first move (lichess's rule), so neither the dialog
// closing nor a first move's thought costs time.
function clockAfter(view) {
  const c = S.clock;
  if (!c) return;
  const n = view.plies.length;
  const over = view.status.over;
  // A clock restored after a reload takes the game as it finds it.
  if (c.plies == null) c.plies = n;
  if (n === c.plies && !(over && c.running)) return;
  const now = performance.now();
  if (c.running) {
    const side = c.running;
    c.left[side] = Math.max(0, c.left[side] - (now - c.since)) + (n > c.plies ? c.inc : 0);
  }
  if (n > c.plies) recordClock(view.plies[n - 1]);
  c.plies = n;
  const turn = gameTurn(view);
  c.running = !over && hasMoved(view, turn) ? turn : null;
  c.since = now;
}

// The mover's clock after a move, kept with the move on the server for
// the move list and the PGN's [%clk] (the clocks are the page's). The
// answer's clock is copied into the game on view rather than the whole
// answer taken: it would undo a step through the moves made meanwhile.
async function recordClock(ply) {
  const mover = ply.fen.split(' ')[1] === 'w' ? 'b' : 'w';
  const ms = Math.round(S.clock.left[mover]);
  try {
    await post('/api/clock', { node: ply.node, ms });
  } catch (e) { return; /* a game that moved on (a takeback, a new game): no clock to keep */ }
  const kept = S.game && S.game.plies.find((p) => p.node === ply.node);
  const node = treeNode(ply.node);
  if (!kept || !node) return;
  kept.clock_ms = ms;
  node.clock_ms = ms;
  renderMoves();
}

// The engine's limits on the clock, as UCI's wtime/btime/winc/binc.
function clockSettings() {
  return { wtime_ms: Math.max(1, Math.round(timeLeft('w'))), btime_ms: Math.max(1, Math.round(timeLeft('b'))),
    winc_ms: S.clock.inc, binc_ms: S.clock.inc };
}

function renderClocks() {
  const top = $('clock-top'), bottom = $('clock-bottom');
  const on = !!S.clock;
  top.classList.toggle('hidden', !on);
  bottom.classList.toggle('hidden', !on);
  const playing = S.match && S.game && !S.game.status.over;
  for (const b of document.querySelectorAll('.match-only')) b.classList.toggle('hidden', !playing);
  // After the game, on its page, what the result dialog offers stays at hand.
  const ended = S.match && S.game && S.game.status.over;
  for (const b of document.querySelectorAll('.over-only')) b.classList.toggle('hidden', !ended);
  if (!on) return;
  const show = (el, side) => {
    const ms = timeLeft(side);
    const who = S.match && S.match.engine === side ? kestrelName(S.match.level) : 'You';
    el.innerHTML = `<span>${side === 'w' ? 'White' : 'Black'} · ${who}</span><span class="time">${clockText(ms)}</span>`;
    el.dataset.side = side;
    el.dataset.ms = Math.round(ms);
    el.classList.toggle('running', S.clock.running === side);
    el.classList.toggle('low', ms < 10000);
  };
  show(top, S.flipped ? 'w' : 'b');
  show(bottom, S.flipped ? 'b' : 'w');
}

async function tickClock() {
  const c = S.clock;
  if (!c || !c.running || !S.game) return;
  renderClocks();
  const side = c.running;
  if (timeLeft(side) > 0 || S.flagging) return;
  S.flagging = true;
  await stopSearch();
  try {
    setGame(await post('/api/end', { end: 'flag', side: side === 'w' ? 'white' : 'black' }));
  } catch (e) { showStatus(e.message); }
  S.flagging = false;
}

// ---------- resign and draw ----------

async function resign() {
  if (!S.match || S.game.status.over) return;
  await stopSearch();
  const h = S.match.human;
  try {
    setGame(await post('/api/end', { end: 'resign', side: h === 'w' ? 'white' : 'black' }));
  } catch (e) { showStatus(e.message); }
}

// Offers a draw on your move: the server has Kestrel weigh it (a short
// search; it accepts when it stands worse, or when the game is level late
// on) and answers only yes or no, so a hidden evaluation stays hidden.
async function offerDraw() {
  if (!S.match || S.game.status.over) return;
  if (S.game.turn !== S.match.human) { showStatus('Offer a draw on your move.'); return; }
  showStatus('Kestrel considers your offer…');
  try {
    const r = await post('/api/draw', {});
    setGame(r.state);
    // After setGame: its header would cover the answer.
    if (!r.accepted) showStatus('Kestrel declines the draw: play on.');
  } catch (e) { showStatus(e.message); }
}

// ---------- the end ----------

function showGameOver() {
  const st = S.game.status;
  $('over-result').textContent = st.result.replace('1/2-1/2', '½–½');
  let line = st.reason;
  if (S.match) {
    const won = (st.result === '1-0' && S.match.human === 'w') || (st.result === '0-1' && S.match.human === 'b');
    const drawn = st.result === '1/2-1/2';
    line = `${st.reason}. ${drawn ? 'A draw.' : won ? 'You win!' : 'Kestrel wins.'}`;
  }
  $('over-reason').textContent = line;
  $('over-pgn').href = `/api/pgn?game=${S.game.id}`;
  const d = $('over-dialog');
  if (!d.open) d.showModal();
}

// The server says whether the evaluation is hidden (it keeps it to itself),
// so a reloaded page knows without its own notes.
function hideEval() {
  return !!(S.game && S.game.eval_hidden);
}

function wireMatch() {
  $('vsengine').onclick = () => openMatchDialog();
  $('playfrom').onclick = playFromHere;
  // Started: the game on view is left once the player agrees (pages.js).
  // Cancelled on /play with no game against Kestrel: the analysis board.
  $('match-dialog').addEventListener('close', () => {
    if ($('match-dialog').returnValue === 'start') leaveGameThen(startMatch);
    else if (document.body.dataset.page === 'play' && !S.match) setPage('analysis', true);
  });
  // Asked first, as lichess asks (pages.js).
  $('resign').onclick = () => confirmThen('Resign this game?', resign);
  $('offerdraw').onclick = () => confirmThen('Offer Kestrel a draw?', offerDraw);
  $('over-close').onclick = () => $('over-dialog').close();
  $('over-again').onclick = () => { $('over-dialog').close(); openMatchDialog(); };
  $('over-rematch').onclick = rematch;
  $('over-analyse').onclick = analyseThisGame;
  $('rematch').onclick = rematch;
  $('analysegame').onclick = analyseThisGame;
  setInterval(tickClock, 100);
}
