// End-to-end test of the page's habits in Chromium: keyboard shortcuts and
// the mouse wheel, the phone layout, themes, a game kept across reloads
// and one the server dropped. Run against `kestrel gui --games-memory 64 --games-idle 0`
// (room for three games), so that a few new games push an old one out. Usage: node habits.js URL [SCREENSHOT_DIR]. Each flow
// runs in a fresh browser context (its own storage, its own game); exits
// non-zero on the first failed check. Run by tests/gui_browser.rs.
'use strict';

const path = require('path');
const {
  launch, probe, open: openAt, check, waitPlies, current, KASPAROV, orientation, move, tapSquare, startMatchGame,
} = require('./browser');

const url = process.argv[2];
const shots = process.env.KESTREL_GUI_SHOTS; // a folder for the screenshots, when set

const RUY = '[Event "Keys"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 *\n';

const open = (browser, options = {}, at = url) => openAt(browser, at, options);

async function loadPgn(page, pgn, plies) {
  await page.fill('#pgn', pgn);
  await page.click('#loadpgn');
  await page.waitForFunction((n) => document.querySelectorAll('#moves .mv[data-ply]').length === n, plies);
}


// The game's moves in UCI, as the server reads them (a game of its own).
async function ucis(pgn) {
  const call = async (path, body) => (await fetch(new URL(path, url), {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  })).json();
  const game = await call('/api/game', {});
  const view = await call('/api/pgn', { game: game.id, pgn });
  return view.plies.map((p) => p.uci);
}

const inside = (box, view) => box.x >= 0 && box.y >= 0 && box.x + box.width <= view.width + 0.5 && box.y + box.height <= view.height + 0.5;


