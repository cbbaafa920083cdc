// Kestrel's engine Worker: runs kestrel.wasm, one UCI line at a time, and
// posts every output line back. kestrel.js (the Worker pages talk to) starts
// it, and so does kestrel-game.js (the GUI's games without a server), whose
// searches come as `{ search: ORDER }` (a SearchOrder as JSON, crates/web
// search.rs) and report as JSON lines. A search blocks this Worker until it
// answers, so `stop` and `ponderhit` cannot come as messages: kestrel.js
// (or kestrel-game.js) writes them into a SharedArrayBuffer (when the page
// is cross-origin isolated), which the engine reads every 1024 nodes
// through the `poll` import.
//
// The shared words: [0] the number of the last `go` to stop, [1] the number
// of the last `go` whose ponder move was played, [2] bumped (and notified)
// on either, for `pause`. Searches are numbered from 1 in the order their
// `go` lines were sent, by both Workers.
'use strict';

let exports = null;
let flags = null;
let searches = 0;
const pending = [];
const encoder = new TextEncoder();
const decoder = new TextDecoder();

const imports = {
  kestrel: {
    output(ptr, len) {
      const text = decoder.decode(new Uint8Array(exports.memory.buffer, ptr, len));
      for (const line of text.split('\n')) {
        if (line !== '') postMessage(line);
      }
    },
    now: () => performance.now(),
    poll() {
      if (flags === null) return 0;
      return (Atomics.load(flags, 0) >= searches ? 1 : 0) |
        (Atomics.load(flags, 1) >= searches ? 2 : 0);
    },
    pause(ms) {
      if (flags !== null) {
        Atomics.wait(flags, 2, Atomics.load(flags, 2), ms);
        return;
      }
      const end = performance.now() + ms;
      while (performance.now() < end) { /* no way to sleep without shared memory */ }
    },
    random: () => crypto.getRandomValues(new Uint32Array(1))[0],
  },
};

function write(text) {
  const bytes = encoder.encode(text);
  const ptr = exports.kestrel_input(bytes.length);
  new Uint8Array(exports.memory.buffer, ptr, bytes.length).set(bytes);
  return bytes.length;
}

// A UCI line, or a search ordered by the game Worker: both count as searches
// for the shared flags.
function command(data) {
  if (typeof data !== 'string') {
    searches += 1;
    exports.kestrel_search(write(data.search));
    return;
  }
  if (data.split(/\s+/)[0] === 'go') searches += 1;
  exports.kestrel_command(write(data));
}

// The module from its URL, or compiled already (the game Worker compiles it
// once for its own instance and for every engine it starts).
async function load(url) {
  if (url instanceof WebAssembly.Module) return WebAssembly.instantiate(url, imports);
  try {
    const { instance } = await WebAssembly.instantiateStreaming(fetch(url), imports);
    return instance;
  } catch (streamingFailed) {
    // A server that sends another MIME type than application/wasm.
    const bytes = await (await fetch(url)).arrayBuffer();
    const { instance } = await WebAssembly.instantiate(bytes, imports);
    return instance;
  }
}

onmessage = async (event) => {
  const data = event.data;
  if (typeof data === 'string' || data.search !== undefined) {
    if (exports === null) pending.push(data);
    else command(data);
    return;
  }
  // The first message: the module (its URL, or compiled), and the shared flags.
  flags = data.flags ? new Int32Array(data.flags) : null;
  try {
    exports = (await load(data.module || data.wasm)).exports;
  } catch (error) {
    postMessage(`info string error: cannot load ${data.wasm}: ${error}`);
    return;
  }
  while (pending.length > 0) command(pending.shift());
};
