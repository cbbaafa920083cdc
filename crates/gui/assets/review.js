// "Analyse game": the server's whole-game pass (/api/analysis), the graph
// of White's winning chances after each move (click it to go to that
// move), the judgements in the move list (?! ? ??), under the graph the
// judged move on view in words (why it goes wrong, what the best move
// does: the `explain` and `best_explain` the pass gives), each side's summary,
// and, while live analysis is off, the bar and the best-move arrow of the
// move on view. The pass runs on the server, so the page only draws what its
// events bring. Loaded before app.js, whose state (S) and helpers it uses
// when called.
'use strict';

const REVIEW = {
  view: null,        // the server's ReviewView
  key: null,         // the game id and version the view was asked for
  viewKey: null,     // the game id and version the view is of
  fens: [],          // the main line's positions (FENs by ply) the view is of
};
const JUDGEMENT_MARK = { inaccuracy: '?!', mistake: '?', blunder: '??' };
const JUDGEMENT_WORD = { inaccuracy: 'Inaccuracy', mistake: 'Mistake', blunder: 'Blunder' };

const reviewRunning = () => !!(REVIEW.view && REVIEW.view.state === 'running');
const gameKey = () => `${S.game.id}:${S.game.version}`;

// A view the server gave for the game as it is now.
function setReview(view) {
  REVIEW.view = view;
  REVIEW.viewKey = gameKey();
  REVIEW.fens = mainlineFens();
  renderReview();
}

// The main line's positions, by ply.
function mainlineFens() {
  const fens = [];
  for (let n = treeNode(0); n && (n.id === 0 || n.main); n = treeNode(n.children[0])) fens[n.ply] = n.fen;
  return fens;
}

// The pass's result for the position on view, which the bar and the
// best-move arrow show while live analysis is off (as lichess shows its
// server analysis): none off the main line or while the evaluation is
// hidden. A view of an older version of the game still counts for a
// position the change left where it was (a comment, a side line, a later
// move), so that the bar and the arrow stay while the page asks for the
// pass again instead of blinking off.
function reviewedHere() {
  const v = REVIEW.view;
  if (!v || v.hidden || !S.game || hideEval() || S.pv || $('analyse').checked) return null;
  if (!REVIEW.viewKey || REVIEW.viewKey.split(':')[0] !== String(S.game.id)) return null;
  const node = curNode();
  if (!node.main || REVIEW.fens[node.ply] !== node.fen) return null;
  return v.positions[node.ply] || null;
}

async function startReview() {
  // The server stops live analysis, which would hold the engine (the pass
  // yields to any other search), but never an engine player's move.
  try {
    setReview(await post('/api/analysis', {}));
  } catch (e) { showStatus(e.message); }
}

async function cancelReview() {
  try {
    setReview(await post('/api/analysis/cancel', {}));
    restartAnalysis();
  } catch (e) { showStatus(e.message); }
}

// The pass's progress and results, pushed on the event stream.
function reviewEvent(e) {
  if (e.type !== 'analysis') return;
  const wasRunning = reviewRunning();
  if (!S.game) return;
  setReview(e.analysis);
  if (wasRunning && !reviewRunning()) restartAnalysis();
}

// Asks for the results again when the game changed (a move, an undo, a new
// game): they are the server's, for the game as it is now.
async function refreshReview() {
  if (!S.game) return;
  const key = gameKey();
  if (REVIEW.key === key) return;
  REVIEW.key = key;
  try {
    const view = await api('GET', `/api/analysis?game=${S.game.id}`);
    if (REVIEW.key === key) setReview(view);
  } catch (e) { /* the next change asks again */ }
}

function renderReview() {
  if (!S.game) return;
  refreshReview();
  const v = REVIEW.view;
  const hidden = hideEval() || (v && v.hidden);
  const running = reviewRunning();
  $('review-start').disabled = running || hidden || S.game.plies.length === 0;
  $('review-start').title = hidden ? 'The evaluation is hidden until the game ends' : 'A short search of every position of the game';
  $('review-cancel').classList.toggle('hidden', !running);
  // The best lines go into the tree once there is a judged move and the
  // game is one to study (not one against Kestrel still going on).
  const judged = !hidden && v && v.moves.some((m) => m && m.judgement);
  $('review-lines').classList.toggle('hidden', !judged || running || !!S.game.linear);
  const progress = $('review-progress');
  progress.textContent = !v || hidden ? '' : running ? `Analysing… ${v.analysed}/${v.total}`
    : v.state === 'cancelled' ? `Stopped (${v.message || 'cancelled'}): ${v.analysed}/${v.total}` : '';
  $('review').dataset.state = v ? v.state : 'idle';
  $('review').dataset.analysed = v && !hidden ? v.analysed : 0;
  drawGraph(hidden ? null : v);
  markMoves(hidden ? null : v);
  renderExplain(hidden ? null : v);
  renderSummary(hidden ? null : v);
  // Live lines, when there are any, keep the bar.
  refreshArrows();
  const here = reviewedHere();
  if (!S.linesFen) setEvalBar(here && here.score);
}

