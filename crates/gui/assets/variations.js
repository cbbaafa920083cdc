// The game as a tree, as lichess's analysis board shows it: the main line
// in two columns, each move's alternatives below it in parentheses (nested
// ones inline and smaller), comments and NAG glyphs; going to a node (the
// page shows it at once, the server then sends its legal moves), and the
// promote and delete commands (buttons under the list, or a right-click
// on a move). Loaded before app.js, whose state (S) and helpers it uses.
'use strict';

const NAG_GLYPHS = {
  1: '!', 2: '?', 3: '!!', 4: '??', 5: '!?', 6: '?!', 7: '□', 10: '=', 13: '∞', 14: '+=', 15: '=+', // ⩲ ⩱ are missing from common fonts
  16: '±', 17: '∓', 18: '+−', 19: '−+', 22: '⨀', 23: '⨀', 32: '⟳', 33: '⟳', 36: '→', 37: '→',
  40: '↑', 41: '↑', 132: '⇆', 133: '⇆', 140: '∆', 146: 'N',
};
const nagText = (n) => NAG_GLYPHS[n] || `$${n}`;

const TREE = { byId: new Map(), navChain: Promise.resolve(), navSeq: 0 };

// Called by setGame with each new view.
function indexTree(view) {
  TREE.byId = new Map(view.nodes.map((n) => [n.id, n]));
  S.ply = mainlinePly(view.current);
}

const treeNode = (id) => TREE.byId.get(id);
const curNode = () => treeNode(S.game.current) || treeNode(0);

// The main-line ply of a node, or of the last main-line move before it
// (the graph and the opening name follow the main line).
function mainlinePly(id) {
  let n = treeNode(id);
  while (n && !n.main) n = treeNode(n.parent);
  return n ? n.ply : 0;
}

// The end of the line through a node: its first children, to the last.
function lineEnd(id) {
  let n = treeNode(id);
  while (n && n.children.length) n = treeNode(n.children[0]);
  return n ? n.id : 0;
}

// Puts a node on view: drawn at once from the tree, then the server's
// view of it (its legal moves) replaces the page's guess. Requests go one
// after another, so the server ends on the last node asked for.
function gotoNode(id) {
  const n = treeNode(id);
  if (!n || !S.game) return;
  const before = S.game.current;
  Object.assign(S.game, { current: id, fen: n.fen, turn: n.fen.split(' ')[1], check: n.check, legal: [] });
  S.ply = mainlinePly(id);
  render();
  const seq = ++TREE.navSeq;
  TREE.navChain = TREE.navChain.then(async () => {
    try {
      const view = await post('/api/goto', { node: id });
      if (seq !== TREE.navSeq) return; // a later step is on its way
      setGame(view);
      refreshPanels();
    } catch (e) { showStatus(e.message); }
  });
  if (id !== before) restartAnalysis();
}

function stepNode(d) {
  const n = curNode();
  if (d < 0 && n.parent != null) gotoNode(n.parent);
  else if (d > 0 && n.children.length) gotoNode(n.children[0]);
}

// Plays the moves of an engine line from node `from` (a click on its
// `count`th move): the line becomes a variation, or is followed where the
// game has it already.
async function playLine(from, moves) {
  let view = null;
  try {
    for (const m of moves) {
      view = await post('/api/move', { move: m.uci, from });
      from = view.current;
    }
  } catch (e) { showStatus(e.message); }
  if (view) { setGame(view); afterChange(); }
}

// ---------- the move list ----------

function moveEl(n) {
  const m = document.createElement('span');
  m.className = 'mv' + (n.id === S.game.current && !S.pv ? ' cur' : '');
  m.dataset.node = n.id;
  if (n.main) m.dataset.ply = n.ply;
  m.textContent = n.san;
  for (const g of n.nags) {
    const s = document.createElement('span');
    s.className = 'nag';
    s.textContent = nagText(g);
    s.title = `$${g}`;
    m.appendChild(s);
  }
  if (n.time_ms != null) {
    const t = document.createElement('span');
    t.className = 't';
    t.textContent = timeText(n.time_ms);
    m.appendChild(t);
  }
  // A game on a clock: the mover's clock after the move (match.js).
  if (n.clock_ms != null) {
    const c = document.createElement('span');
    c.className = 'clk';
    c.textContent = clockText(n.clock_ms);
    m.appendChild(c);
  }
  m.onclick = () => { S.pv = null; gotoNode(n.id); };
  m.oncontextmenu = (ev) => { ev.preventDefault(); openNodeMenu(n.id, ev.clientX, ev.clientY); };
  return m;
}

function commentEl(text) {
  const c = document.createElement('span');
  c.className = 'comment';
  c.textContent = text;
  return c;
}

const isWhiteMove = (n) => n.fen.split(' ')[1] === 'b';
const moveNumber = (n) => Number(n.fen.split(' ')[5]) - (isWhiteMove(n) ? 0 : 1);

