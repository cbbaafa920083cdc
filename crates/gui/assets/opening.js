// The opening's ECO code and name above the moves, for the position on
// view: the server names every position of the game that lichess's table
// knows (by position, so transpositions count), and the page shows the
// last one at or before the ply on view, which keeps the name once the
// game has left the table. Loaded before app.js, whose state (S) it reads.
'use strict';

const OPENING = { named: [], key: null };

async function refreshOpening() {
  if (!S.game) return;
  const key = `${S.game.id}:${S.game.version}`;
  if (OPENING.key === key) return;
  OPENING.key = key;
  try {
    const r = await api('GET', `/api/opening?game=${S.game.id}`);
    if (OPENING.key === key) { OPENING.named = r.openings; renderOpening(); }
  } catch (e) { /* the next change asks again */ }
}

function renderOpening() {
  if (!S.game) return;
  refreshOpening();
  const el = $('opening');
  let shown = null;
  for (const o of OPENING.named) if (o.ply <= S.ply) shown = o;
  el.innerHTML = shown ? `<span class="eco">${escapeHtml(shown.eco)}</span> ${escapeHtml(shown.name)}` : '';
  el.title = shown ? `Named at ply ${shown.ply} (lichess-org/chess-openings)` : '';
  el.dataset.eco = shown ? shown.eco : '';
}
