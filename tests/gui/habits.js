// End-to-end test of the page's habits in Chromium: keyboard shortcuts and
// the mouse wheel. Usage: node habits.js URL [SCREENSHOT_DIR]. Each flow
// runs in a fresh browser context (its own storage, its own game); exits
// non-zero on the first failed check. Run by tests/gui_browser.rs.
'use strict';

const path = require('path');
const { launch, check, waitPlies, current } = require('./browser');

const url = process.argv[2];
const shots = process.argv[3];

const RUY = '[Event "Keys"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 *\n';

async function open(browser, options = {}, at = url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, ...options });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  await page.goto(at);
  await page.waitForSelector('body[data-ready="1"]');
  return { context, page };
}

async function loadPgn(page, pgn, plies) {
  await page.fill('#pgn', pgn);
  await page.click('#loadpgn');
  await page.waitForFunction((n) => document.querySelectorAll('#moves .mv[data-ply]').length === n, plies);
}

const firstSquare = (page) => page.$eval('#board .sq', (el) => el.dataset.square);

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
  check(await firstSquare(page) === 'h1', 'f flips the board');
  await page.keyboard.press('f');
  check(await firstSquare(page) === 'a8', 'f again flips it back');
  await page.focus('#fen');
  await page.keyboard.press('f');
  check(await firstSquare(page) === 'a8', 'f typed in a field flips nothing');
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
  await page.keyboard.press('l');
  check(await page.isChecked('#analyse'), 'l turns analysis on');
  await page.waitForFunction(() => document.querySelectorAll('#lines .line').length >= 1 &&
    document.querySelectorAll('#board svg.arrows line.best').length === 1, null, { timeout: 30000 });
  check(true, 'the lines and the best move arrow come');
  await page.keyboard.press('x');
  check(await page.$$eval('#board svg.arrows line', (els) => els.length) === 0, 'x hides the arrows');
  await page.waitForTimeout(400); // more depths arrive: still hidden
  check(await page.$$eval('#board svg.arrows line', (els) => els.length) === 0, 'and they stay hidden while the search goes on');
  await page.keyboard.press('x');
  await page.waitForSelector('#board svg.arrows line.best');
  check(true, 'x shows them again');
  await page.keyboard.press('l');
  check(!(await page.isChecked('#analyse')), 'l turns analysis off');
  await page.waitForFunction(() => document.querySelectorAll('#lines .line').length === 0);
  check(true, 'and the lines go');

  // ?: the list of keys; Esc closes it.
  await page.keyboard.press('?');
  await page.waitForSelector('#help-dialog[open]');
  const help = await page.textContent('#help-dialog');
  check(['Space', 'Home', 'flip', 'analysis', 'arrows', 'wheel'].every((w) => help.includes(w)), '? opens the list of keys');
  if (shots) await page.screenshot({ path: path.join(shots, 'gui-keys.png') });
  await page.keyboard.press('f');
  check(await firstSquare(page) === 'a8', 'keys do nothing under the list');
  await page.keyboard.press('Escape');
  await page.waitForSelector('#help-dialog:not([open])', { state: 'attached' });
  check(true, 'Esc closes it');

  check(page.errors.length === 0, `no script errors (keys) ${page.errors.join('; ')}`);
  await context.close();
}

async function main() {
  const browser = await launch();
  await keys(browser);
  await browser.close();
  console.log('habits done');
}

main().catch((e) => {
  console.error(e.stack || String(e));
  process.exit(1);
});
