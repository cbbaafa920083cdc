// Kestrel's game Worker: the GUI's games when the page has no server. The
// page's backend (site/backend.js) sends it the requests it would send
// `kestrel gui` ({ id, method, path, body }); an instance of kestrel.wasm
// answers them with the game logic the server uses (crates/web games.rs,
// gamerecord), and this file carries what goes in and out: replies and the
// games' events (`PageEvent`s) to the page, search orders to the engine's
// Worker (kestrel-engine.js, started here, a second instance of the same
// module), the engine's reports back in. This Worker never searches, so it
// always answers.
//
// Messages to the page: { reply: { id, status, json | text } },
// { event: { game, data } } (data: the event as kestrel gui's stream sends
// it), { saved: [{ game, data }] } (the changed games' copies, which the
// page keeps and gives back after a reload: POST /api/restore),
// { failed: why } when the module cannot load.
//
// Stopping a search: where the page is cross-origin isolated, through a
// SharedArrayBuffer the engine reads every 1024 nodes (as kestrel.js does;
// word 0: the number of the last search to stop, searches numbered from 1
// in the order sent); elsewhere the engine's Worker is ended, the games are
// told (`replaced`: the search answers its last line's move), and the next
// search starts a fresh one from the compiled module (its table empty).
'use strict';

const base = self.location.href;
const shared = self.crossOriginIsolated ? new SharedArrayBuffer(12) : null;
const flags = shared === null ? null : new Int32Array(shared);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

let module = null;   // kestrel.wasm, compiled once for every instance
let game = null;     // this Worker's instance's exports
let output = '';     // what the instance wrote during the last call
let engine = null;   // the engine's Worker, started with the first search
let sent = 0;        // searches sent to it
let running = null;  // { game, search } of the last search sent, until it answers
const early = [];    // requests that came before the module

const imports = {
  kestrel: {
    output(ptr, len) {
      output += decoder.decode(new Uint8Array(game.memory.buffer, ptr, len));
    },
    now: () => performance.now(),
    // This instance never searches.
    poll: () => 0,
    pause() {},
    random: () => crypto.getRandomValues(new Uint32Array(1))[0],
  },
};

// Gives the games one input (crates/web games.rs, `Input`) and carries out
// what follows: replies and events to the page, orders to the engine.
function give(input) {
  const bytes = encoder.encode(JSON.stringify(input));
  const ptr = game.kestrel_input(bytes.length);
  new Uint8Array(game.memory.buffer, ptr, bytes.length).set(bytes);
  output = '';
  game.kestrel_game(bytes.length);
  const out = JSON.parse(output);
  // The changed games' copies first: the page keeps one before it reads
  // the reply that shows the change, so a reload right after it loses nothing.
  if (out.saved.length > 0) postMessage({ saved: out.saved });
  for (const reply of out.replies) postMessage({ reply });
  for (const event of out.events) postMessage({ event });
  for (const order of out.orders) carryOut(order);
}

function startEngine() {
  engine = new Worker(new URL('kestrel-engine.js', base));
  engine.onmessage = (event) => {
    const line = event.data;
    if (typeof line !== 'string' || line[0] !== '{') return; // only reports come
    const tagged = JSON.parse(line);
    if (tagged.report.type === 'best' && running !== null
      && tagged.game === running.game && tagged.search === running.search) running = null;
    give({ kind: 'report', line });
  };
  engine.postMessage({ module, flags: shared });
}

function carryOut(order) {
  if (order.do === 'search') {
    if (engine === null) startEngine();
    sent += 1;
    running = { game: order.game, search: order.search };
    engine.postMessage({ search: order.order });
  } else if (order.do === 'stop') {
    if (running === null) return;
    if (flags !== null) {
      Atomics.store(flags, 0, sent);
      Atomics.add(flags, 2, 1);
      Atomics.notify(flags, 2);
      return;
    }
    const stopped = running;
    running = null;
    engine.terminate();
    engine = null;
    give({ kind: 'replaced', game: stopped.game, search: stopped.search });
  }
}

// Today as PGN dates a game: the module has no clock of its own.
function today() {
  const d = new Date();
  const two = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}.${two(d.getMonth() + 1)}.${two(d.getDate())}`;
}

function request(message) {
  const { id, method, path, body } = message;
  give({ kind: 'request', id, method, path, body: body === undefined ? null : body, date: today() });
}

onmessage = (event) => {
  if (game === null) early.push(event.data);
  else request(event.data);
};

async function compile(url) {
  try {
    return await WebAssembly.compileStreaming(fetch(url));
  } catch (streamingFailed) {
    // A server that sends another MIME type than application/wasm.
    return WebAssembly.compile(await (await fetch(url)).arrayBuffer());
  }
}

(async () => {
  try {
    module = await compile(new URL('kestrel.wasm', base));
    game = (await WebAssembly.instantiate(module, imports)).exports;
  } catch (error) {
    postMessage({ failed: `cannot load kestrel.wasm: ${error}` });
    return;
  }
  while (early.length > 0) request(early.shift());
})();
