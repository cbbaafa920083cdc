// The page's backend without a server (docs/gui.md, "How the page is
// built"): `make web` loads this file before app.js in the static site's
// copy of the GUI's index.html, and app.js takes `self.kestrelBackend` in
// place of its HTTP one. The same four calls: `request` goes to the game
// Worker (kestrel-game.js: the game logic in WebAssembly, the engine in a
// Worker of its own), which answers as `kestrel gui` would; `events` is an
// EventSource-like object (`onmessage`, `onopen`, `close`) fed by the game
// Worker's events; `pgn` and `explorerGame` are requests too. Download
// links to `/api/pgn?game=ID` (app.js, match.js) are answered here with the
// PGN made in the page.
//
// The game Worker's games go with the page, so this file keeps a copy of
// each in the browser's storage as it changes (the Worker sends them:
// gamerecord's SavedGame, the record as PGN with its end, clocks, times,
// node on view) and, when the Worker answers that it has not got a game
// this browser kept, gives the copy back (POST /api/restore) and asks
// again: a reload finds the game as it was, under its own id. Bounded:
// KEEP_BUDGET characters and KEEP_MAX games in all, the oldest dropped
// first, the page told.
'use strict';

// The games' copies in localStorage: key prefix, the most characters of
// JSON they take together (a site has about 5 M characters there, shared
// with the page's own keys: persist.js), and the most games.
const KEEP_PREFIX = 'kestrel-worker-game:';
const KEEP_BUDGET = 2 * 1024 * 1024;
const KEEP_MAX = 30;

