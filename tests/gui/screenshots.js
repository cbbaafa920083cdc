// The screenshots of docs/gui.md's top, in headless Chromium: the analysis
// board and a game against Kestrel at 1366x768 and on a 390x844 phone.
// Usage: node screenshots.js URL DIR (against `kestrel gui`); writes
// gui-analysis-1366.png, gui-play-1366.png, gui-analysis-phone.png,
// gui-play-phone.png and gui-explorer.png (the explorer panel after 1.e4
// c5) into DIR. Not a test: the tests are e2e.js, habits.js
// and fixes.js.
'use strict';

const path = require('path');
const { launch, open, KASPAROV, move, waitPlies, drawArrow, startMatchGame } = require('./browser');

const [url, dir] = process.argv.slice(2);

// Kasparov-Topalov at 24. Rxd4, analysed, with an arrow and a circle drawn.
async function analysis(browser, options, file) {
  const { context, page } = await open(browser, url, options);
  if (options.isMobile) await page.tap('#morebtn'); // the PGN box is folded away on a phone
  await page.fill('#pgn', KASPAROV);
  await page.click('#loadpgn');
  await waitPlies(page, 87);
  if (options.isMobile) await page.tap('#morebtn');
  await page.click('#moves .mv[data-ply="47"]');
  await page.waitForFunction(() => S.game.current === S.game.plies[46].node);
  await page.check('#analyse');
  await page.waitForFunction(() => document.querySelectorAll('#lines .line').length >= 1, null, { timeout: 30000 });
  await drawArrow(page, 'e7', 'b7');
  await drawArrow(page, 'a5', 'a5');
  await page.waitForTimeout(3000); // a few more depths
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(dir, file) });
  await context.close();
}

// A game against Kestrel at 3+2 as White, a few moves in.
async function play(browser, options, file) {
  const { context, page } = await open(browser, url, options);
  await page.click('#vsengine');
  await page.waitForSelector('#match-dialog[open]');
  await page.check('#match-dialog input[name="colour"][value="w"]');
  await page.selectOption('#match-time', '3+2');
  await startMatchGame(page);
  for (const [i, [from, to]] of [['e2', 'e4'], ['g1', 'f3'], ['f1', 'c4']].entries()) {
    await move(page, from, to);
    await waitPlies(page, 2 * i + 2, 60000).catch(() => {});
    if (await page.evaluate(() => S.game.status.over)) break;
  }
  await page.waitForTimeout(600); // Kestrel's last move's animation ends
  await page.screenshot({ path: path.join(dir, file) });
  await context.close();
}

// The explorer panel after 1.e4 c5: the master games' moves and top games.
async function explorer(browser, options, file) {
  const { context, page } = await open(browser, url, options);
  await move(page, 'e2', 'e4');
  await move(page, 'c7', 'c5');
  await page.waitForFunction(() => document.querySelector('#explorer tr.xm td')?.textContent === 'Nf3');
  await page.waitForSelector('#book tr.bm');
  await page.locator('#book-panel').screenshot({ path: path.join(dir, file) });
  await context.close();
}

async function main() {
  const browser = await launch();
  const desk = { viewport: { width: 1366, height: 768 } };
  const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
  await analysis(browser, desk, 'gui-analysis-1366.png');
  await play(browser, desk, 'gui-play-1366.png');
  await analysis(browser, phone, 'gui-analysis-phone.png');
  await play(browser, phone, 'gui-play-phone.png');
  await explorer(browser, desk, 'gui-explorer.png');
  await browser.close();
}

main().catch((e) => { console.error(e); process.exit(1); });
