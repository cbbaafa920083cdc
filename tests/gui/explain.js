// Moves in words (issue 62), one scenario each, each in a fresh page:
// the review of a game with a known blunder shows its sentence under the
// graph when the move is on view, and the analysis board says, under the
// engine's lines, what the opponent threatens (a mate).
// Usage: node explain.js URL [SCENARIO...]. Prints `passed:`/`FAILED:` per
// scenario and exits non-zero when one failed. Run by tests/gui_browser.rs.
'use strict';

const {
  open: openAt, check, waitPlies, runScenarios, LEGAL,
} = require('./browser');

const url = process.argv[2];
const only = process.argv.slice(3);

// Black to move: White's queen and bishop threaten Qxg7#.
const THREAT = 'r5k1/5ppp/8/8/6Q1/8/1B3PPP/6K1 b - - 0 1';

const open = (browser) => openAt(browser, url, { viewport: { width: 1366, height: 768 } });

const SCENARIOS = {
  // The review: 5... Bxd1 judged a blunder, and with the move on view its
  // sentence under the graph, the judgement first; a move not judged
  // shows none.
  async review(browser) {
    const { context, page } = await open(browser);
    await page.fill('#pgn', LEGAL);
    await page.click('#loadpgn');
    await waitPlies(page, 13);
    await page.click('#review-start');
    await page.waitForSelector('#review[data-state="done"]', { timeout: 60000 });
    await page.click('#moves .mv[data-ply="10"]');
    await page.waitForFunction(() => document.getElementById('review-explain').textContent.length > 0, null, { timeout: 10000 });
    const said = await page.textContent('#review-explain');
    check(said.startsWith('Blunder:') && said.includes('Bxd1 allows mate in 2, starting with Bxf7+.'),
      `5... Bxd1 in words: "${said}"`);
    const title = await page.getAttribute('#moves .mv[data-ply="10"]', 'title');
    check(title.includes('allows mate'), `and in the move's tooltip: "${title}"`);
    await page.click('#moves .mv[data-ply="3"]');
    await page.waitForFunction(() => document.getElementById('review-explain').textContent === '');
    check(true, '2. Nf3, not judged, has no sentence');
    check(page.errors.length === 0, `no script errors ${page.errors.join('; ')}`);
    await context.close();
  },

  // The analysis board: with analysis on, the line under the engine's
  // lines says what White threatens in the position on view.
  async threat(browser) {
    const { context, page } = await open(browser);
    await page.fill('#fen', THREAT);
    await page.press('#fen', 'Enter');
    await page.waitForFunction(() => S.game.fen.startsWith('r5k1/5ppp'));
    await page.check('#analyse');
    await page.waitForFunction(() => document.getElementById('explain-line').textContent.includes('White threatens Qxg7#.'),
      null, { timeout: 20000 });
    check(true, `under the lines: "${await page.textContent('#explain-line')}"`);
    await page.uncheck('#analyse');
    await page.waitForFunction(() => document.getElementById('explain-line').textContent === '', null, { timeout: 10000 });
    check(true, 'analysis off: the line goes with the lines');
    check(page.errors.length === 0, `no script errors ${page.errors.join('; ')}`);
    await context.close();
  },
};

runScenarios({
  scenarios: SCENARIOS, only, file: __filename, done: 'explain done',
}).catch((e) => { console.error(e); process.exit(1); });
