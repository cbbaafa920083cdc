// Kestrel's engine Worker: runs kestrel.wasm, one UCI line at a time, and
// posts every output line back. kestrel.js (the Worker pages talk to) starts
// it. A search blocks this Worker until it answers, so `stop` and
// `ponderhit` cannot come as messages: kestrel.js writes them into a
// SharedArrayBuffer (when the page is cross-origin isolated), which the
// engine reads every 1024 nodes through the `poll` import.
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

function command(line) {
  if (line.split(/\s+/)[0] === 'go') searches += 1;
  const bytes = encoder.encode(line);
  const ptr = exports.kestrel_input(bytes.length);
  new Uint8Array(exports.memory.buffer, ptr, bytes.length).set(bytes);
  exports.kestrel_command(bytes.length);
}

async function load(url) {
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
  if (typeof data === 'string') {
    if (exports === null) pending.push(data);
    else command(data);
    return;
  }
  // The first message: where the module is, and the shared flags.
  flags = data.flags ? new Int32Array(data.flags) : null;
  try {
    exports = (await load(data.wasm)).exports;
  } catch (error) {
    postMessage(`info string error: cannot load ${data.wasm}: ${error}`);
    return;
  }
  while (pending.length > 0) command(pending.shift());
};