self.kestrelBackend = (() => {
  const worker = new Worker('/kestrel-game.js');
  const waiting = new Map(); // request number -> its resolve
  const streams = new Map(); // game id -> its open streams
  let asked = 0;
  let failed = null; // why the game Worker cannot answer

  const answer = (done, why) => done({ status: 503, json: { error: `The engine cannot start in this browser (${why})` } });

  // A word for the player in the page's message area (app.js), when the
  // page has it.
  const notice = (text) => { if (typeof showStatus === 'function') showStatus(text); };

  const kept = () => Object.keys(localStorage).filter((k) => k.startsWith(KEEP_PREFIX));
  const readCopy = (id) => {
    try { return JSON.parse(localStorage.getItem(KEEP_PREFIX + id)); } catch (e) { return null; }
  };

  // Keeps game `id`'s copy; the oldest others go while the copies would
  // pass the budget (or storage is full), and the player is told which.
  function keepCopy(id, data) {
    try {
      if (data === null) { localStorage.removeItem(KEEP_PREFIX + id); return; }
      const text = JSON.stringify({ savedAt: Date.now(), data });
      if (text.length > KEEP_BUDGET) {
        localStorage.removeItem(KEEP_PREFIX + id);
        notice(`This game is too long to keep in this browser (${Math.round(text.length / 1024)} kB of ${KEEP_BUDGET / 1024} kB): download its PGN to keep it.`);
        return;
      }
      const others = kept().filter((k) => k !== KEEP_PREFIX + id).map((k) => {
        const v = localStorage.getItem(k) || '';
        let at = 0;
        try { at = JSON.parse(v).savedAt || 0; } catch (e) { /* unreadable: oldest */ }
        return { k, size: v.length, at };
      }).sort((a, b) => a.at - b.at);
      let total = text.length + others.reduce((n, o) => n + o.size, 0);
      const dropped = [];
      const dropOldest = () => {
        const o = others.shift();
        localStorage.removeItem(o.k);
        total -= o.size;
        dropped.push(o);
      };
      while (others.length > 0 && (total > KEEP_BUDGET || others.length + 1 > KEEP_MAX)) dropOldest();
      for (;;) {
        try {
          localStorage.setItem(KEEP_PREFIX + id, text);
          break;
        } catch (full) {
          if (others.length === 0) throw full;
          dropOldest();
        }
      }
      if (dropped.length > 0) {
        const when = new Date(dropped[dropped.length - 1].at).toLocaleString();
        notice(`${dropped.length === 1 ? 'The oldest game' : `The ${dropped.length} oldest games`} kept in this browser (last changed ${when}) made room for this one: ${KEEP_MAX} games and ${KEEP_BUDGET / 1024} kB are kept.`);
      }
    } catch (e) {
      notice(`This browser's storage does not keep this game (${e.name}): a reload loses it; download its PGN to keep it.`);
    }
  }

  worker.onmessage = (event) => {
    const m = event.data;
    if (m.saved) {
      for (const copy of m.saved) keepCopy(copy.game, copy.data);
    } else if (m.reply) {
      const done = waiting.get(m.reply.id);
      waiting.delete(m.reply.id);
      if (done) done(m.reply);
    } else if (m.event) {
      for (const stream of streams.get(m.event.game) || []) stream.deliver(m.event.data);
    } else if (m.failed) {
      failed = m.failed;
      for (const done of waiting.values()) answer(done, failed);
      waiting.clear();
    }
  };

  // One request to the game Worker; its reply: { status, json | text }.
  // A game the Worker has not got (the page was reloaded) but this
  // browser kept is given back first, then asked about again.
  async function send(method, path, body) {
    const r = await ask(method, path, body);
    if (r.status !== 404 || !r.json || !/^no game '/.test(r.json.error || '')) return r;
    const id = (body && body.game) || new URLSearchParams(path.split('?')[1] || '').get('game');
    const copy = id && readCopy(id);
    if (!copy) return r;
    const back = await ask('POST', '/api/restore', { game: id, saved: copy.data });
    // 409: a request sent meanwhile gave it back already.
    if (back.status !== 200 && back.status !== 409) {
      try { localStorage.removeItem(KEEP_PREFIX + id); } catch (e) { /* storage off */ }
      notice(`The copy of this game kept in this browser cannot be read back (${back.json && back.json.error})`);
      return r;
    }
    return ask(method, path, body);
  }

  function ask(method, path, body) {
    return new Promise((resolve) => {
      if (failed !== null) { answer(resolve, failed); return; }
      asked += 1;
      waiting.set(asked, resolve);
      worker.postMessage({ id: asked, method, path, body: body || null });
    });
  }

  // A game's events, as an EventSource would give them.
  class GameEvents {
    constructor(id) {
      this.id = id;
      this.onmessage = null;
      this.onopen = null;
      if (!streams.has(id)) streams.set(id, new Set());
      streams.get(id).add(this);
      // Open at once: the Worker keeps no one waiting (the server sends `hello`).
      setTimeout(() => {
        if (this.onopen) this.onopen({});
        this.deliver('{"type":"hello"}');
      }, 0);
    }

    deliver(data) {
      if (this.onmessage) this.onmessage({ data });
    }

    close() {
      const open = streams.get(this.id);
      if (open) open.delete(this);
    }
  }

  const backend = {
    async request(method, path, body) {
      const r = await send(method, path, body);
      return { ok: r.status < 400, status: r.status, data: r.json !== undefined ? r.json : r.text };
    },
    async pgn(id) {
      const r = await send('GET', `/api/pgn?game=${encodeURIComponent(id)}`);
      return r.status === 200 ? r.text : null;
    },
    events(id) {
      return new GameEvents(id);
    },
    async explorerGame(id, db = 'masters') {
      const r = await send('GET', `/api/explorer/game?id=${encodeURIComponent(id)}&db=${db}`);
      if (r.status !== 200) throw new Error((r.json && r.json.error) || `HTTP ${r.status}`);
      return r.text;
    },
  };

  // "Download PGN": the file made here, as the server would send it.
  document.addEventListener('click', async (event) => {
    const link = event.target.closest && event.target.closest('a[href*="/api/pgn?game="]');
    if (!link) return;
    event.preventDefault();
    const text = await backend.pgn(new URL(link.href).searchParams.get('game'));
    if (text === null) return;
    const url = URL.createObjectURL(new Blob([text], { type: 'application/x-chess-pgn' }));
    const save = document.createElement('a');
    save.href = url;
    save.download = 'kestrel-game.pgn';
    save.click();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }, true);

  return backend;
})();
