// End-to-end test of `kestrel gui` in a real Chromium, driven by Playwright.
// Usage: node e2e.js URL [SCREENSHOT_DIR]. Exits non-zero on the first
// failure, with the step that failed. Run by tests/gui_browser.rs.
'use strict';

const path = require('path');
const {
  launch, probe, check, plyCount, waitPlies, current, squareCentre, pieceOn, orientation, clickSquare, move,
  moveWhenOffered,
} = require('./browser');

const url = process.argv[2];
const shots = process.env.KESTREL_GUI_SHOTS; // a folder for the screenshots, when set

async function setSide(page, side, player, depth, book) {
  const box = `#side-${side}`;
  await page.selectOption(`${box} [data-k="limit"]`, 'depth');
  await page.fill(`${box} [data-k="amount"]`, String(depth));
  await page.setChecked(`${box} [data-k="book"]`, book);
  await page.selectOption(`${box} [data-k="player"]`, player);
}

async function main() {
  const browser = await launch();
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, acceptDownloads: true });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));

  // Load time: navigation timing, and until the page has its game and event stream.
  const t0 = Date.now();
  await page.goto(url);
  await page.waitForSelector('body[data-ready="1"]');
  const ready = Date.now() - t0;
  const nav = await page.evaluate(() => {
    const n = performance.getEntriesByType('navigation')[0];
    return { domContentLoaded: n.domContentLoadedEventEnd, load: n.loadEventEnd, ready: Number(document.body.dataset.readyMs) };
  });
  console.log(`timing: DOMContentLoaded ${nav.domContentLoaded.toFixed(0)} ms, load ${nav.load.toFixed(0)} ms, ` +
    `game and event stream ready ${nav.ready} ms after navigation start (${ready} ms as Playwright saw it)`);
  // The goal is under 1 s (measured: about 0.3 s, docs/gui.md); the bound here is
  // looser so that a loaded CI machine does not fail on timing alone.
  check(nav.load < 2000, `the page loads in under 2 s (${nav.load.toFixed(0)} ms)`);

  // The embedded book's moves, without a W/L/D column (it keeps no game counts).
  await page.waitForSelector('#book tr.bm');
  check(!(await page.textContent('#book')).includes('W/L/D'), 'the embedded book shows no W/L/D column of zeros');

  // The explorer: the master games' moves, each with its White/draw/Black bar.
  await page.waitForSelector('#explorer tr.xm');
  const explored = await page.$$eval('#explorer tr.xm td:first-child', (tds) => tds.map((t) => t.textContent));
  check(explored.slice(0, 2).includes('e4') && explored.slice(0, 2).includes('d4'), `the explorer lists 1.e4 and 1.d4 first (${explored.slice(0, 4)})`);
  check(await page.$$eval('#explorer tr.xm .wdb', (bars) => bars.length) === explored.length, 'each explorer move has its result bar');

  // The level picker is there exactly when the engine has UCI_LimitStrength and UCI_Elo.
  const levels = await page.evaluate(() => fetch('/api/options').then((r) => r.json()).then((o) => o.levels));
  const pickers = await page.$$eval('[data-k="level"]', (els) => els.length);
  check(pickers === (levels ? 2 : 0), `a level picker per side exactly when the engine has levels (${levels})`);

  // Black is the engine: low depth, no book, so that its reply is quick and searched.
  await setSide(page, 'b', 'engine', 2, false);
  if (levels) await page.selectOption('#side-b [data-k="level"]', { index: 1 });

  // A move by clicking, and the engine's reply.
  await clickSquare(page, 'e2');
  check(await probe(page, () => cgProbe.classes('e4').includes('move-dest') && cgProbe.classes('e2').includes('selected')),
    'legal-move hints after picking a piece');
  await clickSquare(page, 'e4');
  await waitPlies(page, 2);
  check((await page.textContent('#moves')).includes('e4'), 'a move played by clicking');
  check(await page.$eval('#moves .mv[data-ply="2"] .t', (el) => /\d+ m?s$/.test(el.textContent)), 'the engine replied, with its move time');

  // A move by dragging.
  const from = await squareCentre(page, 'g1');
  const to = await squareCentre(page, 'f3');
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 5 });
  await page.mouse.move(to.x, to.y, { steps: 5 });
  await page.mouse.up();
  await waitPlies(page, 4);
  check((await page.textContent('#moves')).includes('Nf3'), 'a move played by dragging, and the engine replied');
  check(await probe(page, () => cgProbe.count('last-move')) === 2, 'the last move is highlighted');

  // Back and forward, by buttons and keys.
  await page.click('#back');
  check(await current(page) === 3, 'back one move');
  await page.keyboard.press('ArrowLeft');
  check(await current(page) === 2, 'back with the arrow key');
  check(await pieceOn(page, 'f3') === '', 'the board shows the earlier position');
  await page.keyboard.press('ArrowRight');
  check(await current(page) === 3, 'forward with the arrow key');
  await page.click('#first');
  check(await current(page) === 0, 'first');
  await page.click('#last');
  check(await current(page) === 4, 'last');

  // Flip.
  await page.click('#flip');
  check(await orientation(page) === 'black', 'the flipped board has Black at the bottom');
  await page.click('#flip');
  check(await orientation(page) === 'white', 'flipped back');

  // Analysis with two lines; click a move of a line to see it on the board.
  await page.selectOption('#side-b [data-k="player"]', 'human');
  await page.click('#engine-gear'); // the number of lines is an engine setting
  await page.selectOption('#multipv', '2');
  await page.click('#engine-close');
  await page.check('#analyse');
  await page.waitForFunction(() => document.querySelectorAll('#lines .line').length >= 2 &&
    document.querySelectorAll('#lines .line .pvm').length >= 4, null, { timeout: 30000 });
  check(/d\d+/.test(await page.textContent('#lines')), 'live analysis shows depth, score and lines');
  if (shots) await page.screenshot({ path: path.join(shots, 'gui-analysis.png') });
  // A click on a line's second move plays the line to there into the game
  // (at the game's end it continues the main line); delete takes it out.
  // Read and click in one step: the lines are redrawn at every new depth,
  // and a line read before a redraw may not be the one clicked after it.
  const pvSecond = await page.evaluate(() => {
    const move = document.querySelectorAll('#lines .line')[0].querySelectorAll('.pvm')[1];
    const text = move.textContent.trim();
    move.click();
    return text;
  });
  await waitPlies(page, 6);
  check((await page.textContent('#moves .mv.cur')).startsWith(pvSecond) && await current(page) === 6,
    `clicking a line move plays the line into the game, up to ${pvSecond}`);
  await page.click('#moves .mv[data-ply="5"]');
  await page.click('#delete');
  await page.waitForFunction(() => document.querySelectorAll('#moves .mv[data-ply]').length === 4);
  check(await current(page) === 4, 'delete from here takes the line out again');

  // Analysis follows the position viewed in the move list: lines with move
  // numbers, the best move's arrow, the bar; another position clears them.
  // The statistics line too: the search stopped for the new position
  // reports as it ends, and the page must not show that (an endless
  // analysis has no statistics of its own until it stops).
  await page.evaluate(() => {
    window.statsSeen = [];
    const el = document.getElementById('stats');
    new MutationObserver(() => { if (el.textContent) window.statsSeen.push(el.textContent); })
      .observe(el, { childList: true, characterData: true, subtree: true });
  });
  const linesFor = async (ply) => {
    await page.evaluate(() => { window.statsSeen = []; });
    await page.click(`#moves .mv[data-ply="${ply}"]`);
    const viewed = await page.inputValue('#fen');
    const stale = await page.$eval('#lines', (el, fen) => el.dataset.fen !== '' && el.dataset.fen !== fen, viewed);
    check(!stale, `no line of another position stays after going to ply ${ply}`);
    await page.waitForFunction((fen) => document.getElementById('lines').dataset.fen === fen &&
      document.querySelectorAll('#lines .line').length >= 2, viewed, { timeout: 30000 });
    const seen = await page.evaluate(() => window.statsSeen);
    check(seen.length === 0, `no statistics of the previous position's search after going to ply ${ply} (${seen.join(' | ')})`);
    return page.$eval('#lines .line .pvn', (el) => el.textContent.trim());
  };
  check(await linesFor(2) === '2.', 'the position after 1... is analysed, its line numbered from 2.');
  check(await linesFor(3) === '2...', 'the next position too, numbered from 2...');
  check(await probe(page, () => cgProbe.arrows('paleBlue').length) === 1, 'the best move has an arrow');
  const bar = await page.$eval('#evaltext', (el) => ({ text: el.textContent, size: parseFloat(getComputedStyle(el).fontSize) }));
  check(bar.text.length > 0 && bar.size >= 11, `the bar's figure is readable (${bar.text}, ${bar.size}px)`);
  if (shots) await page.screenshot({ path: path.join(shots, 'gui-analysis.png') });
  await page.click('#flip');
  check(await page.$eval('#evalbar', (el) => el.classList.contains('flipped')), 'the bar flips with the board');
  await page.click('#flip');
  await page.click('#last');
  await page.click('#undo');
  await page.waitForFunction(() => document.querySelectorAll('#moves .mv[data-ply]').length === 3);
  const afterUndo = await page.inputValue('#fen');
  const lines = await page.$eval('#lines', (el) => el.dataset.fen);
  check(lines === '' || lines === afterUndo, 'undo clears the lines of the position taken back');
  // Stopped, the search shows its statistics; stepping to another move clears them.
  await page.waitForFunction((fen) => document.getElementById('lines').dataset.fen === fen, afterUndo, { timeout: 30000 });
  await page.uncheck('#analyse');
  await page.waitForFunction(() => document.getElementById('stats').textContent.includes('nodes'), null, { timeout: 30000 });
  await page.click('#moves .mv[data-ply="2"]');
  check(await page.textContent('#stats') === '', 'stepping to another move clears the statistics line');
  await page.waitForTimeout(300);
  check(await page.textContent('#stats') === '', 'and no late report brings it back');

  // Promotion chooser.
  await page.fill('#pgn', '');
  await page.fill('#fen', '4k3/P7/8/8/8/8/8/4K3 w - - 0 1');
  await page.press('#fen', 'Enter'); // Enter in the FEN box loads it
  // The moves made here are left for a game of its own once asked (issue 63).
  await page.click('#confirm-yes');
  await page.waitForFunction(() => document.getElementById('status').textContent.includes('White to move') && !document.querySelector('#moves .mv'));
  await moveWhenOffered(page, 'a7', 'a8');
  await page.waitForSelector('#promotion:not(.hidden)');
  await page.click('#promotion img[data-role="n"]');
  await waitPlies(page, 1);
  check((await page.textContent('#moves')).includes('a8=N'), 'promotion to a knight with the chooser');

  // Edit mode: an impossible position shows the rules' error, a good one is played from.
  await page.click('#editbtn');
  await page.click('#edit-clear');
  await page.click('#palette [data-piece="K"]');
  await clickSquare(page, 'e1');
  await page.click('#edit-apply');
  await page.waitForFunction(() => document.getElementById('edit-error').textContent.length > 0);
  const editError = await page.textContent('#edit-error');
  check(/king/i.test(editError), `an impossible position is refused: "${editError}"`);
  await page.click('#palette [data-piece="k"]');
  await clickSquare(page, 'e8');
  await page.click('#palette [data-piece="R"]');
  await clickSquare(page, 'a1');
  await page.click('#palette [data-piece="P"]');
  await clickSquare(page, 'b5');
  await page.click('#palette [data-piece="p"]');
  await clickSquare(page, 'c7');
  await page.selectOption('#edit-turn', 'b');
  await page.check('#edit-Q');
  if (shots) await page.screenshot({ path: path.join(shots, 'gui-edit.png') });
  await page.click('#edit-apply');
  await page.waitForSelector('#editor.hidden', { state: 'attached' });
  const fen = await page.inputValue('#fen');
  check(fen === '4k3/2p5/8/1P6/8/8/8/R3K3 b Q - 0 1', `the edited position is played from: ${fen}`);

  // PGN import, then export (shown and downloaded).
  const pgn = '[Event "E2E"]\n[White "Alice"]\n[Black "Bob"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n';
  await page.fill('#pgn', pgn);
  await page.click('#loadpgn');
  await waitPlies(page, 6);
  check((await page.textContent('#moves')).includes('Bb5'), 'a PGN game imported');
  await page.click('#showpgn');
  await page.waitForFunction(() => document.getElementById('pgn').value.includes('3. Bb5 a6'));
  check((await page.inputValue('#pgn')).includes('[White "Alice"]'), 'the PGN exported back with its tags');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
  const fs = require('fs');
  const text = fs.readFileSync(await download.path(), 'utf8');
  check(text.includes('1. e4 e5 2. Nf3 Nc6 3. Bb5 a6'), 'the PGN downloads');
  await page.fill('#pgn', '1. e4 e5 2. Ke3 *');
  await page.click('#loadpgn');
  await page.waitForFunction(() => document.getElementById('ioerror').textContent.length > 0);
  check((await page.textContent('#ioerror')).length > 0, 'a broken PGN shows an error');
  check(await plyCount(page) === 6, 'and leaves the game as it was');

  // The opening's name above the moves, for the position on view.
  const openingText = () => page.textContent('#opening');
  await page.waitForFunction(() => document.getElementById('opening').dataset.eco === 'C70');
  check((await openingText()).includes('Ruy Lopez: Morphy Defense'), `the opening is named: ${await openingText()}`);
  await page.click('#moves .mv[data-ply="3"]');
  check((await openingText()).includes("C40 King's Knight Opening"), `and follows the move on view: ${await openingText()}`);

  // Variations: back to 2... Nc6, another third move starts a variation
  // shown under the main line's; promoted, it is the main line, and the
  // PGN export has the old one in parentheses.
  await page.click('#moves .mv[data-ply="4"]');
  await page.waitForFunction(() => S.game.legal.length > 0 && S.game.current === S.game.plies[3].node);
  await move(page, 'f1', 'c4');
  await page.waitForFunction(() => document.querySelector('#moves .var .mv.cur'));
  check((await page.textContent('#moves .interrupt .var')).includes('3.Bc4') &&
    (await page.textContent('#moves .mv[data-ply="5"]')).startsWith('Bb5'), 'a move from an earlier position starts a variation, nested under the main line');
  check(await plyCount(page) === 6, 'and the main line stays as it was');
  await page.click('#mainline');
  await page.waitForFunction(() => (document.querySelector('#moves .mv[data-ply="5"]') || {}).textContent === 'Bc4');
  check((await page.textContent('#moves .var')).includes('Bb5'), 'made the main line, the old one becomes its variation');
  await page.click('#showpgn');
  await page.waitForFunction(() => document.getElementById('pgn').value.replace(/\s+/g, ' ').includes('3. Bc4 (3. Bb5 a6)'));
  check(true, 'the exported PGN has the variation: 3. Bc4 (3. Bb5 a6)');
  // An imported PGN's variations (nested), comments and NAGs are shown.
  await page.fill('#pgn', '[Event "Variations"]\n[White "Ann"]\n[Black "Bob"]\n\n1. e4 e5 2. Nf3 (2. Bc4 {the Bishop\'s Opening} Nf6 (2... Bc5 3. Qh5!? Qe7) 3. d3) (2. f4 exf4) 2... Nc6 3. Bb5 $1 a6 {Morphy\'s move} 4. Ba4 Nf6 1/2-1/2\n');
  await page.click('#loadpgn');
  await page.waitForFunction(() => document.querySelectorAll('#moves .mv[data-ply]').length === 8);
  check((await page.textContent('#moves .comment')).includes("the Bishop's Opening"), 'an imported comment is shown');
  check(await page.$$eval('#moves .interrupt .var', (els) => els.length) === 2 &&
    (await page.textContent('#moves .var .sub')).includes('3.Qh5!?'), 'imported variations are shown, nested, with their NAGs');
  check((await page.textContent('#moves .mv[data-ply="5"] .nag')) === '!', '$1 is shown as !');
  check((await page.textContent('#moves .result')).includes('1/2-1/2'), 'the recorded result is shown');
  await page.click('#moves .var .sub .mv >> nth=1'); // 3. Qh5 in the nested variation
  await page.waitForFunction(() => S.game.legal.length > 0);
  check(await pieceOn(page, 'h5') === 'Q', 'a nested variation\'s move is shown on the board');
  await page.evaluate(() => window.scrollTo(0, 0));
  if (shots) await page.screenshot({ path: path.join(shots, 'gui-variations.png') });
  // Right-click on a move: the menu deletes it and what follows.
  await page.click('#moves .var .mv >> text=f4', { button: 'right' });
  await page.waitForSelector('#node-menu:not(.hidden)');
  await page.click('#node-menu >> text=Delete from here');
  await page.waitForFunction(() => document.querySelectorAll('#moves .interrupt .var').length === 1);
  check(!(await page.textContent('#moves')).includes('exf4'), 'the menu deletes a variation');
  await page.click('#showpgn');
  await page.waitForFunction(() => document.getElementById('pgn').value.replace(/\s+/g, ' ').includes('Nf6 (2... Bc5 3. Qh5 $5 Qe7) 3. d3)'));
  const withVars = await page.inputValue('#pgn');
  check(withVars.includes("{the Bishop's Opening}") && withVars.includes('3. Bb5 $1') && withVars.includes('[Result "1/2-1/2"]'),
    'the export keeps comments, NAGs and the result');
  // Annotating the move on view: a judgement by its button (pressed
  // again, replaced), a comment saved with Ctrl+Enter; both in the list
  // and the export.
  await page.click('#moves .mv[data-ply="7"]'); // 4. Ba4
  await page.waitForFunction(() => S.game.current === S.game.plies[6].node && !document.getElementById('comment').disabled);
  await page.click('#nag-buttons button[data-nag="5"]');
  await page.waitForFunction(() => (document.querySelector('#moves .mv[data-ply="7"] .nag') || {}).textContent === '!?');
  await page.click('#nag-buttons button[data-nag="6"]');
  await page.waitForFunction(() => (document.querySelector('#moves .mv[data-ply="7"] .nag') || {}).textContent === '?!');
  check(await page.$eval('#nag-buttons button[data-nag="6"]', (b) => b.getAttribute('aria-pressed')) === 'true' &&
    await page.$$eval('#moves .mv[data-ply="7"] .nag', (els) => els.length) === 1, 'a move takes one judgement: ?! replaced !?');
  await page.click('#nag-buttons button[data-nag="14"]');
  await page.fill('#comment', 'Keeping the pin in reserve.');
  await page.press('#comment', 'Control+Enter');
  await page.waitForFunction(() => [...document.querySelectorAll('#moves .comment')].some((c) => c.textContent.includes('pin in reserve')));
  check(true, 'a comment saved with Ctrl+Enter shows in the move list');
  await page.evaluate(() => window.scrollTo(0, 0));
  if (shots) await page.screenshot({ path: path.join(shots, 'gui-annotate.png') });
  await page.click('#showpgn');
  await page.waitForFunction(() => document.getElementById('pgn').value.replace(/\s+/g, ' ').includes('4. Ba4 $6 $14 {Keeping the pin in reserve.}'));
  check(true, 'the export has them: 4. Ba4 $6 $14 {Keeping the pin in reserve.}');
  await page.click('#moves .mv[data-ply="7"]');
  await page.fill('#comment', '');
  await page.click('#save-comment');
  await page.waitForFunction(() => ![...document.querySelectorAll('#moves .comment')].some((c) => c.textContent.includes('pin in reserve')));
  check(true, 'an empty comment saved removes it');

  // "Analyse game" on Légal's mate: the graph fills, 5... Bxd1 is a
  // blunder, each side is summed up and a click on the graph goes there.
  await page.fill('#pgn', '1. e4 e5 2. Nf3 d6 3. Bc4 Bg4 4. Nc3 g6 5. Nxe5 Bxd1 6. Bxf7+ Ke7 7. Nd5# 1-0');
  await page.click('#loadpgn');
  await page.click('#confirm-yes'); // the annotations made here: asked first (issue 63)
  await waitPlies(page, 13);
  await page.waitForFunction(() => document.getElementById('opening').dataset.eco === 'C41');
  check((await openingText()).includes('C41 Philidor Defense'), `the name is kept out of the table: ${await openingText()}`);
  check(await page.isDisabled('#review-start') === false, 'a game with moves may be analysed');
  const t1 = Date.now();
  await page.click('#review-start');
  await page.waitForFunction(() => document.getElementById('review').dataset.state === 'running' ||
    document.getElementById('review').dataset.state === 'done');
  await page.waitForFunction(() => document.getElementById('review').dataset.state === 'done', null, { timeout: 120000 });
  check(await page.$eval('#review', (el) => Number(el.dataset.analysed)) === 14, `the pass searched all 14 positions (${Date.now() - t1} ms)`);
  check(await page.$$eval('#graph polyline.curve', (els) => els.length) === 1, 'the graph is drawn');
  const blunder = await page.textContent('#moves .mv[data-ply="10"] .judg.blunder').catch(() => '');
  check(blunder === '??', '5... Bxd1 is marked as a blunder (??)');
  check(await page.$$eval('#graph circle.blunder', (els) => els.some((e) => e.dataset.ply === '10')), 'and as a red dot on the graph');
  const black = await page.$$eval('#review-summary tr[data-side="b"] td', (tds) => tds.map((t) => t.textContent));
  check(Number(black[2]) >= 1 && Number(black[3]) > 100, `Black's summary counts the blunder (${black.join(', ')})`);
  const box = await page.locator('#graph').boundingBox();
  await page.mouse.click(box.x + (box.width * 10) / 13, box.y + box.height / 2);
  check(await current(page) === 10, 'a click on the graph goes to that move');
  check(await page.$eval('#graph line.cur', (el) => el.dataset.ply) === '10', 'and the graph marks it');
  // With live analysis off, the bar and the arrow are the pass's for the move on view.
  const reviewed = await page.evaluate(() => fetch(`/api/analysis?game=${S.game.id}`).then((r) => r.json())
    .then((v) => v.positions.map((p) => ({ bar: barText(p.score), uci: p.best_uci }))));
  const reviewShown = async (ply) => {
    const want = reviewed[ply];
    await page.waitForFunction((want) => document.getElementById('evaltext').textContent === want.bar &&
      cgProbe.arrows('paleGreen').map((a) => a.from + a.to).join() === want.uci.slice(0, 4),
    want, { timeout: 5000 }).catch(() => {});
    const bar = await page.textContent('#evaltext');
    // The review's arrow is green, the live lines' blue and grey (board.js).
    const arrow = await probe(page, () => cgProbe.arrows().map((a) => `${a.brush === 'paleGreen' ? 'review' : 'live'} ${a.from}${a.to}`).join() || 'none');
    check(bar === want.bar && arrow === `review ${want.uci.slice(0, 4)}`,
      `at ply ${ply} the bar shows the reviewed score (${bar}, reviewed ${want.bar}) and the arrow its best move (${arrow}, reviewed ${want.uci})`);
  };
  await reviewShown(10);
  if (shots) await page.screenshot({ path: path.join(shots, 'gui-review.png'), fullPage: true });
  await page.keyboard.press('ArrowRight');
  await reviewShown(11);
  // Live analysis takes over the bar and the arrows, and gives them back.
  const atEleven = await page.inputValue('#fen');
  await page.check('#analyse');
  await page.waitForFunction((fen) => document.getElementById('lines').dataset.fen === fen &&
    cgProbe.arrows('paleBlue').length === 1, atEleven, { timeout: 30000 });
  check(true, 'with live analysis on, its lines draw the arrows');
  await page.uncheck('#analyse');
  await reviewShown(11);
  // A change that leaves the positions as they were (a move judgement) keeps
  // the pass's bar and arrow while the page asks for the pass again (held
  // back here, so that a blink would be seen).
  let asked = 0;
  const analysis = /\/api\/analysis\?game=/;
  await page.route(analysis, async (route) => {
    asked++;
    await new Promise((r) => setTimeout(r, 1500));
    await route.continue().catch(() => {});
  });
  const barBefore = await page.textContent('#evaltext');
  await page.click('#nag-buttons button[data-nag="1"]');
  await page.waitForFunction(() => curNode().nags.includes(1), null, { timeout: 5000 });
  await page.waitForTimeout(300);
  const during = await probe(page, () => ({
    bar: document.getElementById('evaltext').textContent,
    arrow: cgProbe.arrows('paleGreen').length === 1,
  }));
  check(asked > 0 && during.bar === barBefore && during.arrow,
    `a move judgement leaves the bar (${during.bar}, was ${barBefore}) and the arrow (${during.arrow}) while the pass is asked for again (${asked} requests)`);
  await page.unroute(analysis);
  await page.click('#last');

  // A game against the computer: you play Black at its top level on a
  // clock, with the evaluation hidden; Kestrel (White) moves first.
  await page.click('#vsengine');
  await page.waitForSelector('#match-dialog[open]');
  await page.check('#match-dialog input[name="colour"][value="b"]');
  const top = await page.$eval('#match-level', (el) => el.options[el.options.length - 1].value);
  await page.selectOption('#match-level', top);
  await page.selectOption('#match-time', '1+0');
  check(await page.isChecked('#match-hide'), 'hiding the evaluation is on by default against the computer');
  if (shots) await page.screenshot({ path: path.join(shots, 'gui-new-game.png') });
  await page.click('#match-start');
  await page.click('#confirm-yes'); // the game judged here is left once asked (issue 63)
  // The new game's clocks are up and Kestrel has made its first move.
  await page.waitForFunction(() => !document.getElementById('clock-top').classList.contains('hidden') &&
    document.querySelectorAll('#moves .mv[data-ply]').length === 1, null, { timeout: 30000 });
  check(await orientation(page) === 'black', 'playing Black flips the board');
  check((await page.textContent('#lines')).includes('hidden'), 'the evaluation is hidden while you play');
  check(await page.isDisabled('#review-start') && await page.$eval('#graph', (el) => el.classList.contains('empty')),
    'no game analysis or graph while the evaluation is hidden');
  check(await probe(page, () => cgProbe.arrows().length) === 0 && await page.textContent('#evaltext') === '',
    'and no arrow or figure on the bar');
  check(!(await page.isHidden('#clock-top')) && !(await page.isHidden('#resign')), 'clocks, resign and draw are shown');
  await move(page, 'e7', 'e5');
  await waitPlies(page, 3);
  const clocks = await page.$$eval('.clock', (els) => Object.fromEntries(els.map((e) => [e.dataset.side, Number(e.dataset.ms)])));
  // A side's clock starts after its first move (lichess's rule): White's
  // ran for its second move, Black's first move was free (its clock runs
  // from White's second move on).
  check(clocks.w < 60000 && clocks.b <= 60000 && clocks.b > 59000,
    `White's clock ran, Black's first move was free (White ${clocks.w} ms, Black ${clocks.b} ms left)`);
  if (shots) await page.screenshot({ path: path.join(shots, 'gui-vs-computer.png') });
  check(await page.isDisabled('#delete') && await page.isDisabled('#mainline'), 'no variations to edit while you play the computer');
  await page.click('#resign');
  await page.click('#confirm-yes'); // asked first, as on lichess
  await page.waitForSelector('#over-dialog[open]');
  check((await page.textContent('#over-dialog')).includes('Black resigns'), 'resigning ends the game with a dialog');
  check((await page.textContent('#moves')).includes('1-0 (Black resigns)'), 'the result is in the move list');
  const [matchPgn] = await Promise.all([page.waitForEvent('download'), page.click('#over-pgn')]);
  const exported = fs.readFileSync(await matchPgn.path(), 'utf8');
  check(exported.includes(`[White "Kestrel${top === 'max' ? '' : ` (level ${top})`}"]`) &&
    exported.includes('[Black "You"]') && exported.includes('[Result "1-0"]'), 'the PGN names the players and has the result');
  await page.click('#over-close');

  // A game lost on the clock (6 seconds, a time control only the test offers).
  // The play screen keeps only the game's controls (issue 63): a new game
  // against the computer starts from the analysis board's button.
  await page.click('#pages a[data-page="analysis"]');
  await page.click('#vsengine');
  await page.check('#match-dialog input[name="colour"][value="w"]');
  await page.$eval('#match-time', (el) => { el.add(new Option('0.1+0', '0.1+0')); el.value = '0.1+0'; });
  await page.click('#match-start');
  // No clock runs before a side's first move: White plays one, Kestrel answers, White waits.
  await page.waitForFunction(() => S.match && S.game.plies.length === 0);
  await move(page, 'e2', 'e4');
  await page.waitForSelector('#over-dialog[open]', { timeout: 20000 });
  check((await page.textContent('#over-dialog')).includes('White lost on time'), 'the flag falls: White lost on time');
  if (shots) await page.screenshot({ path: path.join(shots, 'gui-game-over.png') });
  await page.click('#over-close');

  // A top game of the explorer loads on the analysis board (the explorer
  // is a panel of the analysis board, not of the play screen).
  await page.click('#pages a[data-page="analysis"]');
  await page.click('#newgame');
  // The table of the new game's position, not the one it had before.
  await page.waitForFunction(() => S.game.plies.length === 0 && document.getElementById('explorer').dataset.fen === S.game.fen
    && document.querySelector('#explorer tr.xg'));
  const event = (await page.$eval('#explorer tr.xg', (tr) => tr.title)).replace(/: load this game$/, '');
  await page.click('#explorer tr.xg');
  await page.waitForFunction(() => S.game.plies.length > 10 && document.body.dataset.page === 'analysis');
  const loadedPgn = await page.evaluate(() => backend.pgn(S.game.id));
  check(loadedPgn.includes(`[Event "${event}"]`), `the top game loaded is the one clicked (${event})`);

  // Engine against engine at low depth, with pause and resume, to the end of a game.
  await page.click('#newgame');
  await page.waitForFunction(() => document.querySelectorAll('#moves .mv[data-ply]').length === 0);
  await setSide(page, 'w', 'human', 1, true);
  await setSide(page, 'b', 'engine', 1, true);
  await page.selectOption('#side-w [data-k="player"]', 'engine');
  await waitPlies(page, 6);
  await page.click('#pause');
  await page.waitForTimeout(300);
  const paused = await plyCount(page);
  await page.waitForTimeout(700);
  check(await plyCount(page) === paused, `autoplay pauses (at ${paused} plies)`);
  await page.click('#pause');
  await page.waitForFunction(() => /1-0|0-1|1\/2-1\/2/.test(document.getElementById('status').textContent), null, { timeout: 240000 });
  const status = await page.textContent('#status');
  check(true, `engine vs engine finished: ${status} after ${await plyCount(page)} plies`);
  if (shots) await page.screenshot({ path: path.join(shots, 'gui-finished.png') });

  check(errors.length === 0, `no script errors on the page ${errors.join('; ')}`);
  await browser.close();
}

main().catch((e) => {
  console.error(e.stack || String(e));
  process.exit(1);
});
