// The engine settings panel, as lichess's analysis gear: one place for how
// Kestrel searches on the analysis board (the number of lines, the
// evaluator, every search technique switch and number), used by live
// analysis and by the engine players and "Engine move" there. A game
// against Kestrel (Play) is not affected: Kestrel plays it at its full
// settings and the level picked in the match dialog. The list is read from
// the engine's own options (/api/options), so a new switch appears here
// without touching the page; the choices are kept in localStorage. Loaded
// before app.js, whose state (S) and helpers it uses when called.
'use strict';

const ENGINE_KEY = 'kestrel-engine';
// Options shown elsewhere (MultiPV as "Lines", the level per side) or
// that mean nothing here (UCI_*).
const shownElsewhere = (o) => o.name === 'MultiPV' || o.name.startsWith('UCI_');

function buildEngineSettings() {
  const evaluator = S.options.find((o) => o.name === 'Evaluator');
  const switches = S.options.filter((o) => o.type === 'check' && !shownElsewhere(o));
  const numbers = S.options.filter((o) => o.type === 'spin' && !shownElsewhere(o));
  const words = S.options.filter((o) => o.type === 'combo' && o.name !== 'Evaluator');
  const combo = (o) => `<label>${o.name} <select data-option="${o.name}">${o.choices.map((c) => `<option ${c === o.default ? 'selected' : ''}>${escapeHtml(c)}</option>`).join('')}</select></label>`;
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
  $('engine-reset').onclick = () => {
    for (const el of $('engine-options').querySelectorAll('[data-option]')) setOptionInput(el, S.options.find((o) => o.name === el.dataset.option).default);
    saveEngineSettings();
    restartAnalysis();
  };
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

function saveEngineSettings() {
  try { localStorage.setItem(ENGINE_KEY, JSON.stringify({ lines: analysisLines(), options: engineOptions() })); } catch (e) { /* storage off: this visit only */ }
}

// A kept option the engine no longer has, or a value it no longer takes, is dropped.
function loadEngineSettings() {
  let saved = {};
  try { saved = JSON.parse(localStorage.getItem(ENGINE_KEY)) || {}; } catch (e) { /* storage off or garbled */ }
  if ([...$('multipv').options].some((o) => Number(o.value) === saved.lines)) $('multipv').value = String(saved.lines);
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
