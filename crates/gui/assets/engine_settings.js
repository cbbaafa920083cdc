// The engine settings panel, as lichess's analysis gear: one place for how
// Kestrel searches on the analysis board (the number of lines, its search
// threads and table size, the evaluator, every search technique switch
// and number), used by live analysis and by the engine players and
// "Engine move" there. Threads and table belong to the game's engine on
// the server (POST /api/engine, sent when they change and when a game is
// opened); the other options go with each search. A game
// against Kestrel (Play) is not affected: Kestrel plays it at its full
// settings and the level picked in the match dialog. The list is read from
// the engine's own options (/api/options), so a new switch appears here
// without touching the page; the choices are kept in localStorage. Loaded
// before app.js, whose state (S) and helpers it uses when called.
'use strict';

const ENGINE_KEY = 'kestrel-engine';
const ENGINE = { applied: { threads: 1, hash_mib: 16 } }; // what the game's engine has, as far as the page knows

// The table sizes offered: powers of two from 16 MiB to the server's limit.
function hashSizes() {
  const out = [];
  for (let mib = 16; mib <= S.hashMax; mib *= 2) out.push(mib);
  return out.length ? out : [S.hashMax];
}

// Options shown elsewhere (MultiPV as "Lines", the level per side) or
// that mean nothing here (UCI_*).
const shownElsewhere = (o) => o.name === 'MultiPV' || o.name.startsWith('UCI_');

function buildEngineSettings() {
  const evaluator = S.options.find((o) => o.name === 'Evaluator');
  const switches = S.options.filter((o) => o.type === 'check' && !shownElsewhere(o));
  const numbers = S.options.filter((o) => o.type === 'spin' && !shownElsewhere(o));
  const words = S.options.filter((o) => o.type === 'combo' && o.name !== 'Evaluator');
  const combo = (o) => `<label>${o.name} <select data-option="${o.name}">${o.choices.map((c) => `<option ${c === o.default ? 'selected' : ''}>${escapeHtml(c)}</option>`).join('')}</select></label>`;
  $('engine-threads').max = String(S.threadsMax);
  $('engine-hash').innerHTML = hashSizes().map((m) => `<option value="${m}">${m >= 1024 ? `${m / 1024} GiB` : `${m} MiB`}</option>`).join('');
  $('engine-hash').value = '16';
  $('engine-options').innerHTML = `
    <div class="row">${evaluator ? combo(evaluator) : ''}${words.map(combo).join('')}</div>
    <details id="techniques"><summary>Search techniques (${switches.length} switches, ${numbers.length} numbers)</summary>
      <div class="opts">
      ${switches.map((o) => `<label><input type="checkbox" data-option="${o.name}" ${o.default ? 'checked' : ''}> ${o.name}</label>`).join('')}
      ${numbers.map((o) => `<label>${o.name} <input type="number" data-option="${o.name}" value="${o.default}" min="${o.min}" max="${o.max}" style="width:5em"></label>`).join('')}
      </div>
    </details>`;
  loadEngineSettings();
  for (const el of $('engine-panel').querySelectorAll('[data-option], #multipv')) {
    el.addEventListener('change', () => { saveEngineSettings(); restartAnalysis(); });
  }
  for (const el of [$('engine-threads'), $('engine-hash')]) el.addEventListener('change', sendResources);
  $('engine-reset').onclick = () => {
    for (const el of $('engine-options').querySelectorAll('[data-option]')) setOptionInput(el, S.options.find((o) => o.name === el.dataset.option).default);
    $('engine-threads').value = '1';
    $('engine-hash').value = '16';
    saveEngineSettings();
    sendResources();
  };
}

// The UCI option SyzygyPath, where the host reads files of its own
// (`kestrel gui`): sent at once (POST /api/syzygy), it gives the tables to
// the tablebase panel and to the engine's next searches; kept in
// localStorage and sent again when the page opens on a server that has
// not got it (it restarted).
const SYZYGY_KEY = 'kestrel-syzygy-path';
async function setSyzygyPath(path, quiet = false) {
  $('engine-error').textContent = '';
  try {
    const r = await api('POST', '/api/syzygy', { path });
    S.tablebasePieces = r.pieces;
    $('syzygy-path').value = r.path || '';
    try { localStorage.setItem(SYZYGY_KEY, r.path || ''); } catch (e) { /* private mode: not kept */ }
    if (!quiet) showStatus(r.path ? `Syzygy tables of ${r.path}: up to ${r.pieces} pieces.` : `The server's own tables: up to ${r.pieces} pieces.`);
    refreshPanels();
  } catch (e) {
    $('engine-error').textContent = e.message;
  }
}

