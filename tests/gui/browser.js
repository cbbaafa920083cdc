// What the browser tests share: Chromium launched headless as Debian
// ships it, a page opened on the GUI, a check that prints what it checked,
// reading the move list, and chessground's board (crates/gui/assets/board.js)
// read and played on by its squares' places.
'use strict';

const path = require('path');
const { chromium } = require(path.join(__dirname, 'node_modules', 'playwright-core'));

// KESTREL_GUI_ASSETS=crates/gui/assets serves the page's scripts, style
// and page from that folder instead of the binary's copies, so that a
// change to them can be tried without rebuilding (what the binary embeds
// is what the tests check otherwise).
async function launch() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const dir = process.env.KESTREL_GUI_ASSETS;
  const fs = require('fs');
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await context.addInitScript(installBoardProbe);
    if (!dir) return context;
    // The page's files, and the page itself at each of its addresses.
    await context.route(/^[a-z]+:\/\/[^/]+\/([a-z_]+\.(js|css)|play|analysis|editor|)(\?.*)?$/, async (route) => {
      const at = new URL(route.request().url()).pathname.slice(1);
      const name = at.includes('.') ? at : 'index.html';
      // chessground's files are in a folder of their own (assets/chessground).
      const file = [path.join(dir, name), path.join(dir, 'chessground', name)].find((f) => fs.existsSync(f));
      if (!file) return route.continue();
      const type = name.endsWith('.js') ? 'text/javascript' : name.endsWith('.css') ? 'text/css' : 'text/html';
      return route.fulfill({ status: 200, contentType: type, body: fs.readFileSync(file) });
    });
    return context;
  };
  return browser;
}

// In every page, before its scripts: `cgProbe`, what the tests read of
// chessground's board, from its DOM as it draws it (also inside
// waitForFunction, which runs in the page).
function installBoardProbe() {
  const PIECES = { pawn: 'p', knight: 'n', bishop: 'b', rook: 'r', queen: 'q', king: 'k' };
  const SQUARE = /^[a-h][1-8]$/;
  // chessground hides (display: none) the squares it no longer needs, to use them again.
  const shown = (sel) => [...document.querySelectorAll(sel)].filter((el) => el.style.display !== 'none');
  window.cgProbe = {
    orientation: () => (document.querySelector('#board').classList.contains('orientation-black') ? 'black' : 'white'),
    // The piece on a square as a FEN letter, '' when empty (a dragged
    // piece's ghost is not one, nor a captured piece fading out).
    piece(sq) {
      const el = shown('#board cg-board piece').find((p) => p.cgKey === sq && !p.classList.contains('ghost') && !p.classList.contains('fading'));
      if (!el) return '';
      const role = Object.keys(PIECES).find((r) => el.classList.contains(r));
      return el.classList.contains('white') ? PIECES[role].toUpperCase() : PIECES[role];
    },
    // The highlights on a square (move-dest, last-move, check, current-premove...).
    classes: (sq) => shown('#board cg-board square').filter((s) => s.cgKey === sq).map((s) => s.className).join(' '),
    count: (cls) => shown(`#board cg-board square.${cls}`).length,
    // The arrows and circles as { from, to, brush }: each shape's cgHash
    // names its squares and its brush (engine lines: paleBlue for the best
    // move, paleGrey the others; game review: paleGreen; yours: green...).
    shapes() {
      return [...document.querySelectorAll('#board svg.cg-shapes g[cgHash]')].map((g) => {
        const parts = g.getAttribute('cgHash').split(',');
        const i = parts.findIndex((p) => SQUARE.test(p));
        const arrow = SQUARE.test(parts[i + 1]);
        return { from: parts[i], to: arrow ? parts[i + 1] : parts[i], brush: parts[arrow ? i + 2 : i + 1] };
      });
    },
    arrows: (brush) => window.cgProbe.shapes().filter((s) => s.from !== s.to && (!brush || s.brush === brush)),
    // Where a square is on screen, from the board's box and its side; a
    // board scrolled partly out of view (a tall panel beside it, a field
    // below it that took the focus) is brought back first, as a player
    // would scroll to it.
    centre(sq) {
      const board = document.querySelector('#board cg-board');
      let b = board.getBoundingClientRect();
      if (b.top < 0 || b.bottom > window.innerHeight) {
        board.scrollIntoView({ block: 'nearest' });
        b = board.getBoundingClientRect();
      }
      const black = window.cgProbe.orientation() === 'black';
      const file = sq.charCodeAt(0) - 97, rank = Number(sq[1]) - 1;
      const col = black ? 7 - file : file, row = black ? rank : 7 - rank;
      return { x: b.left + ((col + 0.5) * b.width) / 8, y: b.top + ((row + 0.5) * b.height) / 8 };
    },
  };
}

