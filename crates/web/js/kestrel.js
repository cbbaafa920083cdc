// Kestrel as a Web Worker that speaks UCI over postMessage, as stockfish.wasm
// does:
//
//   const engine = new Worker('kestrel.js');
//   engine.onmessage = (e) => console.log(e.data);   // one output line each
//   engine.postMessage('uci');
//   engine.postMessage('position startpos moves e2e4');
//   engine.postMessage('go movetime 1000');
//
// This Worker never searches: it hands lines to the engine's own Worker
// (kestrel-engine.js, running kestrel.wasm), which a search blocks, and so
// stays free to take `stop`, `ponderhit` and `isready` while it thinks.
// `stop` and `ponderhit` reach the blocked engine through a
// SharedArrayBuffer, which browsers give only to a cross-origin isolated
// page (served with `Cross-Origin-Opener-Policy: same-origin` and
// `Cross-Origin-Embedder-Policy: require-corp`). Without one, `stop` ends
// the engine's Worker instead: the answer is the best move of the last
// line reported, and a fresh engine takes over with the options and the
// position it had (its hash table starts empty).
'use strict';

const base = self.location.href;
const shared = self.crossOriginIsolated ? new SharedArrayBuffer(12) : null;
const flags = shared === null ? null : new Int32Array(shared);

let engine = null;
let sent = 0;       // `go` lines sent to the engine (searches are numbered so)
let answered = 0;   // `bestmove` lines it gave back
let lastBest = null; // first move of the current search's last line 1
const options = new Map(); // setoption lines, by option name, to replay
let position = null;

function start() {
  engine = new Worker(new URL('kestrel-engine.js', base));
  engine.onmessage = (event) => {
    const line = event.data;
    const words = line.split(' ');
    if (words[0] === 'bestmove') answered += 1;
    if (words[0] === 'info' && line.includes(' pv ') && !/ multipv (?!1 )/.test(line)) {
      lastBest = line.split(' pv ')[1].split(' ')[0];
    }
    postMessage(line);
  };
  engine.onerror = (event) => {
    postMessage(`info string error: the engine stopped (${event.message || 'no message'})`);
  };
  engine.postMessage({ wasm: new URL('kestrel.wasm', base).href, flags: shared });
}

function searching() {
  return answered < sent;
}

function signal(word) {
  Atomics.store(flags, word, sent);
  Atomics.add(flags, 2, 1);
  Atomics.notify(flags, 2);
}

// Without shared memory: end the blocked engine, answer for it, and start
// a fresh one where it was.
function replace(goLine) {
  engine.terminate();
  start();
  answered = sent;
  for (const line of options.values()) engine.postMessage(line);
  if (position !== null) engine.postMessage(position);
  if (goLine !== null) {
    sent += 1;
    engine.postMessage(goLine);
  } else if (lastBest !== null) {
    postMessage(`bestmove ${lastBest}`);
  } else {
    // Stopped before any line: the fresh engine's quickest answer.
    sent += 1;
    engine.postMessage('go depth 1');
  }
}

let lastGo = null;

function stop() {
  if (!searching()) return;
  if (flags !== null) signal(0);
  else replace(null);
}

onmessage = (event) => {
  const line = String(event.data).trim();
  const words = line.split(/\s+/);
  switch (words[0]) {
    case 'stop':
      stop();
      return;
    case 'ponderhit':
      if (!searching()) return;
      if (flags !== null) signal(1);
      // The same search, now on the clock.
      else replace(lastGo.replace(/\bponder\b/, ''));
      return;
    case 'isready':
      // Commands are handled in order; while a search runs the answer
      // cannot wait for it.
      if (searching()) {
        postMessage('readyok');
        return;
      }
      break;
    case 'quit':
      engine.terminate();
      close();
      return;
    case 'go':
      // As natively: a new search stops the one running (which answers).
      stop();
      sent += 1;
      lastBest = null;
      lastGo = line;
      break;
    case 'setoption': {
      const name = line.replace(/^setoption\s+name\s+/i, '').split(/\s+value\s+/i)[0].toLowerCase();
      options.set(name, line);
      break;
    }
    case 'position':
      position = line;
      break;
    case 'ucinewgame':
      stop(); // as natively
      position = null;
      break;
    default:
      break;
  }
  engine.postMessage(line);
};

start();