function wireSyzygyPath(opts) {
  $('syzygy-row').hidden = !opts.syzygy_settable;
  if (!opts.syzygy_settable) return;
  $('syzygy-path').value = opts.syzygy_path || '';
  $('syzygy-set').onclick = () => setSyzygyPath($('syzygy-path').value.trim());
  $('syzygy-path').addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') { ev.preventDefault(); setSyzygyPath($('syzygy-path').value.trim()); }
  });
  let kept = null;
  try { kept = localStorage.getItem(SYZYGY_KEY); } catch (e) { kept = null; }
  if (kept && kept !== (opts.syzygy_path || '')) setSyzygyPath(kept, true);
}

function setOptionInput(el, value) {
  if (el.type === 'checkbox') el.checked = !!value;
  else el.value = String(value);
}

function optionValue(el) {
  const o = S.options.find((x) => x.name === el.dataset.option);
  const v = o.type === 'check' ? el.checked : o.type === 'spin' ? Number(el.value) : el.value;
  return { o, v };
}

// The options set away from their defaults (what a search is sent).
function engineOptions() {
  const out = {};
  for (const el of $('engine-options').querySelectorAll('[data-option]')) {
    const { o, v } = optionValue(el);
    if (o.type === 'spin' && !(v >= o.min && v <= o.max)) continue; // a number being typed: the default until it is one
    if (v !== o.default) out[o.name] = v;
  }
  return out;
}

const analysisLines = () => Number($('multipv').value);
const wantedResources = () => ({ threads: Number($('engine-threads').value), hash_mib: Number($('engine-hash').value) });

function saveEngineSettings() {
  const kept = { lines: analysisLines(), options: engineOptions(), ...wantedResources() };
  try { localStorage.setItem(ENGINE_KEY, JSON.stringify(kept)); } catch (e) { /* storage off: this visit only */ }
}

// The threads and table chosen, given to the game's engine: its search
// stops first (an engine player's too, which then thinks again), and
// analysis starts again. Refused (a table the server's memory for games
// cannot hold now), the choice goes back to what the engine has.
async function sendResources() {
  const want = wantedResources();
  if (!(want.threads >= 1 && want.threads <= S.threadsMax)) { $('engine-threads').value = String(ENGINE.applied.threads); return; }
  $('engine-error').textContent = '';
  await stopSearch();
  try {
    ENGINE.applied = await post('/api/engine', want);
    saveEngineSettings();
  } catch (e) {
    $('engine-error').textContent = e.message;
    $('engine-threads').value = String(ENGINE.applied.threads);
    $('engine-hash').value = String(ENGINE.applied.hash_mib);
  }
  maybeEngine();
  restartAnalysis();
}

// A game opened (a new one, a reload, a restored one): its engine gets the
// kept threads and table, when they are not the defaults it starts with.
async function applyResources() {
  const want = wantedResources();
  ENGINE.applied = { threads: 1, hash_mib: 16 };
  if (want.threads === 1 && want.hash_mib === 16) return;
  try { ENGINE.applied = await post('/api/engine', want); } catch (e) {
    $('engine-error').textContent = e.message;
    $('engine-threads').value = '1';
    $('engine-hash').value = '16';
  }
}

// A kept option the engine no longer has, or a value it no longer takes, is dropped.
function loadEngineSettings() {
  let saved = {};
  try { saved = JSON.parse(localStorage.getItem(ENGINE_KEY)) || {}; } catch (e) { /* storage off or garbled */ }
  if ([...$('multipv').options].some((o) => Number(o.value) === saved.lines)) $('multipv').value = String(saved.lines);
  if (Number.isInteger(saved.threads) && saved.threads >= 1 && saved.threads <= S.threadsMax) $('engine-threads').value = String(saved.threads);
  if (hashSizes().includes(saved.hash_mib)) $('engine-hash').value = String(saved.hash_mib);
  for (const [name, value] of Object.entries(saved.options || {})) {
    const el = $('engine-options').querySelector(`[data-option="${CSS.escape(name)}"]`);
    const o = S.options.find((x) => x.name === name);
    if (!el || !o) continue;
    const ok = o.type === 'check' ? typeof value === 'boolean'
      : o.type === 'spin' ? Number.isInteger(value) && value >= o.min && value <= o.max
        : o.choices.includes(value);
    if (ok) setOptionInput(el, value);
  }
}

function toggleEngineSettings(open = $('engine-panel').classList.contains('hidden')) {
  $('engine-panel').classList.toggle('hidden', !open);
  $('engine-gear').setAttribute('aria-expanded', String(open));
  $('engine-gear').classList.toggle('on', open);
}

function wireEngineSettings() {
  $('engine-gear').onclick = () => toggleEngineSettings();
  $('engine-close').onclick = () => toggleEngineSettings(false);
}
