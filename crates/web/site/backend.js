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
'use strict';

self.kestrelBackend = (() => {
  const worker = new Worker('/kestrel-game.js');
  const waiting = new Map(); // request number -> its resolve
  const streams = new Map(); // game id -> its open streams
  let asked = 0;
  let failed = null; // why the game Worker cannot answer

  const answer = (done, why) => done({ status: 503, json: { error: `The engine cannot start in this browser (${why})` } });

  worker.onmessage = (event) => {
    const m = event.data;
    if (m.reply) {
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
  function send(method, path, body) {
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
    async explorerGame(id) {
      const r = await send('GET', `/api/explorer/game?id=${encodeURIComponent(id)}`);
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
