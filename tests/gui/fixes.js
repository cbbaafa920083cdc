// Bugs a player met in `kestrel gui` (issue 41), one scenario each, each
// in a fresh page: every scenario failed before its fix.
// Usage: node fixes.js URL [SCENARIO...]. Runs every scenario, prints
// `ok:`/`FAILED:` for each and exits non-zero when one failed. Run by
// tests/gui_browser.rs.
'use strict';

const {
  probe, open: openAt, check, waitPlies, KASPAROV, LEGAL, move, moveWhenOffered, drawArrow, startMatchGame, pieceOn, runScenarios,
} = require('./browser');

const url = process.argv[2];
const only = process.argv.slice(3);

// A game that shares its first three moves with Légal's mate.
const OTHER = '1. e4 e5 2. Nf3 d6 3. d4 Nf6 4. Nc3 *';

const open = (browser) => openAt(browser, url, { viewport: { width: 1366, height: 768 } });

const plies = (page) => page.$$eval('#moves .mv[data-ply]', (els) => els.length);
const clocks = (page) => page.$$eval('.clock', (els) => Object.fromEntries(els.map((e) => [e.dataset.side, Number(e.dataset.ms)])));

async function loadPgn(page, pgn) {
  await page.fill('#pgn', pgn);
  await page.click('#loadpgn');
}

// A game against the computer as White, at its lowest level unless `top`.
async function startMatch(page, time, hide, top = false) {
  // On a phone the header's Play link opens the dialog (no button for it).
  if (await page.isVisible('#vsengine')) await page.click('#vsengine');
  else await page.tap('#pages a[data-page="play"]');
  await page.waitForSelector('#match-dialog[open]');
  await page.check('#match-dialog input[name="colour"][value="w"]');
  const level = await page.$eval('#match-level', (el, top) => el.options[top ? 0 : el.options.length > 1 ? 1 : 0].value, top);
  await page.selectOption('#match-level', level);
  await page.selectOption('#match-time', time);
  await page.setChecked('#match-hide', hide);
  await startMatchGame(page);
}