// ←/→, Home/End, f, Space, l, x, ?, and the wheel over the board.
async function keys(browser) {
  const { context, page } = await open(browser);
  await page.selectOption('#side-b [data-k="player"]', 'human');
  await loadPgn(page, RUY, 8);
  await page.click('h1'); // the focus away from the PGN box
  await page.keyboard.press('Home');
  check(await current(page) === 0, 'Home goes to the start');
  await page.keyboard.press('End');
  check(await current(page) === 8, 'End goes to the end');
  await page.keyboard.press('ArrowLeft');
  check(await current(page) === 7, '← goes back a move');
  await page.keyboard.press('ArrowRight');
  check(await current(page) === 8, '→ goes forward a move');

  await page.keyboard.press('f');
  check(await orientation(page) === 'black', 'f flips the board');
  await page.keyboard.press('f');
  check(await orientation(page) === 'white', 'f again flips it back');
  await page.focus('#fen');
  await page.keyboard.press('f');
  check(await orientation(page) === 'white', 'f typed in a field flips nothing');
  await page.click('h1');

  // The wheel over the board: up goes back, down forward, a burst of
  // events within the throttle is one step.
  const box = await page.locator('#board').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -100);
  await page.waitForFunction(() => document.querySelector('#moves .mv.cur').dataset.ply === '7');
  check(true, 'wheel up over the board goes back a move');
  await page.waitForTimeout(200);
  await page.mouse.wheel(0, 100);
  await page.mouse.wheel(0, 100);
  await page.mouse.wheel(0, 100);
  await page.waitForTimeout(50);
  check(await current(page) === 8, 'wheel down goes forward; a quick burst is one step');
  await page.waitForTimeout(200);
  const scrollBefore = await page.evaluate(() => window.scrollY);
  await page.mouse.wheel(0, 300);
  check(await page.evaluate(() => window.scrollY) === scrollBefore, 'the page does not scroll under the board');

  // Space: the engine plays a move for the side to move (White, a human player here).
  await page.selectOption('#side-w [data-k="limit"]', 'depth');
  await page.fill('#side-w [data-k="amount"]', '3');
  await page.setChecked('#side-w [data-k="book"]', false); // a searched move, with its time
  await page.click('h1');
  await page.keyboard.press(' ');
  await waitPlies(page, 9);
  check(await page.$eval('#moves .mv[data-ply="9"] .t', (el) => /\d+ m?s$/.test(el.textContent)),
    `Space: the engine played ${await page.$eval('#moves .mv[data-ply="9"]', (el) => el.firstChild.textContent)} for White`);

  // l: analysis on, lines and arrows; x hides the arrows and shows them again; l: off.
  await page.evaluate(() => {
    S.events.addEventListener('message', (ev) => { if (JSON.parse(ev.data).type === 'info') window.lastInfo = ev.data; });
  });
  await page.keyboard.press('l');
  check(await page.isChecked('#analyse'), 'l turns analysis on');
  await page.waitForFunction(() => document.querySelectorAll('#lines .line').length >= 1 &&
    cgProbe.arrows('paleBlue').length === 1, null, { timeout: 30000 });
  check(true, 'the lines and the best move arrow come');
  await page.keyboard.press('x');
  const arrowCount = () => probe(page, () => cgProbe.arrows().length);
  check(await arrowCount() === 0, 'x hides the arrows');
  await page.waitForTimeout(400); // more depths arrive: still hidden
  check(await arrowCount() === 0, 'and they stay hidden while the search goes on');
  await page.keyboard.press('x');
  await page.waitForFunction(() => cgProbe.arrows('paleBlue').length === 1);
  check(true, 'x shows them again');
  await page.keyboard.press('l');
  check(!(await page.isChecked('#analyse')), 'l turns analysis off');
  // A line the search sent before it stopped may come after: one is sent
  // again here, so that the test does not leave that to chance.
  await page.evaluate(() => S.events.dispatchEvent(new MessageEvent('message', { data: window.lastInfo })));
  await page.waitForFunction(() => document.getElementById('stats').textContent.includes('nodes'), null, { timeout: 30000 });
  check(true, 'the stopped search shows its statistics');
  check(await page.$$eval('#lines .line', (els) => els.length) === 0 &&
    await probe(page, () => cgProbe.arrows().filter((a) => a.brush === 'paleBlue' || a.brush === 'paleGrey').length) === 0, 'and the lines go, a late one too');

  // Analysis on and off again before the server has answered the start: the
  // search it then starts is stopped (its statistics come) and draws nothing.
  await page.evaluate(() => { document.getElementById('stats').textContent = ''; });
  await page.route('**/api/go', async (route) => { await new Promise((r) => setTimeout(r, 600)); await route.continue(); });
  await page.keyboard.press('l');
  await page.keyboard.press('l');
  await page.waitForFunction(() => document.getElementById('stats').textContent.includes('nodes'), null, { timeout: 30000 });
  await page.unroute('**/api/go');
  await page.waitForTimeout(300);
  check(!(await page.isChecked('#analyse')) && await page.$$eval('#lines .line', (els) => els.length) === 0,
    'analysis off before its search started: the search is stopped when it starts');

  // ?: the list of keys; Esc closes it.
  await page.keyboard.press('?');
  await page.waitForSelector('#help-dialog[open]');
  const help = await page.textContent('#help-dialog');
  check(['Space', 'Home', 'flip', 'analysis', 'arrows', 'wheel'].every((w) => help.includes(w)), '? opens the list of keys');
  if (shots) await page.screenshot({ path: path.join(shots, 'gui-keys.png') });
  await page.keyboard.press('f');
  check(await orientation(page) === 'white', 'keys do nothing under the list');
  await page.keyboard.press('Escape');
  await page.waitForSelector('#help-dialog:not([open])', { state: 'attached' });
  check(true, 'Esc closes it');

  check(page.errors.length === 0, `no script errors (keys) ${page.errors.join('; ')}`);
  await context.close();
}