// One variation inline: from node `first` on along first children, the
// alternatives to each move nested in parentheses after it.
function inlineLine(first, depth) {
  const box = document.createElement('span');
  box.className = 'line-' + Math.min(depth, 3);
  let n = treeNode(first);
  let numbered = true; // a line's first move always has its number
  let pending = []; // the alternatives to the move being written
  while (n) {
    for (const c of n.comments_before) { box.appendChild(commentEl(c)); numbered = true; }
    if (isWhiteMove(n) || numbered) {
      const num = document.createElement('span');
      num.className = 'vnum';
      num.textContent = moveNumber(n) + (isWhiteMove(n) ? '.' : '...');
      box.appendChild(num);
    }
    box.appendChild(moveEl(n));
    numbered = false;
    for (const c of n.comments) { box.appendChild(commentEl(c)); numbered = true; }
    for (const alt of pending) {
      const p = document.createElement('span');
      p.className = 'sub';
      p.append('(', inlineLine(alt, depth + 1), ')');
      box.appendChild(p);
      numbered = true;
    }
    pending = n.children.slice(1);
    n = n.children.length ? treeNode(n.children[0]) : null;
  }
  return box;
}

// The move list: the main line in columns (number, White, Black); after a
// move with alternatives or comments the columns break for a block that
// holds them, one variation a line, as lichess does.
function renderMoveTree() {
  const el = $('moves');
  el.innerHTML = '';
  const cells = [];
  let n = treeNode(0);
  const startBlack = S.game.start_fen.split(' ')[1] === 'b';
  if (n) for (const c of n.comments) cells.push(block([commentEl(c)]));
  let resume = startBlack; // a row starting with Black's move needs "n. …"
  while (n && n.children.length) {
    const main = treeNode(n.children[0]);
    const white = isWhiteMove(main);
    const before = main.comments_before.map(commentEl);
    if (before.length) {
      if (!white && !resume) cells.push(blank()); // close the row before the block
      cells.push(block(before));
      if (!white) resume = true;
    }
    if (white) cells.push(num(moveNumber(main)));
    else if (resume) cells.push(num(moveNumber(main)), blank());
    resume = false;
    cells.push(moveEl(main));
    const extra = main.comments.map(commentEl);
    const alts = n.children.slice(1).map((id) => {
      const v = document.createElement('div');
      v.className = 'var';
      v.append('(', inlineLine(id, 1), ')');
      return v;
    });
    if (extra.length || alts.length) {
      if (white) cells.push(blank());
      cells.push(block([...extra, ...alts]));
      resume = white;
    }
    n = main;
  }
  const st = S.game.status;
  if (st.over || st.result !== '*') {
    const r = document.createElement('span');
    r.className = 'result';
    r.textContent = st.over ? `${st.result} (${st.reason})` : st.result;
    cells.push(r);
  }
  cells.forEach((c) => el.appendChild(c));
  const cur = el.querySelector('.cur');
  if (cur) scrollListTo(el, cur);
  renderTreeTools();
  renderAnnotate();
  function num(k) { const s = document.createElement('span'); s.className = 'num'; s.textContent = k + '.'; return s; }
  function blank() { const s = document.createElement('span'); s.className = 'blank'; s.textContent = '…'; return s; }
  function block(children) { const d = document.createElement('div'); d.className = 'interrupt'; d.append(...children); return d; }
}

// Scrolls the move list, and nothing else, so that `item` shows: the
// page must not move under the board (scrollIntoView would scroll every
// scrolling box around the list, the page included).
function scrollListTo(list, item) {
  const box = list.getBoundingClientRect(), at = item.getBoundingClientRect();
  if (at.top < box.top) list.scrollTop -= box.top - at.top;
  else if (at.bottom > box.bottom) list.scrollTop += at.bottom - box.bottom;
}

// ---------- promote and delete ----------

// Whether the node's variation can move up (it is not on the main line).
const promotable = (id) => { const n = treeNode(id); return n && !n.main; };

function renderTreeTools() {
  const n = curNode();
  const locked = S.game.linear; // a game against the computer is one line
  $('promote').disabled = locked || !promotable(n.id);
  $('mainline').disabled = locked || !promotable(n.id);
  $('delete').disabled = locked || n.id === 0;
}

async function treeCommand(path, body) {
  closeNodeMenu();
  try {
    setGame(await post(path, body));
    afterChange();
  } catch (e) { showStatus(e.message); }
}
const promoteNode = (id, main) => treeCommand('/api/promote', { node: id, main });
const deleteNode = (id) => treeCommand('/api/delete', { node: id });

function openNodeMenu(id, x, y) {
  if (S.game.linear) return;
  const menu = $('node-menu');
  menu.innerHTML = '';
  const item = (text, action, enabled) => {
    const b = document.createElement('button');
    b.textContent = text;
    b.disabled = !enabled;
    b.onclick = action;
    menu.appendChild(b);
  };
  item('Promote variation', () => promoteNode(id, false), promotable(id));
  item('Make main line', () => promoteNode(id, true), promotable(id));
  item('Delete from here', () => deleteNode(id), true);
  menu.style.left = `${x}px`;
  menu.style.top = `${y}px`;
  menu.classList.remove('hidden');
}

function closeNodeMenu() { $('node-menu').classList.add('hidden'); }

function wireTree() {
  // The move on view stays in view when the list's box changes (the phone's
  // engine strip appearing above it, a panel opened, the window resized).
  new ResizeObserver(() => {
    const cur = $('moves').querySelector('.cur');
    if (cur) scrollListTo($('moves'), cur);
  }).observe($('moves'));
  $('promote').onclick = () => promoteNode(S.game.current, false);
  $('mainline').onclick = () => promoteNode(S.game.current, true);
  $('delete').onclick = () => deleteNode(S.game.current);
  document.addEventListener('click', (ev) => { if (!ev.target.closest('#node-menu')) closeNodeMenu(); });
  document.addEventListener('keydown', (ev) => { if (ev.key === 'Escape') closeNodeMenu(); });
}