const SCENARIOS = {
  // Clocks follow the game: nobody's clock runs before their first move,
  // and looking back at an earlier move charges the side to move in the
  // game, never the other one.
  async clocks(browser) {
    const { context, page } = await open(browser);
    await startMatch(page, '3+2', true);
    await page.waitForTimeout(1500);
    const start = await clocks(page);
    check(start.w === 180000 && start.b === 180000, `no clock runs before White's first move (White ${start.w} ms, Black ${start.b} ms)`);
    await move(page, 'e2', 'e4');
    await waitPlies(page, 2);
    await move(page, 'd2', 'd4');
    await waitPlies(page, 4);
    // White's move: its clock runs; Black's stands, whatever is on view.
    const before = await clocks(page);
    await page.click('#back');
    await page.click('#back');
    await page.waitForTimeout(2500);
    const after = await clocks(page);
    check(Math.abs(after.b - before.b) < 150, `looking back costs Black (not to move) nothing (${before.b} -> ${after.b} ms)`);
    check(before.w - after.w > 2000, `White, to move in the game, keeps paying while looking back (${before.w} -> ${after.w} ms)`);
    check(!(await page.$eval('#over-dialog', (d) => d.open)), 'and nobody loses on time for looking back');
    // Each move's clock (the mover's, after it) in the move list and the
    // PGN's [%clk]: both first moves free, so 3:00.
    await page.waitForFunction(() => S.game.plies.filter((p) => p.clock_ms != null).length >= 4, null, { timeout: 10000 });
    const listed = await page.$$eval('#moves .mv[data-ply] .clk', (els) => els.map((e) => e.textContent));
    const pgn = await page.evaluate(() => fetch(`/api/pgn?game=${S.game.id}`).then((r) => r.text()));
    const clk = [...pgn.matchAll(/\[%clk (\d+:\d\d:\d\d)\]/g)].map((m) => m[1]);
    check(listed.length >= 4 && listed[0] === '3:00' && listed[1] === '3:00', `each move's clock in the move list (${listed.join(' ')})`);
    check(clk.length >= 4 && clk[0] === '0:03:00' && clk[1] === '0:03:00' && clk.slice(2).every((t) => t.startsWith('0:0')),
      `and in the PGN as [%clk] (${clk.join(' ')})`);
    await context.close();
  },

  // A game against the computer that ended (here by resignation) stays
  // ended: a variation tried in it stays a variation (making it the main
  // line is refused with the server's message, issue 63), and the
  // computer does not take the game up again.
  async finished(browser) {
    const { context, page } = await open(browser);
    await startMatch(page, '', false);
    await move(page, 'e2', 'e4');
    await waitPlies(page, 2);
    await page.click('#resign');
    await page.click('#confirm-yes'); // asked first, as on lichess
    await page.waitForSelector('#over-dialog[open]');
    await page.click('#over-close');
    check((await page.textContent('#status')).startsWith('0-1'), 'the resignation ends the game 0-1');
    // Back to the start and another first move: a variation.
    await page.click('#first');
    await page.waitForFunction(() => S.game.current === 0);
    await move(page, 'd2', 'd4');
    await page.waitForFunction(() => document.querySelector('#moves .var .mv.cur'));
    // The tree's commands are the analysis board's (issue 63: not on the
    // play screen): the same game there.
    await page.click('#pages a[data-page="analysis"]');
    await page.waitForFunction(() => location.pathname === '/analysis');
    await page.click('#mainline');
    await page.waitForFunction(() => /stand as played/.test(document.getElementById('message').textContent));
    check(await page.evaluate(() => S.game.plies[0].san === 'e4'), `making the variation the main line is refused: ${await page.textContent('#message')}`);
    await page.waitForTimeout(2500);
    check((await page.textContent('#status')).startsWith('0-1'), `the result stays (${await page.textContent('#status')})`);
    check(await plies(page) === 2, `the computer does not take the game up again (${await plies(page)} moves on the main line)`);
    check(await page.evaluate(() => S.game.status.over && !S.game.linear), 'the server still has it over, and no game going on');
    const pgn = await page.evaluate(() => fetch(`/api/pgn?game=${S.game.id}`).then((r) => r.text()));
    check(pgn.includes('[Result "0-1"]'), 'its PGN keeps the result');
    check(page.errors.length === 0, `no script errors ${page.errors.join('; ')}`);
    await context.close();
  },

  // A fresh page is an analysis board: a FEN with Black to move loaded
  // into it brings no engine move.
  async fen(browser) {
    const { context, page } = await open(browser);
    const fen = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1';
    await page.fill('#fen', fen);
    await page.press('#fen', 'Enter');
    await page.waitForFunction((fen) => S.game.nodes[0].fen === fen, fen);
    await page.waitForTimeout(2500);
    check(await plies(page) === 0 && await page.textContent('#thinking') === '', 'a loaded FEN with Black to move makes no engine move');
    check(await page.inputValue('#side-b [data-k="player"]') === 'human', 'both sides are people on a fresh page');
    await context.close();
  },

  // A pass over one game gives no figures to another game that shares
  // its first moves.
  async review(browser) {
    const { context, page } = await open(browser);
    await page.selectOption('#side-b [data-k="player"]', 'human');
    await loadPgn(page, LEGAL);
    await waitPlies(page, 13);
    await page.click('#review-start');
    await page.waitForSelector('#review[data-state="done"]', { timeout: 60000 });
    check(Number(await page.getAttribute('#review', 'data-analysed')) === 14, 'Légal\'s mate analysed');
    await loadPgn(page, OTHER);
    await page.waitForFunction(() => S.game.plies.length === 7);
    await page.waitForTimeout(1000);
    const shown = await page.evaluate(() => ({
      analysed: document.getElementById('review').dataset.analysed,
      summary: document.getElementById('review-summary').textContent,
      graph: document.getElementById('graph').classList.contains('empty'),
      marks: document.querySelectorAll('#moves .judg').length,
    }));
    check(shown.analysed === '0' && shown.summary === '' && shown.graph && shown.marks === 0,
      `an imported game nobody analysed shows no review figures (${JSON.stringify(shown)})`);
    await context.close();
  },

  // The review as lichess's: Légal's mate analysed, 5... Bxd1 a blunder,
  // each side's accuracy, and on request the best line of each judged
  // move in the tree, as a variation with lichess's comment on the move.
  async bestlines(browser) {
    const { context, page } = await open(browser);
    await loadPgn(page, LEGAL);
    await waitPlies(page, 13);
    await page.click('#review-start');
    await page.waitForSelector('#review[data-state="done"]', { timeout: 60000 });
    const mark = await page.textContent('#moves .mv[data-ply="10"] .judg');
    const acc = await page.$$eval('#review-summary tr[data-side] td:last-child', (els) => els.map((e) => parseFloat(e.textContent)));
    check(mark === '??' && acc.length === 2 && acc[0] > acc[1], `5... Bxd1?? judged, accuracy White ${acc[0]} %, Black ${acc[1]} %`);
    const best = await page.evaluate(() => REVIEW.view.positions[9].best);
    await page.click('#review-lines');
    await page.waitForFunction(() => S.game.nodes.some((n) => !n.main), null, { timeout: 10000 });
    const shown = await page.evaluate(() => ({
      variation: [...document.querySelectorAll('#moves .interrupt .mv')].map((e) => e.textContent.trim()),
      comment: [...document.querySelectorAll('#moves .comment')].map((e) => e.textContent).join(' | '),
      plies: S.game.plies.length, result: S.game.status.result,
    }));
    check(shown.variation.some((t) => t.startsWith(best)) && shown.comment.includes(`Blunder. ${best} was best.`),
      `"Best lines into the moves": ${best}'s line as a variation, the comment on the move (${shown.comment})`);
    check(shown.plies === 13 && shown.result === '1-0', 'the game and its result stay as they were');
    check(page.errors.length === 0, `no script errors ${page.errors.join('; ')}`);
    await context.close();
  },

  // Without --syzygy-path the page asked nothing of the tables (issue 41);
  // since issue 63 it asks the compiled-in ones, and none of it fails.
  async tablebase(browser) {
    const { context, page } = await open(browser);
    const asked = [];
    page.on('request', (r) => { if (r.url().includes('/api/tablebase')) asked.push(r.url()); });
    await page.fill('#fen', '8/8/8/4k3/8/8/4K3/4R3 w - - 0 1');
    await page.press('#fen', 'Enter');
    await page.waitForFunction(() => S.game.fen.startsWith('8/8/8/4k3'));
    // The loaded position reaches the board a moment after S.game has it.
    await moveWhenOffered(page, 'e1', 'a1');
    await page.waitForFunction(() => S.game.plies.length === 1);
    // Since issue 63 the 3- and 4-piece tables are compiled in: the panel
    // answers with no set-up, and no request fails.
    await page.waitForSelector('#tb tr.tbm');
    check(asked.length > 0 && !page.problems.some((p) => p.includes('/api/tablebase')),
      `the tables asked and answered without --syzygy-path (${asked.length} requests, none failed)`);
    await context.close();
  },

  // The exported PGN never ends a line with a move number: the number
  // stays with its move, whatever the comments before shift.
  async pgn(browser) {
    const { context, page } = await open(browser);
    const broken = [];
    for (let n = 0; n < 12; n++) {
      const pgn = KASPAROV.replace('1. e4 d6', `1. e4 {${'x'.repeat(n + 1)}} d6`);
      await loadPgn(page, pgn);
      await page.waitForFunction(() => S.game.plies.length === 87);
      const text = await page.evaluate(() => fetch(`/api/pgn?game=${S.game.id}`).then((r) => r.text()));
      const lines = text.split('\n').filter((l) => !l.startsWith('['));
      const bad = lines.filter((l) => /\d+\.+$/.test(l.trimEnd()));
      if (bad.length) broken.push(`${n + 1}: ${bad[0]}`);
    }
    check(broken.length === 0, `no exported line ends with a move number (${broken.join(' | ')})`);
    await context.close();
  },

  // A premove (chessground's): a move made while Kestrel thinks is kept,
  // marked on the board, and played the moment Kestrel's move arrives.
  async premove(browser) {
    const { context, page } = await open(browser);
    // Kestrel searches its reply (no book, full strength, 1 s a move):
    // time for the premove.
    await page.setChecked('#side-b [data-k="book"]', false);
    await startMatch(page, '', true, true);
    await move(page, 'e2', 'e4');
    await move(page, 'd2', 'd4');
    const kept = await page.waitForFunction(() => cgProbe.count('current-premove') === 2 && { plies: S.game.plies.length }, null, { timeout: 3000 })
      .then((h) => h.jsonValue(), () => ({ plies: 'none' }));
    check(kept.plies <= 1, `a move made while Kestrel thinks is kept as a premove, its squares marked (at ${kept.plies} plies)`);
    await waitPlies(page, 3);
    const third = await page.textContent('#moves .mv[data-ply="3"]');
    const unmarked = await page.waitForFunction(() => cgProbe.count('current-premove') === 0, null, { timeout: 3000 }).then(() => true, () => false);
    check(third.startsWith('d4') && unmarked, `and played as soon as Kestrel has moved (2. ${third}), its mark gone (${unmarked})`);
    check(page.errors.length === 0, `no script errors ${page.errors.join('; ')}`);
    await context.close();
  },

  // Arrows and circles drawn with the right button (chessground's) belong
  // to their position: gone when another is on view, back with it.
  async arrows(browser) {
    const { context, page } = await open(browser);
    await loadPgn(page, OTHER);
    await waitPlies(page, 7);
    await page.click('h1'); // the focus away from the PGN box, for the arrow keys
    const drawn = () => probe(page, () => cgProbe.shapes().filter((s) => s.brush === 'green')
      .map((s) => (s.from === s.to ? s.from : s.from + s.to)).sort().join(' '));
    await drawArrow(page, 'f8', 'b4');
    await drawArrow(page, 'e4', 'e4');
    check(await drawn() === 'e4 f8b4', `a right-button drag draws an arrow, a right click a circle (${await drawn()})`);
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => S.game.current === S.game.plies[5].node);
    check(await drawn() === '', `another position shows none of them (${await drawn()})`);
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => S.game.current === S.game.plies[6].node);
    check(await drawn() === 'e4 f8b4', `back at their position they are there again (${await drawn()})`);
    check(page.errors.length === 0, `no script errors ${page.errors.join('; ')}`);
    await context.close();
  },

  // Play, Analysis and the Editor each at its own address; resigning, a
  // draw offer and a takeback asked first; the result dialog's Rematch
  // (colours swapped, the same clock) and "Analyse this game".
  async pages(browser) {
    const { context, page } = await open(browser);
    const where = () => new URL(page.url()).pathname;
    const over = () => page.evaluate(() => S.game.status.over);
    check(where() === '/analysis' && await page.isVisible('#analysis-panel') && await page.isVisible('#players'),
      `a fresh page is the analysis board, at ${where()}`);
    await page.click('#pages a[data-page="editor"]');
    check(where() === '/editor' && await page.isVisible('#editor') && await page.isHidden('#analysis-panel'), `the Editor is at ${where()}`);
    await page.reload();
    await page.waitForSelector('body[data-ready="1"]');
    check(where() === '/editor' && await page.isVisible('#editor'), 'a reload there opens the Editor again');
    await page.click('#edit-cancel');
    check(where() === '/analysis' && await page.isHidden('#editor'), 'leaving it is the analysis board again');
    await startMatch(page, '5+3', true);
    check(where() === '/play' && await page.isHidden('#players') && await page.isHidden('#analysis-panel') && await page.isVisible('#clock-top'),
      `a game against Kestrel is at ${where()}: board, clocks and moves, no engine settings or lines`);
    await move(page, 'e2', 'e4');
    await waitPlies(page, 2);
    await page.click('#resign');
    check(await page.isVisible('#confirm') && !(await over()), `Resign asks first (${await page.textContent('#confirm-text')})`);
    await page.click('#confirm-no');
    check(await page.isHidden('#confirm') && !(await over()), 'No: the game goes on');
    await page.click('#offerdraw');
    check(await page.isVisible('#confirm') && (await page.textContent('#confirm-text')).includes('draw'), 'a draw offer is asked first');
    await page.click('#confirm-no');
    await page.click('#undo');
    check(await page.isVisible('#confirm') && await plies(page) === 2, 'a takeback is asked first');
    await page.click('#confirm-yes');
    await page.waitForFunction(() => S.game.plies.length === 0);
    check(true, 'Yes: your move and Kestrel\'s reply are taken back');
    await move(page, 'd2', 'd4');
    await waitPlies(page, 2);
    await page.click('#resign');
    await page.click('#confirm-yes');
    await page.waitForSelector('#over-dialog[open]');
    await page.click('#over-rematch');
    await page.waitForFunction(() => S.match && S.match.human === 'b' && S.game.plies.length === 1 && !S.game.status.over, null, { timeout: 30000 });
    const again = await page.evaluate(() => ({ base: S.match.control.base, inc: S.match.control.inc, hide: S.match.hideEval, flipped: S.flipped }));
    check(again.base === 300000 && again.inc === 3000 && again.hide && again.flipped && where() === '/play',
      `Rematch: you have Black now, at 5+3 again, Kestrel has moved (${JSON.stringify(again)})`);
    await page.click('#resign');
    await page.click('#confirm-yes');
    await page.waitForSelector('#over-dialog[open]');
    await page.click('#over-analyse');
    await page.waitForFunction(() => location.pathname === '/analysis');
    check(await page.isVisible('#analysis-panel') && await page.isVisible('#review') && await page.isHidden('#over-dialog'),
      '"Analyse this game": the analysis board with the game');
    await page.waitForFunction(() => document.getElementById('review').dataset.state !== 'idle', null, { timeout: 30000 });
    check(true, `and its review started (${await page.$eval('#review', (el) => el.dataset.state)})`);
    check(page.errors.length === 0, `no script errors ${page.errors.join('; ')}`);
    await context.close();
  },

  // One engine settings panel, as lichess's analysis gear: the players
  // panel has no engine options; the gear opens the panel, whose choices go
  // with live analysis and "Engine move" and are kept for the next visit;
  // Play shows no gear, and Kestrel plays a game against you at its own
  // settings.
  async settings(browser) {
    const { context, page } = await open(browser);
    const sent = [];
    page.on('request', (r) => { if (r.url().endsWith('/api/go')) sent.push(JSON.parse(r.postData()).settings); });
    check(await page.$$eval('#players [data-option]', (els) => els.length) === 0, 'the players panel has no engine options');
    check(await page.isHidden('#engine-panel'), 'the engine settings are closed at first');
    await page.click('#engine-gear');
    check(await page.isVisible('#engine-panel'), 'the gear opens them');
    const evaluators = await page.$$eval('#engine-panel select[data-option="Evaluator"] option', (els) => els.map((e) => e.value));
    await page.selectOption('#engine-panel select[data-option="Evaluator"]', 'Simple');
    await page.click('#engine-panel summary');
    await page.uncheck('#engine-panel input[data-option="NullMove"]');
    await page.selectOption('#multipv', '2');
    // Threads and the table are the game's engine's, set on the server.
    const engineSet = page.waitForResponse((r) => r.url().endsWith('/api/engine') && r.request().postData().includes('"hash_mib":64'));
    await page.selectOption('#engine-hash', '64');
    const resources = await (await engineSet).json();
    check(resources.hash_mib === 64 && resources.threads === 1, `the engine's table is set to 64 MiB on the server (${JSON.stringify(resources)})`);
    check(evaluators.includes('Simple') && await page.isVisible('#engine-panel input[data-option="NullMove"]'),
      `evaluator (${evaluators.join('/')}) and the search techniques are there`);
    await page.check('#analyse');
    await page.waitForFunction(() => document.querySelectorAll('#lines .line').length === 2, null, { timeout: 20000 });
    const analysis = sent[sent.length - 1];
    check(analysis.infinite && analysis.options.Evaluator === 'Simple' && analysis.options.NullMove === false && analysis.options.MultiPV === 2,
      `live analysis searches with them (${JSON.stringify(analysis.options)})`);
    await page.uncheck('#analyse');
    await page.click('#enginemove');
    await page.waitForFunction(() => S.game.plies.length === 1, null, { timeout: 20000 });
    const played = sent[sent.length - 1];
    check(played.options.Evaluator === 'Simple' && played.options.NullMove === false && !('MultiPV' in played.options),
      `and so does "Engine move" (${JSON.stringify(played.options)})`);
    await page.reload();
    await page.waitForSelector('body[data-ready="1"]');
    const kept = await page.evaluate(() => ({ lines: analysisLines(), options: engineOptions(), hash: ENGINE.applied.hash_mib }));
    check(kept.lines === 2 && kept.options.Evaluator === 'Simple' && kept.options.NullMove === false && kept.hash === 64,
      `kept across a reload (${JSON.stringify(kept)})`);
    await startMatch(page, '', false, true);
    check(await page.isHidden('#engine-gear') && await page.isHidden('#engine-panel'), 'Play shows no engine settings');
    await move(page, 'a2', 'a4'); // out of the book: Kestrel searches
    await waitPlies(page, 2);
    const match = sent[sent.length - 1];
    check(!('Evaluator' in match.options) && !('NullMove' in match.options), `Kestrel plays you at its own settings (${JSON.stringify(match.options)})`);
    check(page.errors.length === 0, `no script errors ${page.errors.join('; ')}`);
    await context.close();
  },

  // "Play from here": the analysis board has no engine player, and a
  // game against Kestrel starts from the position on view through the
  // match dialog (you get the side to move unless you pick the other);
  // its Rematch starts from there again.
  async playfrom(browser) {
    const { context, page } = await open(browser);
    await loadPgn(page, OTHER);
    await waitPlies(page, 7);
    await page.click('#moves .mv[data-ply="5"]'); // 3. d4, Black to move
    const fen = await page.evaluate(() => S.game.fen);
    await page.waitForTimeout(1500);
    check(await page.evaluate(() => S.game.plies.length === 7 && S.players.w === 'human' && S.players.b === 'human'),
      'on the analysis board nobody is an engine player: stepping back moves nothing');
    await page.click('#playfrom');
    await page.waitForSelector('#match-dialog[open]');
    const colour = await page.$eval('#match-dialog input[name="colour"]:checked', (el) => el.value);
    check(colour === 'b' && (await page.textContent('#match-from-fen')) === fen, `the match dialog is from the position on view, you Black to move (${colour})`);
    await page.check('#match-dialog input[name="colour"][value="w"]'); // Kestrel, Black, moves first
    await page.selectOption('#match-time', '3+2');
    await page.setChecked('#match-hide', true);
    await page.click('#match-start');
    await page.waitForFunction((fen) => S.match && S.game.nodes[0].fen === fen && S.game.plies.length === 1, fen, { timeout: 30000 });
    const game = await page.evaluate(() => ({ start: S.game.nodes[0].fen, human: S.match.human, engine: S.players.b, linear: S.game.linear, flipped: S.flipped, path: location.pathname }));
    check(game.start === fen && game.human === 'w' && game.engine === 'engine' && game.linear && game.path === '/play',
      `a game against Kestrel from there at /play, Kestrel (Black) moving first (${JSON.stringify(game)})`);
    const pgn = await page.evaluate(() => fetch(`/api/pgn?game=${S.game.id}`).then((r) => r.text()));
    check(pgn.includes(`[FEN "${fen}"]`) && pgn.includes('[SetUp "1"]'), 'its PGN starts from that position');
    await page.click('#resign');
    await page.click('#confirm-yes');
    await page.waitForSelector('#over-dialog[open]');
    await page.click('#over-rematch');
    await page.waitForFunction((fen) => S.match && S.match.human === 'b' && S.game.nodes[0].fen === fen && !S.game.status.over, fen, { timeout: 30000 });
    check(true, 'Rematch: from the same position, colours swapped');
    check(page.errors.length === 0, `no script errors ${page.errors.join('; ')}`);
    await context.close();
  },

  // The board is resizable as on lichess: its corner handle drags it
  // smaller or bigger (never past the window's height, nor pushing the
  // moves from beside it), moves are still made by their squares, and the
  // size is kept for the next visit.
  async resize(browser) {
    const { context, page } = await open(browser);
    const box = (sel) => page.$eval(sel, (el) => { const r = el.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height, bottom: r.bottom, right: r.right }; });
    const drag = async (dx, dy) => {
      const h = await box('#board-resize');
      await page.mouse.move(h.x + h.w / 2, h.y + h.h / 2);
      await page.mouse.down();
      await page.mouse.move(h.x + h.w / 2 + dx, h.y + h.h / 2 + dy, { steps: 6 });
      await page.mouse.up();
      await page.waitForTimeout(200);
    };
    const before = await box('#board');
    await drag(-120, -120);
    const small = await box('#board');
    check(before.w - small.w > 90 && Math.abs(small.w - small.h) < 1, `dragging the corner in makes the board smaller (${Math.round(before.w)} -> ${Math.round(small.w)} px)`);
    await move(page, 'e2', 'e4');
    await page.waitForFunction(() => S.game.plies.length === 1);
    check(await pieceOn(page, 'e4') === 'P', 'and its squares still take moves');
    await page.reload();
    await page.waitForSelector('body[data-ready="1"]');
    const kept = await box('#board');
    check(Math.abs(kept.w - small.w) < 1, `the size is kept across a reload (${Math.round(kept.w)} px)`);
    await drag(400, 400);
    const big = await box('#board');
    const moves = await box('#moves-panel');
    check(big.w > before.w && big.bottom <= 768 && moves.x > big.right && moves.y < 200,
      `dragged out it grows (${Math.round(big.w)} px) but stays inside the window, the moves still beside it`);
    check(page.errors.length === 0, `no script errors ${page.errors.join('; ')}`);
    await context.close();
  },

  // A 390x844 phone: on the analysis board with analysis on, the board,
  // its buttons, the engine line (a strip under them) and the move list
  // are all on screen, none over another, the page unscrolled; in a game
  // against Kestrel the board, both clocks and the moves; with "More"
  // open, no panel covers another.
  async phone(browser) {
    const view = { width: 390, height: 844 };
    const { context, page } = await openAt(browser, url, { viewport: view, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const boxes = (sels) => page.evaluate((sels) => sels.map((sel) => {
      const el = document.querySelector(sel);
      const r = el.getBoundingClientRect();
      return { sel, x: r.x, y: r.y, w: r.width, h: r.height, shown: r.width > 0 && r.height > 0 };
    }), sels);
    const inside = (b) => b.shown && b.x >= 0 && b.y >= 0 && b.x + b.w <= view.width + 0.5 && b.y + b.h <= view.height + 0.5;
    const overlap = (a, b) => Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x) > 0.5 && Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y) > 0.5;
    const overlaps = (bs) => bs.flatMap((a, i) => bs.slice(i + 1).filter((b) => a.shown && b.shown && overlap(a, b)).map((b) => `${a.sel}/${b.sel}`));
    const text = (bs) => bs.map((b) => `${b.sel} ${Math.round(b.y)}+${Math.round(b.h)}`).join(', ');
    await page.evaluate((pgn) => { document.getElementById('pgn').value = pgn; }, KASPAROV);
    await page.tap('#morebtn');
    await page.tap('#loadpgn');
    await waitPlies(page, 87);
    await page.tap('#morebtn');
    await page.tap('#moves .mv[data-ply="47"]');
    await page.tap('#analyse');
    await page.waitForSelector('#lines .line');
    const analysis = await boxes(['#board', '#nav', '#lines .line', '#moves-panel']);
    check(analysis.every(inside) && overlaps(analysis).length === 0 && await page.evaluate(() => scrollY === 0),
      `analysis at 390x844: board, buttons, the engine line and the moves on screen, none over another (${text(analysis)})`);
    await page.tap('#morebtn');
    const panels = await boxes(['#board-wrap', '#nav', '#analysis-panel', '#moves-panel', '#review', '#players', '#book-panel', '#io-panel', '#look-panel']);
    check(overlaps(panels).length === 0, `with More open no panel covers another (${overlaps(panels).join(' ') || 'none'})`);
    await page.tap('#morebtn');
    await page.tap('#analyse');
    await startMatch(page, '5+3', true);
    await move(page, 'e2', 'e4');
    await waitPlies(page, 2);
    const play = await boxes(['#clock-top', '#board', '#clock-bottom', '#nav', '#moves-panel']);
    check(play.every(inside) && overlaps(play).length === 0 && await page.evaluate(() => scrollY === 0),
      `a game against Kestrel at 390x844: both clocks, the board, its buttons and the moves on screen, none over another (${text(play)})`);
    check(page.errors.length === 0, `no script errors ${page.errors.join('; ')}`);
    await context.close();
  },

  // At 1366x768 the board, the move list and the first engine line are
  // on screen together on the analysis board, and the board, both clocks
  // and the move list in a game against the computer, without scrolling.
  async layout(browser) {
    const { context, page } = await open(browser);
    // One evaluation finds and measures the element: `$eval` queries and
    // evaluates in two steps, and the engine lines are rebuilt on every
    // `info`, so a line found a moment before could be measured detached.
    const inView = (sel) => page.evaluate((sel) => {
      const el = document.querySelector(sel);
      const r = el.getBoundingClientRect();
      return { sel: el.id || el.className, top: Math.round(r.top), bottom: Math.round(r.bottom), right: Math.round(r.right),
        ok: r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth };
    }, sel);
    await loadPgn(page, KASPAROV);
    await waitPlies(page, 87);
    await page.click('#moves .mv[data-ply="40"]');
    await page.check('#analyse');
    await page.waitForSelector('#lines .line');
    const analysis = [await inView('#board'), await inView('#moves'), await inView('#lines .line')];
    check(analysis.every((b) => b.ok), `analysis board at 1366x768: board, moves and first line in view (${JSON.stringify(analysis)})`);
    await page.uncheck('#analyse');
    await startMatch(page, '3+2', false);
    await move(page, 'e2', 'e4');
    await waitPlies(page, 2);
    const play = [await inView('#board'), await inView('#clock-top'), await inView('#clock-bottom'), await inView('#moves')];
    check(play.every((b) => b.ok), `game against the computer at 1366x768: board, both clocks and moves in view (${JSON.stringify(play)})`);
    check(await page.evaluate(() => scrollY === 0), 'and the page is not scrolled');
    await context.close();
  },

  // The server owns staleness (item 8): the page keeps no search numbers
  // and draws what the stream sends. Stepping through a game with analysis
  // on, nothing of a superseded search comes after the next one's
  // `started`, and no line of a stopped one after its `stopped`; turning
  // analysis off while an engine player thinks stops only the analysis,
  // and the engine's move still comes (it was lost before).
  async staleness(browser) {
    const { context, page } = await open(browser);
    const counters = ['engineSearch', 'analysisSearch', 'latestSearch', 'seenSearch', 'searchFloor', 'linesFloor'];
    check(await page.evaluate((names) => names.every((k) => !(k in S)), counters), 'the page keeps no search counters');
    await loadPgn(page, KASPAROV);
    await waitPlies(page, 87);
    // The loaded game is a game of its own, with its own event stream.
    await page.evaluate(() => {
      window.seen = [];
      S.events.addEventListener('message', (ev) => window.seen.push(JSON.parse(ev.data)));
    });
    await page.check('#analyse');
    for (const ply of [10, 11, 12, 13, 14, 15]) {
      await page.click(`#moves .mv[data-ply="${ply}"]`);
      await page.waitForTimeout(120);
    }
    await page.waitForFunction(() => document.getElementById('lines').dataset.fen === document.getElementById('fen').value &&
      document.querySelectorAll('#lines .line').length >= 1, null, { timeout: 20000 });
    await page.uncheck('#analyse');
    await page.waitForFunction(() => document.getElementById('stats').textContent.includes('nodes'), null, { timeout: 20000 });
    const seen = await page.evaluate(() => window.seen);
    const superseded = new Set();
    const stopped = new Set();
    const late = [];
    let latest = 0;
    for (const e of seen) {
      if (e.type === 'started') { if (latest) superseded.add(latest); latest = e.search; continue; }
      if (e.type === 'stopped') { stopped.add(e.search); continue; }
      if (typeof e.search !== 'number') continue;
      if (superseded.has(e.search) || (e.type === 'info' && stopped.has(e.search))) late.push(`${e.type} of ${e.search}`);
    }
    const started = seen.filter((e) => e.type === 'started').length;
    check(started >= 6 && late.length === 0,
      `${started} searches started, ${seen.length} events: none of a superseded search after the next started, no line after stopped (${late.join(', ')})`);
    check(await page.$$eval('#lines .line', (els) => els.length) === 0, 'analysis off: its lines are gone');

    // Black is Kestrel, 3 s a move without the book; analysis goes off while it thinks.
    await page.click('#newgame');
    await page.waitForFunction(() => S.game.plies.length === 0);
    await page.selectOption('#side-b [data-k="player"]', 'engine');
    await page.fill('#side-b [data-k="amount"]', '3');
    await page.setChecked('#side-b [data-k="book"]', false);
    await page.check('#analyse');
    await move(page, 'e2', 'e4');
    await page.waitForFunction(() => document.getElementById('thinking').textContent.includes('Black is thinking'), null, { timeout: 10000 });
    await page.waitForSelector('#lines .line', { timeout: 10000 });
    check(true, "the engine player's lines show while it thinks");
    await page.uncheck('#analyse');
    await waitPlies(page, 2);
    check(await page.textContent('#thinking') === '', "analysis off while Kestrel thinks: its move still comes");
    await context.close();
  },
};

runScenarios({
  scenarios: SCENARIOS, only, file: __filename, done: 'fixes done',
}).catch((e) => { console.error(e); process.exit(1); });