// A phone, 390x844: the board as wide as the screen, the moves under it;
// 40 moves played by tapping keep the board on screen and the latest move
// in view, the page itself never scrolling.
async function phone(browser) {
  const moves = (await ucis(KASPAROV)).slice(0, 80);
  check(moves.length === 80, 'the 40 moves of Kasparov-Topalov read');
  const view = { width: 390, height: 844 };
  const { context, page } = await open(browser, { viewport: view, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  const board = () => page.locator('#board').boundingBox();
  let b = await board();
  check(b.width >= 0.9 * view.width && inside(b, view), `the board is as wide as the screen (${b.width.toFixed(0)} of ${view.width} px)`);
  const list = await page.locator('#moves').boundingBox();
  const nav = await page.locator('#nav').boundingBox();
  const strip = await page.locator('#analysis-panel').boundingBox(); // the engine line's strip (fixes.js phone)
  check(list.y >= b.y + b.height && list.y - (b.y + b.height) < nav.height + strip.height + 60,
    'the move list is right under the board (its buttons and the engine line\'s strip)');
  check(await page.isHidden('#players') && await page.isHidden('#io-panel') && await page.isHidden('#review'), 'players, PGN and game analysis are folded away');
  await page.tap('#morebtn');
  check(await page.isVisible('#players') && await page.isVisible('#analysis-panel'), '"More" unfolds them');
  await page.selectOption('#side-b [data-k="player"]', 'human'); // both sides tapped here
  await page.tap('#morebtn');
  check(await page.isHidden('#players'), 'and folds them again');

  for (let i = 0; i < moves.length; i++) {
    await tapSquare(page, moves[i].slice(0, 2));
    await tapSquare(page, moves[i].slice(2, 4));
    await waitPlies(page, i + 1);
    if ((i + 1) % 10 !== 0) continue;
    b = await board();
    const cur = await page.locator('#moves .mv.cur').boundingBox();
    const shown = await page.locator('#moves').boundingBox();
    const scrolled = await page.evaluate(() => document.scrollingElement.scrollTop);
    check(inside(b, view) && scrolled === 0 && cur.y >= shown.y - 1 && cur.y + cur.height <= shown.y + shown.height + 1,
      `after ${(i + 1) / 2} moves the board is on screen, the page unscrolled and the latest move in view`);
  }
  check(await page.evaluate(() => document.scrollingElement.scrollHeight <= innerHeight + 1), 'the page is no taller than the screen');
  check(await page.$eval('#moves', (el) => el.scrollHeight > el.clientHeight && el.scrollTop > 0), 'the move list scrolled by itself');
  if (shots) await page.screenshot({ path: path.join(shots, 'gui-phone.png') });
  check(page.errors.length === 0, `no script errors (phone) ${page.errors.join('; ')}`);
  await context.close();
}

// Board colours and piece sets: switched in the Look panel, kept for the next visit.
async function themes(browser) {
  const { context, page } = await open(browser);
  // The dark squares' colour is the board gradient's first; the white
  // king's image is its piece element's background, loaded here again.
  const look = () => page.evaluate(async () => {
    const squares = getComputedStyle(document.querySelector('#board cg-board')).backgroundImage;
    const king = getComputedStyle(document.querySelector('#board cg-board piece.king.white')).backgroundImage;
    const url = (/url\("([^"]+)"\)/.exec(king) || [])[1] || '';
    const loaded = await new Promise((done) => {
      const img = new Image();
      img.onload = () => done(img.naturalWidth > 0);
      img.onerror = () => done(false);
      img.src = url;
    });
    return { dark: (/rgb\([^)]*\)/.exec(squares) || [''])[0], src: url && new URL(url).pathname, loaded };
  });
  const before = await look();
  check(before.dark === 'rgb(181, 136, 99)' && before.src.startsWith('/pieces/cburnett/') && before.loaded, `brown board, Cburnett pieces by default (${before.dark}, ${before.src})`);
  await page.selectOption('#theme-board', 'blue');
  await page.selectOption('#theme-pieces', 'dejavu');
  const after = await look();
  check(after.dark === 'rgb(140, 162, 173)', `the board turns blue (${after.dark})`);
  check(after.src.startsWith('/pieces/dejavu/') && after.loaded, `the pieces are DejaVu's (${after.src})`);
  await page.selectOption('#theme-board', 'green');
  check((await look()).dark === 'rgb(134, 166, 102)', 'and green');
  if (shots) await page.screenshot({ path: path.join(shots, 'gui-themes.png') });
  await page.reload();
  await page.waitForSelector('body[data-ready="1"]');
  const again = await look();
  check(again.dark === 'rgb(134, 166, 102)' && again.src.startsWith('/pieces/dejavu/') &&
    await page.inputValue('#theme-pieces') === 'dejavu', 'the choice is kept across a reload');
  check(page.errors.length === 0, `no script errors (themes) ${page.errors.join('; ')}`);
  await context.close();
}

const gameOf = (page) => new URL(page.url()).searchParams.get('game');

async function newGameByApi() {
  const res = await fetch(new URL('/api/game', url), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  return (await res.json()).id;
}

// New games until the server has dropped game `id` to make room (a closed
// tab's event stream can take a moment to be noticed on a loaded machine,
// and a watched game is dropped last); true once it is gone. Asking for
// the game's state uses it, so each try makes enough new games (six) to
// push out the most recently used one.
async function crowdOut(id) {
  for (let attempt = 0; attempt < 8; attempt++) {
    for (let i = 0; i < 6; i++) await newGameByApi();
    const state = await fetch(new URL(`/api/state?game=${id}`, url));
    if (state.status === 404) return true;
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

// A game against the computer as White at 3+2 (the evaluation hidden, as
// by default): 1. e4 and Kestrel's answer.
async function playE4AgainstTheComputer(page) {
  await page.click('#vsengine');
  await page.waitForSelector('#match-dialog[open]');
  await page.check('#match-dialog input[name="colour"][value="w"]');
  await page.selectOption('#match-time', '3+2');
  await startMatchGame(page);
  await page.waitForFunction(() => !document.getElementById('clock-top').classList.contains('hidden'));
  await move(page, 'e2', 'e4');
  await waitPlies(page, 2);
}

// A reload keeps the game: the address names it, the server still has its
// moves and variations, the page its board side and players; a game
// against the computer comes back with its clocks and its evaluation hidden.
async function reload(browser) {
  const { context, page } = await open(browser);
  check(/^[0-9a-f]{16}$/.test(gameOf(page) || ''), `the address names the game (?game=${gameOf(page)})`);
  await page.selectOption('#side-b [data-k="player"]', 'human');
  await loadPgn(page, RUY, 8);
  // A loaded game is a game of its own, under its own id (issue 63).
  const id = gameOf(page);
  await page.click('#moves .mv[data-ply="4"]');
  await page.waitForFunction(() => S.game.legal.length > 0 && S.game.current === S.game.plies[3].node);
  await move(page, 'f1', 'c4'); // 3. Bc4, a variation
  await page.waitForFunction(() => document.querySelector('#moves .var .mv.cur'));
  await page.click('#flip');
  await page.reload();
  await page.waitForSelector('body[data-ready="1"]');
  check(gameOf(page) === id, 'after a reload the address names the same game');
  check(await page.$$eval('#moves .mv[data-ply]', (els) => els.length) === 8 &&
    (await page.textContent('#moves .var')).includes('Bc4'), 'its moves and its variation are back');
  // Waited for: under load the list may be drawn once more after the page says it is ready.
  const onView = await page.waitForFunction(() => ((document.querySelector('#moves .mv.cur') || {}).textContent || '').startsWith('Bc4'), null, { timeout: 5000 })
    .then(() => true, () => false);
  check(onView, 'with the move that was on view');
  check(await orientation(page) === 'black', 'the board is still turned');
  check(await page.inputValue('#side-b [data-k="player"]') === 'human', 'and the players are as they were');

  // A game against the computer on a clock, the evaluation hidden.
  await playE4AgainstTheComputer(page);
  const matchId = gameOf(page);
  await page.waitForTimeout(300);
  const clocks = () => page.$$eval('.clock', (els) => Object.fromEntries(els.map((e) => [e.dataset.side, Number(e.dataset.ms)])));
  const before = await clocks();
  await page.reload();
  await page.waitForSelector('body[data-ready="1"]');
  const after = await clocks();
  check(gameOf(page) === matchId && matchId !== id && await page.$$eval('#moves .mv[data-ply]', (els) => els.length) === 2,
    'the game against the computer (a game of its own) is back after a reload');
  check(Math.abs(after.b - before.b) < 1500 && after.w <= before.w && before.w - after.w < 5000,
    `its clocks too (White ${before.w} -> ${after.w} ms: it was White's move; Black ${before.b} -> ${after.b} ms)`);
  check((await page.textContent('#lines')).includes('hidden') && await page.isDisabled('#review-start'), 'the evaluation is still hidden');
  check(!(await page.isHidden('#resign')), 'resign and draw are there');
  // What the server streams to the page while the evaluation is hidden:
  // the engine's move, and no score or line (nothing for devtools to show).
  await page.evaluate(() => {
    window.seen = [];
    S.events.addEventListener('message', (ev) => window.seen.push(JSON.parse(ev.data)));
  });
  await move(page, 'd2', 'd4');
  await waitPlies(page, 4);
  await page.waitForFunction(() => window.seen.some((e) => e.type === 'bestmove'));
  const seen = await page.evaluate(() => window.seen);
  check(seen.some((e) => e.type === 'state') && !seen.some((e) => e.type === 'info' || e.type === 'stats' || 'score' in e || 'pv' in e),
    `the event stream carries no evaluation while it is hidden (${seen.map((e) => e.type).join(', ')})`);
  await page.click('#offerdraw');
  await page.click('#confirm-yes'); // asked first, as on lichess
  await page.waitForFunction(() => document.getElementById('message').textContent.includes('declines'));
  check(await page.evaluate(() => !window.seen.some((e) => 'score' in e)), 'a draw offer is weighed by the server and declined, no score sent');
  check(page.errors.length === 0, `no script errors (reload) ${page.errors.join('; ')}`);
  await context.close();
}

// A game the server dropped (too many games for --games-memory) shows the
// expired dialog; "Restore from PGN" brings its moves back in a new game,
// "Start a new game" starts afresh.
async function expired(browser) {
  const { context, page } = await open(browser);
  await loadPgn(page, RUY, 8);
  const id = gameOf(page);
  await page.waitForFunction((id) => (JSON.parse(localStorage.getItem(`kestrel-game:${id}`)) || {}).plies === 8, id);
  check(true, 'the game\'s PGN is kept in localStorage');
  await page.close(); // the tab is closed: no page watches the game
  check(await crowdOut(id), 'the server dropped the old game for newer ones');
  const again = await context.newPage();
  again.errors = [];
  again.on('pageerror', (e) => again.errors.push(e.message));
  await again.goto(`${url}?game=${id}`);
  await again.waitForSelector('#expired-dialog[open]');
  check((await again.textContent('#expired-dialog')).includes('This game has expired') &&
    (await again.textContent('#expired-saved')).includes('8 plies'), 'opening it says it expired, and that its moves were kept');
  if (shots) await again.screenshot({ path: path.join(shots, 'gui-expired.png') });
  await again.click('#expired-restore');
  await again.waitForSelector('#expired-dialog:not([open])', { state: 'attached' });
  await waitPlies(again, 8);
  check((await again.textContent('#moves')).includes('Nf6') && gameOf(again) !== id, 'Restore from PGN: the moves are back, in a new game in the address');
  await again.reload();
  await again.waitForSelector('body[data-ready="1"]');
  check(await again.$$eval('#moves .mv[data-ply]', (els) => els.length) === 8, 'and that one survives a reload');

  await again.goto(`${url}?game=0123456789abcdef`);
  await again.waitForSelector('#expired-dialog[open]');
  check(await again.isDisabled('#expired-restore'), 'a game this browser kept nothing of cannot be restored');
  await again.click('#expired-new');
  await again.waitForSelector('#expired-dialog:not([open])', { state: 'attached' });
  await again.waitForFunction(() => S.game && S.game.plies.length === 0 && new URLSearchParams(location.search).get('game') === S.game.id);
  check(true, 'Start a new game: an empty board, its id in the address');
  check(again.errors.length === 0, `no script errors (expired) ${again.errors.join('; ')}`);
  await context.close();
}

// A game against the computer that the server dropped comes back from
// its PGN as a game against the computer: same side, clocks as they were
// kept (not charged for the time the game was away), evaluation hidden,
// and the engine answers the next move.
async function expiredMatch(browser) {
  const { context, page } = await open(browser);
  await playE4AgainstTheComputer(page);
  const id = gameOf(page);
  await page.waitForFunction((id) => (JSON.parse(localStorage.getItem(`kestrel-game:${id}`)) || {}).plies === 2, id);
  await page.close();
  check(await crowdOut(id), 'the server dropped the game against the computer for newer ones');
  const again = await context.newPage();
  again.errors = [];
  again.on('pageerror', (e) => again.errors.push(e.message));
  await again.goto(`${url}?game=${id}`);
  await again.waitForSelector('#expired-dialog[open]');
  const kept = await again.evaluate((id) => JSON.parse(localStorage.getItem(`kestrel-game:${id}`)).page.clock.left, id);
  await again.waitForTimeout(1500); // time away that a restored game does not charge
  await again.click('#expired-restore');
  await again.waitForSelector('#expired-dialog:not([open])', { state: 'attached' });
  await waitPlies(again, 2);
  check(await again.evaluate(() => !!S.match && S.match.human === 'w' && S.game.linear), 'Restore from PGN: a game against the computer goes on as one');
  const ms = await again.$$eval('.clock', (els) => Object.fromEntries(els.map((e) => [e.dataset.side, Number(e.dataset.ms)])));
  check(!(await again.isHidden('#clock-top')) && Math.abs(ms.b - kept.b) < 1000 && kept.w - ms.w < 1000,
    `with its clocks as kept (White ${kept.w} -> ${ms.w} ms, Black ${kept.b} -> ${ms.b} ms)`);
  check((await again.textContent('#lines')).includes('hidden') && !(await again.isHidden('#resign')), 'the evaluation still hidden, resign there');
  await move(again, 'd2', 'd4');
  await waitPlies(again, 4);
  check(true, 'and Kestrel answers the next move');
  check(again.errors.length === 0, `no script errors (expired match) ${again.errors.join('; ')}`);
  await context.close();
}

async function main() {
  const browser = await launch();
  await keys(browser);
  await phone(browser);
  await themes(browser);
  await reload(browser);
  await expired(browser);
  await expiredMatch(browser);
  await browser.close();
  console.log('habits done');
}

main().catch((e) => {
  console.error(e.stack || String(e));
  process.exit(1);
});
