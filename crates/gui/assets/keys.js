// Keyboard shortcuts and the mouse wheel over the board, as on lichess's
// analysis board: arrows, Home and End step through the moves, `f` flips,
// Space has the engine play a move, `l` turns analysis on and off, `x`
// hides or shows the engine's arrows, `?` opens the list of keys (Esc
// closes it). Keys are left alone while you type in a text field, with Ctrl,
// Alt or Meta held (the browser's own shortcuts) and while another dialog
// is open. Loaded before app.js, whose state (S) and commands it calls.
'use strict';

// The list the help dialog shows: [keys, what they do, action].
const SHORTCUTS = [
  [['ArrowLeft'], '←', 'back one move', () => step(-1)],
  [['ArrowRight'], '→', 'forward one move', () => step(1)],
  [['ArrowUp', 'Home'], '↑ or Home', 'to the start', () => goto(0)],
  [['ArrowDown', 'End'], '↓ or End', 'to the end of the line', () => gotoEnd()],
  [['f'], 'f', 'flip the board', () => flipBoard()],
  [[' '], 'Space', 'the engine plays a move for the side to move (that side\'s settings)', () => engineMove()],
  [['l'], 'l', 'live analysis on or off', () => toggleAnalysis()],
  [['x'], 'x', 'show or hide the engine\'s best-move arrows', () => toggleArrows()],
  [['?'], '?', 'this list (Esc closes it)', () => toggleHelp()],
  [['Escape'], 'Esc', 'leave an engine line being stepped through', () => leaveLine()],
];
// Wheel over the board: one step per notch; a touchpad sends many small
// events, so steps are at least this far apart.
const WHEEL_MS = 90;
const KEYS = { lastWheel: 0 };

// A field that takes text has the keys; a checkbox, a radio button, a
// select or a button clicked with the mouse does not (the arrows, Home,
// End and f still step and flip, as on lichess).
const TEXT_FIELD = 'textarea, [contenteditable], input:not([type="checkbox"]):not([type="radio"]):not([type="button"])'
  + ':not([type="submit"]):not([type="file"]):not([type="range"]):not([type="color"])';
function typing(target) {
  return target instanceof Element && target.matches(TEXT_FIELD);
}

function onKey(ev) {
  if (ev.ctrlKey || ev.altKey || ev.metaKey || typing(ev.target)) return;
  const help = $('help-dialog');
  // Another dialog (new game, game over) has the keys; the help list only takes `?`.
  const other = [...document.querySelectorAll('dialog[open]')].some((d) => d !== help);
  if (other || (help.open && ev.key !== '?')) return;
  const key = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
  const entry = SHORTCUTS.find(([keys]) => keys.includes(key) || keys.includes(ev.key));
  if (!entry || !S.game) return;
  if (key === 'Escape' && !S.pv) return; // Esc closes menus elsewhere
  // Space would also click the button that has the focus, arrows scroll the page.
  ev.preventDefault();
  entry[3]();
}

function onWheel(ev) {
  if (!S.game || S.edit || ev.deltaY === 0) return;
  ev.preventDefault(); // the board steps; the page does not scroll under it
  const now = performance.now();
  if (now - KEYS.lastWheel < WHEEL_MS) return;
  KEYS.lastWheel = now;
  step(ev.deltaY > 0 ? 1 : -1); // down: forward, as lichess
}

function toggleAnalysis() {
  if (hideEval()) { showStatus('The evaluation is hidden while you play.'); return; }
  $('analyse').click(); // ticks the box and runs its change handler
}

function toggleArrows() {
  S.hideArrows = !S.hideArrows;
  refreshArrows();
  showStatus(S.hideArrows ? 'Engine arrows hidden (x shows them).' : 'Engine arrows shown.');
}

function leaveLine() {
  S.pv = null;
  render();
}

function toggleHelp() {
  const help = $('help-dialog');
  if (help.open) help.close();
  else help.showModal();
}

function buildHelp() {
  const rows = SHORTCUTS.map(([, label, what]) => `<tr><td><kbd>${escapeHtml(label)}</kbd></td><td>${escapeHtml(what)}</td></tr>`);
  rows.push('<tr><td>wheel</td><td>over the board: back (up) and forward (down)</td></tr>');
  $('help-keys').innerHTML = rows.join('');
}

function wireKeys() {
  buildHelp();
  document.addEventListener('keydown', onKey);
  $('board-wrap').addEventListener('wheel', onWheel, { passive: false });
  $('helpbtn').onclick = toggleHelp;
  $('help-close').onclick = () => $('help-dialog').close();
}