// chessground draws at the next animation frame: `fn` (run in the page)
// reads the board after two of them.
async function probe(page, fn, arg) {
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  return page.evaluate(fn, arg);
}

const squareCentre = (page, sq) => probe(page, (sq) => cgProbe.centre(sq), sq);
const pieceOn = (page, sq) => probe(page, (sq) => cgProbe.piece(sq), sq);
const orientation = (page) => probe(page, () => cgProbe.orientation());

async function clickSquare(page, sq, options) {
  const { x, y } = await squareCentre(page, sq);
  await page.mouse.click(x, y, options);
}

async function tapSquare(page, sq) {
  const { x, y } = await squareCentre(page, sq);
  await page.touchscreen.tap(x, y);
}

// A move by two clicks, as a player makes it.
async function move(page, from, to) {
  await clickSquare(page, from);
  await clickSquare(page, to);
}

// A move by two clicks once the board offers it: `from` is clicked until
// `to` shows as a destination (a position just loaded reaches the board a
// moment after the page says so), then `to`. Fails with the page's state
// if the move is never offered.
async function moveWhenOffered(page, from, to) {
  for (let tries = 0; tries < 20; tries++) {
    await clickSquare(page, from);
    if ((await probe(page, (sq) => cgProbe.classes(sq), to)).includes('move-dest')) {
      await clickSquare(page, to);
      return;
    }
    // A selected piece without the destination: deselect, wait, try again.
    if ((await probe(page, (sq) => cgProbe.classes(sq), from)).includes('selected')) await clickSquare(page, from);
    await page.waitForTimeout(250);
  }
  throw new Error(`the board never offered ${from}-${to}: ${await pageState(page)}`);
}

// What a failure shows of its page: path, game, status, error and engine
// lines, script errors and failed requests (`open` collects the last two).
// A page that no longer answers must not hold the run: five seconds.
async function pageState(page) {
  const gaveUp = new Promise((done) => setTimeout(() => done('no answer in 5 s'), 5000).unref());
  const state = await Promise.race([gaveUp, page.evaluate(() => JSON.stringify({
    path: location.pathname,
    fen: S.game && S.game.fen,
    plies: S.game && S.game.plies.length,
    status: S.game && S.game.status,
    ioerror: document.getElementById('ioerror').textContent,
    thinking: document.getElementById('thinking').textContent,
  })).catch((err) => `unreadable (${err.message.split('\n')[0]})`)]);
  return `${state} errors: [${(page.errors || []).join('; ')}] problems: [${(page.problems || []).join('; ')}]`;
}

// What a failed scenario leaves to read: the line of `file` (the script)
// it failed at, and the state of its page (a timeout says nothing else).
async function failureReport(e, file, page) {
  const at = (e.stack || '').split('\n').filter((l) => l.includes(file)).map((l) => l.trim()).join(' < ');
  const state = page && !page.isClosed() ? await pageState(page) : 'no page';
  return `  at: ${at || 'unknown'}\n  page: ${state}`;
}

// A script's scenarios, each `async (browser) => ...`, run one after the
// other (only those named in `only`, when any are): `passed:` or `FAILED:`
// and its report for each (the line of `file` it failed at, the page it
// opened last); exits non-zero when one failed, else prints `done`.
async function runScenarios({ scenarios, only, file, done }) {
  const browser = await launch();
  const failed = [];
  for (const [name, run] of Object.entries(scenarios)) {
    if (only.length && !only.includes(name)) continue;
    try {
      await run(browser);
      console.log(`passed: ${name}`);
    } catch (e) {
      console.log(`FAILED: ${name}: ${e.message.split('\n')[0]}`);
      console.log(await failureReport(e, file, lastOpened));
      failed.push(name);
    }
  }
  await browser.close();
  if (failed.length) {
    console.log(`failed: ${failed.join(', ')}`);
    process.exit(1);
  }
  console.log(done);
}