// The graph: White's winning chances (lichess's curve; a mate at the edge)
// after each ply, White's share filled from the bottom, the judged moves
// as dots and the ply on view as a line.
function drawGraph(v) {
  const svg = $('graph');
  const known = v ? v.positions.map((p, i) => (p ? { i, win: p.win } : null)).filter(Boolean) : [];
  svg.classList.toggle('empty', known.length === 0);
  svg.innerHTML = '';
  if (!known.length) return;
  const w = svg.clientWidth || 600, h = svg.clientHeight || 100;
  svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
  const last = Math.max(1, v.positions.length - 1);
  const x = (i) => (i / last) * w;
  const pad = 5; // a mate sits on the edge, its dot still whole
  const y = (win) => pad + (1 - win / 100) * (h - 2 * pad);
  const pts = known.map((p) => `${x(p.i).toFixed(1)},${y(p.win).toFixed(1)}`);
  const first = known[0], end = known[known.length - 1];
  const NS = 'http://www.w3.org/2000/svg';
  const add = (tag, attrs) => {
    const el = document.createElementNS(NS, tag);
    for (const [k, val] of Object.entries(attrs)) el.setAttribute(k, val);
    svg.appendChild(el);
    return el;
  };
  add('polygon', { class: 'area', points: `${x(first.i)},${h} ${pts.join(' ')} ${x(end.i)},${h}` });
  add('line', { class: 'mid', x1: 0, y1: h / 2, x2: w, y2: h / 2 });
  add('polyline', { class: 'curve', points: pts.join(' ') });
  const cur = add('line', { class: 'cur', x1: x(S.ply), y1: 0, x2: x(S.ply), y2: h });
  cur.dataset.ply = S.ply;
  v.moves.forEach((m) => {
    if (!m || !m.judgement) return;
    const p = v.positions[m.ply];
    const dot = add('circle', { class: `judg ${m.judgement}`, cx: x(m.ply), cy: y(p.win), r: 4 });
    dot.dataset.ply = m.ply;
    const t = document.createElementNS(NS, 'title');
    t.textContent = `${m.ply % 2 ? '' : '…'}${m.san}: ${JUDGEMENT_WORD[m.judgement]}`;
    dot.appendChild(t);
  });
}

// The ply under a click on the graph.
function graphClick(ev) {
  const v = REVIEW.view;
  if (!v || !v.positions.length || hideEval()) return;
  const box = $('graph').getBoundingClientRect();
  const last = v.positions.length - 1;
  const ply = Math.round(((ev.clientX - box.left) / box.width) * last);
  if (S.pv) S.pv = null;
  goto(Math.max(0, Math.min(last, ply)));
}

// ?! ? ?? after the judged moves of the move list, with the drop and the
// pass's best move as the tooltip.
function markMoves(v) {
  for (const old of document.querySelectorAll('#moves .judg')) old.remove();
  if (!v) return;
  for (const m of v.moves) {
    if (!m) continue;
    const el = document.querySelector(`#moves .mv[data-ply="${m.ply}"]`);
    if (!el) continue;
    const best = m.best && m.best !== m.san ? ` Best was ${m.best}.` : '';
    const words = [m.explain, m.best_explain].filter(Boolean).join(' ');
    el.title = m.judgement ? `${JUDGEMENT_WORD[m.judgement]}: −${m.loss.toFixed(1)}% winning chances.${words ? ' ' + words : best}` : '';
    if (!m.judgement) continue;
    const s = document.createElement('span');
    s.className = `judg ${m.judgement}`;
    s.textContent = JUDGEMENT_MARK[m.judgement];
    el.insertBefore(s, el.querySelector('.t'));
  }
}

// The judged move on view in words: its judgement, why it goes wrong and
// what the best move does (or, when the pass's lines show nothing
// certain, only which move was best).
function renderExplain(v) {
  const el = $('review-explain');
  el.textContent = '';
  const node = curNode();
  if (!v || S.pv || !node.main || node.ply === 0 || REVIEW.fens[node.ply] !== node.fen) return;
  const m = v.moves[node.ply - 1];
  if (!m || !m.judgement) return;
  const word = document.createElement('b');
  word.className = `judg ${m.judgement}`;
  word.textContent = `${JUDGEMENT_WORD[m.judgement]}:`;
  const best = m.best_explain || (m.best && m.best !== m.san ? `Best was ${m.best}.` : '');
  el.append(word, ` ${[m.explain || `${m.san}.`, best].filter(Boolean).join(' ')}`);
  el.dataset.ply = m.ply;
}

function renderSummary(v) {
  const el = $('review-summary');
  if (!v || !v.summary || v.analysed < 2) { el.innerHTML = ''; return; }
  const row = (side, name) => {
    const s = v.summary[side];
    const cells = [s.inaccuracies, s.mistakes, s.blunders, s.acpl ?? '–', s.accuracy != null ? `${s.accuracy.toFixed(1)}%` : '–'];
    return `<tr data-side="${side}"><th>${name}</th>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`;
  };
  el.innerHTML = `<table><tr><th></th><th class="inaccuracy">?! Inaccuracies</th><th class="mistake">? Mistakes</th>`
    + `<th class="blunder">?? Blunders</th><th>ACPL</th><th>Accuracy</th></tr>${row('w', 'White')}${row('b', 'Black')}</table>`;
}

// lichess's computer analysis in the tree: each judged move's best line as
// a variation, with its comment ("Mistake. Nf3 was best.").
async function addBestLines() {
  try {
    setGame(await post('/api/analysis/lines', {}));
  } catch (e) { showStatus(e.message); }
}

function wireReview() {
  $('review-start').onclick = startReview;
  $('review-lines').onclick = addBestLines;
  $('review-cancel').onclick = cancelReview;
  $('graph').addEventListener('click', graphClick);
  window.addEventListener('resize', () => drawGraph(hideEval() ? null : REVIEW.view));
}
