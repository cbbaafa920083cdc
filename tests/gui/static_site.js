// The GUI as a static site (`make web`, served by any file server, no
// Kestrel process): the page is `kestrel gui`'s own, its backend the one
// without a server (crates/web/site/backend.js: the game logic and the
// engine in Web Workers). On the analysis board: a move made on the board,
// analysis lines for the position on view (and for an earlier one stepped
// back to, with the lines of the first position gone), analysis turned
// off; the game review; the opening explorer; the book panel (the embedded
// book; adding to it needs the server, and its button says so); the
// game's PGN; the games' copies kept for a reload bounded (30, the oldest
// dropped and the page saying so); no console error, script error or
// failed request all along.
// Run by
// tests/web_worker.rs (with tests/gui/clock_game.js for a whole game
// against Kestrel). Usage: node static_site.js URL. Prints `static site done`.
'use strict';

const { launch, open, check, move } = require('./browser');

const url = process.argv[2];

async function main() {
  const browser = await launch();
  const { context, page } = await open(browser, url, { viewport: { width: 1366, height: 768 } });
  check(await page.evaluate(() => backend === self.kestrelBackend && !!S.game && S.game.plies.length === 0),
    'the page runs on the backend without a server, with a new game');
  const started = await page.evaluate(() => S.game.fen);

  await page.check('#analyse');
  await move(page, 'e2', 'e4');
  await page.waitForFunction(() => S.game.plies.length === 1 && S.game.plies[0].san === 'e4', null, { timeout: 10000 });
  // Lines for the position on view, drawn by the page from the events.
  const linesFor = (fen) => page.waitForFunction((f) => S.linesFen === f && S.game.fen === f
    && document.querySelectorAll('#lines .line').length > 0 && Object.values(S.lines).some((l) => l.depth >= 6),
  fen, { timeout: 30000 });
  const after = await page.evaluate(() => S.game.fen);
  await linesFor(after);
  const first = await page.$eval('#lines .line', (el) => el.textContent);
  check(/1\.\.\. \S+/.test(first), `analysis lines for the position after 1. e4 (${first.trim().slice(0, 60)})`);

  // Back to the start: the lines of 1. e4 go, the start's come.
  await page.click('#first');
  await linesFor(started);
  const startLine = await page.$eval('#lines .line', (el) => el.textContent);
  check(/1\. \S+/.test(startLine), `and for the start position, stepped back to (${startLine.trim().slice(0, 60)})`);

  // Analysis off: its lines go and stay gone.
  await page.uncheck('#analyse');
  await page.waitForTimeout(500);
  check(await page.evaluate(() => document.querySelectorAll('#lines .line').length === 0 && Object.keys(S.lines).length === 0),
    'analysis off: no lines');

  // The game review ("Analyse game"): the pass searches both positions
  // in the game Worker, one after the other, and the page shows its result.
  await page.click('#review-start');
  await page.waitForSelector('#review[data-state="done"]', { timeout: 30000 });
  check(Number(await page.getAttribute('#review', 'data-analysed')) === 2, 'the game review searched both positions');

  // The opening explorer: the master games, indexed in the game Worker.
  await page.waitForSelector('#explorer tr.xm', { timeout: 30000 });
  const explored = await page.$$eval('#explorer tr.xm td:first-child', (tds) => tds.map((t) => t.textContent));
  check(explored.length > 3, `the explorer lists the masters' moves here (${explored.slice(0, 4)})`);
  // The book panel: the embedded book, answered in the game Worker.
  await page.waitForSelector('#book tr.bm', { timeout: 10000 });
  const booked = await page.$$eval('#book tr.bm td:first-child', (tds) => tds.map((t) => t.textContent));
  check(booked.length > 0, `the book panel lists the embedded book's moves here (${booked.slice(0, 4)})`);
  // Adding to a book needs a file, so the server: the button says so instead of failing.
  const add = await page.$eval('#bookadd', (b) => ({ disabled: b.disabled, title: b.title }));
  check(add.disabled && /--book FILE\.txt/.test(add.title), `"Add last move to book" is off and says why (${add.title})`);

  // The game as PGN, from the page's own game logic.
  await page.click('#showpgn');
  await page.waitForFunction(() => /1\. e4/.test(document.querySelector('#pgn').value));
  check(/\[Date "\d{4}\.\d\d\.\d\d"\]/.test(await page.inputValue('#pgn')), 'Show PGN gives the game, dated');

  // A master game from the explorer loads on the analysis board.
  await page.click('#explorer tr.xg');
  await page.waitForFunction(() => S.game.plies.length > 10, null, { timeout: 10000 });
  check(await page.evaluate(() => S.game.plies.length > 10), `a master game from the explorer loaded (${await page.evaluate(() => S.game.plies.length)} plies)`);

  // The games' copies kept for a reload are bounded (backend.js): 30
  // games at most, the oldest dropped first and the page told so.
  const kept = () => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('kestrel-worker-game:')).length);
  const loaded = await page.evaluate(() => S.game.id);
  await page.evaluate(async () => {
    for (let i = 0; i < 31; i++) {
      const g = (await backend.request('POST', '/api/game', {})).data;
      await backend.request('POST', '/api/move', { game: g.id, move: 'e4' });
    }
  });
  const message = await page.textContent('#message');
  check(await kept() === 30 && /oldest game.*made room/.test(message),
    `31 more games: ${await kept()} copies kept, the oldest dropped and said so (${message})`);
  check(await page.evaluate((id) => localStorage.getItem(`kestrel-worker-game:${id}`) === null, loaded), 'the game on view before them was the one dropped');

  check(page.errors.length === 0, `no script errors ${page.errors.join('; ')}`);
  check(page.problems.length === 0, `no console error or failed request ${page.problems.join('; ')}`);
  await context.close();
  await browser.close();
  console.log('static site done');
}

main().catch((e) => { console.error(e); process.exit(1); });