// A right-button drag: an arrow (or a circle, from = to) drawn on the board.
async function drawArrow(page, from, to) {
  const a = await squareCentre(page, from), b = await squareCentre(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down({ button: 'right' });
  await page.mouse.move(b.x, b.y, { steps: 4 });
  await page.mouse.up({ button: 'right' });
}

// A fresh context and page on the GUI at `at`, ready (its game and event
// stream); the page's script errors are kept in page.errors, its console
// errors, failed requests and answers of 400 or more in page.problems.
// The page opened last, for what a failed scenario shows of it.
let lastOpened = null;
async function open(browser, at, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, ...options });
  const page = await context.newPage();
  lastOpened = page;
  page.errors = [];
  page.problems = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') page.problems.push(`console: ${m.text()}`); });
  page.on('requestfailed', (r) => page.problems.push(`request failed: ${r.url()} ${r.failure() && r.failure().errorText}`));
  page.on('response', (r) => { if (r.status() >= 400) page.problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  await page.goto(at);
  await page.waitForSelector('body[data-ready="1"]');
  return { context, page };
}

// Légal's mate: 5... Bxd1?? takes the queen and allows mate in two.
const LEGAL = '1. e4 e5 2. Nf3 d6 3. Bc4 Bg4 4. Nc3 g6 5. Nxe5 Bxd1 6. Bxf7+ Ke7 7. Nd5# 1-0';

// Kasparov-Topalov, Wijk aan Zee 1999: 44 moves, no promotion.
const KASPAROV = '1. e4 d6 2. d4 Nf6 3. Nc3 g6 4. Be3 Bg7 5. Qd2 c6 6. f3 b5 7. Nge2 Nbd7 8. Bh6 Bxh6 ' +
  '9. Qxh6 Bb7 10. a3 e5 11. O-O-O Qe7 12. Kb1 a6 13. Nc1 O-O-O 14. Nb3 exd4 15. Rxd4 c5 16. Rd1 Nb6 ' +
  '17. g3 Kb8 18. Na5 Ba8 19. Bh3 d5 20. Qf4+ Ka7 21. Rhe1 d4 22. Nd5 Nbxd5 23. exd5 Qd6 24. Rxd4 cxd4 ' +
  '25. Re7+ Kb6 26. Qxd4+ Kxa5 27. b4+ Ka4 28. Qc3 Qxd5 29. Ra7 Bb7 30. Rxb7 Qc4 31. Qxf6 Kxa3 ' +
  '32. Qxa6+ Kxb4 33. c3+ Kxc3 34. Qa1+ Kd2 35. Qb2+ Kd1 36. Bf1 Rd2 37. Rd7 Rxd7 38. Bxc4 bxc4 ' +
  '39. Qxh8 Rd3 40. Qa8 c3 41. Qa4+ Ke1 42. f4 f5 43. Kc1 Rd2 44. Qa7 1-0';

function check(cond, what) {
  if (!cond) throw new Error(`check failed: ${what}`);
  console.log(`ok: ${what}`);
}

async function plyCount(page) {
  return page.$$eval('#moves .mv[data-ply]', (els) => els.length); // the main line's moves
}

async function waitPlies(page, n, timeout = 30000) {
  await page.waitForFunction((n) => document.querySelectorAll('#moves .mv[data-ply]').length >= n, n, { timeout });
}

async function current(page) {
  return page.$eval('#moves .mv.cur', (el) => Number(el.dataset.ply)).catch(() => 0);
}

// Presses the match dialog's Start and waits for the new game against
// Kestrel: a new game object, set (its clocks drawn in the same task) once
// the server has answered. Waiting for an empty game alone passes at once
// on a fresh page, whose game is empty too.
// A game of study with moves made on the page is left only once the
// player says Yes (issue 63): that question is answered Yes here.
async function startMatchGame(page) {
  await page.evaluate(() => { window.gameBeforeMatch = S.game; });
  await page.click('#match-start');
  await page.evaluate(() => {
    window.matchStarted = () => S.match && S.game && S.game !== window.gameBeforeMatch && S.game.plies.length === 0;
  });
  await page.waitForFunction(() => window.matchStarted() || !document.getElementById('confirm').classList.contains('hidden'));
  if (await page.isVisible('#confirm')) await page.click('#confirm-yes');
  await page.waitForFunction(() => window.matchStarted());
}

module.exports = {
  launch, open, check, plyCount, waitPlies, current, startMatchGame, KASPAROV, LEGAL,
  probe, squareCentre, pieceOn, orientation, clickSquare, tapSquare, move, moveWhenOffered, drawArrow, pageState,
  runScenarios,
};
