// Annotating the move on view, as on lichess's study board: one move
// judgement (!, ?, !!, ??, !?, ?!) and one position judgement (=, ∞, +=, =+,
// ±, ∓, +−, −+), each toggled by its button, and a comment after the move
// (Save, or Ctrl+Enter in the box; an empty box removes it). The server
// keeps them in the game (POST /api/annotate), so they are in the exported
// PGN and survive a reload. Not while a game against the computer goes on.
// Loaded before app.js, whose state (S) and helpers it uses when called.
'use strict';

const MOVE_NAGS = [1, 2, 3, 4, 5, 6];
const POSITION_NAGS = [10, 13, 14, 15, 16, 17, 18, 19];
const ANNOTATE = { node: null };

function wireAnnotate() {
  const box = $('nag-buttons');
  for (const [group, title] of [[MOVE_NAGS, 'move'], [POSITION_NAGS, 'position']]) {
    const span = document.createElement('span');
    span.className = 'nag-group';
    span.title = `Judge the ${title}`;
    for (const nag of group) {
      const b = document.createElement('button');
      b.textContent = nagText(nag);
      b.dataset.nag = nag;
      b.title = `$${nag}`;
      b.onclick = () => toggleNag(nag, group);
      span.appendChild(b);
    }
    box.appendChild(span);
  }
  $('save-comment').onclick = saveComment;
  $('comment').addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); saveComment(); }
  });
}

// The node annotated: the move on view (the start position has no move).
function annotatedNode() {
  const n = curNode();
  return n && n.id !== 0 && !S.game.linear ? n : null;
}

// Called with every new view of the game (variations.js renders the list).
function renderAnnotate() {
  const n = annotatedNode();
  for (const b of $('nag-buttons').querySelectorAll('button')) {
    b.disabled = !n;
    b.setAttribute('aria-pressed', String(!!n && n.nags.includes(Number(b.dataset.nag))));
  }
  const text = $('comment');
  text.disabled = !n;
  $('save-comment').disabled = !n;
  text.placeholder = !S.game.linear ? (n ? `Comment on ${n.san}` : 'Go to a move to comment on it')
    : 'Annotate once the game ends';
  // A comment being typed stays until it is saved or another move is on view.
  const id = n ? n.id : null;
  if (id !== ANNOTATE.node || document.activeElement !== text) text.value = n ? n.comments.join(' ') : '';
  ANNOTATE.node = id;
}

async function annotate(body) {
  const n = annotatedNode();
  if (!n) return;
  try {
    setGame(await post('/api/annotate', { node: n.id, ...body }));
    showStatus('');
  } catch (e) { showStatus(e.message); }
}

// One judgement of each kind: pressing another replaces it, pressing the
// same one again removes it.
function toggleNag(nag, group) {
  const n = annotatedNode();
  if (!n) return;
  const had = n.nags.includes(nag);
  const nags = n.nags.filter((g) => !group.includes(g));
  if (!had) nags.push(nag);
  annotate({ nags: nags.sort((a, b) => a - b) });
}

function saveComment() {
  annotate({ comment: $('comment').value });
  $('comment').blur();
}
