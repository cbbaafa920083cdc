// What a player met in `kestrel gui` and the static site (issue 63), one
// scenario per item of the issue, each in a fresh page; every scenario
// failed on the page before its fix (docs/gui.md, "Tests", says how that
// was checked). The terminal game's item (11) is tests/play_terminal.rs's.
// Usage: node issue63.js URL [SCENARIO...]. Prints `ok:`/`FAILED:` and
// exits non-zero when one failed. Run by tests/gui_browser.rs; with
// KESTREL_LAYOUT_TABLE=FILE the layout scenario writes its table there.
'use strict';

const fs = require('fs');
const {
  runScenarios, probe, open: openAt, check, waitPlies, move, moveWhenOffered, startMatchGame, clickSquare,
} = require('./browser');

const url = process.argv[2];
const only = process.argv.slice(3);
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
const DESKTOP = { viewport: { width: 1366, height: 768 } };

const open = (browser, options = DESKTOP, at = url) => openAt(browser, at, options);

// A request to the page's backend (the server, or the static site's
// Worker), as the page itself sends it: { ok, status, data }.
const request = (page, method, path, body) => page.evaluate(
  ([m, p, b]) => backend.request(m, p, b), [method, path, body]);

const status = (page) => page.textContent('#status');
const gameId = (page) => page.evaluate(() => S.game.id);
const urlGame = (page) => page.evaluate(() => new URLSearchParams(location.search).get('game'));

// A game against the computer as White at its lowest level on `time`
// ('' for no clock), the evaluation hidden or not.
async function startMatch(page, time, hide = true) {
  await page.click('#vsengine');
  await page.waitForSelector('#match-dialog[open]');
  await page.check('#match-dialog input[name="colour"][value="w"]');
  const level = await page.$eval('#match-level', (el) => el.options[el.options.length > 1 ? 1 : 0].value);
  await page.selectOption('#match-level', level);
  await page.selectOption('#match-time', time);
  await page.setChecked('#match-hide', hide);
  await startMatchGame(page);
}

// Your move, then Kestrel's reply on the board.
async function playAndWait(page, from, to) {
  const n = await page.evaluate(() => S.game.plies.length);
  await moveWhenOffered(page, from, to);
  await waitPlies(page, n + 2);
}

async function resignAndClose(page) {
  await page.click('#resign');
  await page.click('#confirm-yes');
  await page.waitForSelector('#over-dialog[open]');
  await page.click('#over-close');
}

// A game made through the backend: a game against the engine after
// `moves` (both sides' moves sent by the test), shown in the page.
async function gameThrough(page, moves) {
  const id = await page.evaluate(async (moves) => {
    const call = async (m, p, b) => (await backend.request(m, p, b)).data;
    const g = await call('POST', '/api/game', {});
    await call('POST', '/api/position', { game: g.id, vs_engine: true });
    for (const mv of moves) await call('POST', '/api/move', { game: g.id, move: mv });
    return g.id;
  }, moves);
  await page.goto(`${new URL(url).origin}/analysis?game=${id}`);
  await page.waitForSelector('body[data-ready="1"]');
  return id;
}

// The main line's moves and the header: what a finished game keeps.
const record = (page) => page.evaluate(() => ({
  sans: S.game.plies.map((p) => p.san).join(' '), status: document.getElementById('status').textContent,
}));

const SCENARIOS = {
  // 1. A finished game is final: Undo after a resignation does not revive
  // it, and after a mate a side line and Undo change nothing.
  async final(browser) {
    const { context, page } = await open(browser);
    await startMatch(page, '1+0');
    await playAndWait(page, 'e2', 'e4');
    await playAndWait(page, 'g1', 'f3');
    await resignAndClose(page);
    const resigned = await record(page);
    check(resigned.status.startsWith('0-1'), `resigned: ${resigned.status}`);
    if (await page.isVisible('#undo')) await page.click('#undo');
    const undo = await request(page, 'POST', '/api/undo', { game: await gameId(page), plies: 2 });
    check(undo.status === 409 && /stand as played/.test(undo.data.error), `Undo is refused with a message: ${undo.status} ${undo.data.error}`);
    await page.waitForFunction(() => S.game.status.final === true, null, { timeout: 5000 });
    check(JSON.stringify(await record(page)) === JSON.stringify(resigned), `the game stays resigned (${JSON.stringify(await record(page))})`);
    check(await page.evaluate(() => S.players.w === 'human' && S.players.b === 'human' && !S.clock.running),
      'no clock runs and Kestrel is not asked to move');
    await page.reload();
    await page.waitForSelector('body[data-ready="1"]');
    check(JSON.stringify(await record(page)) === JSON.stringify(resigned), 'and so after a reload');

    // After a mate: back a move, a side line, to its end, Undo.
    await gameThrough(page, ['f3', 'e5', 'g4', 'Qh4#']);
    const mated = await record(page);
    check(mated.status.startsWith('0-1 — Black mates'), `mated: ${mated.status}`);
    await page.click('#back');
    await page.waitForFunction(() => S.game.current === S.game.plies[2].node);
    await moveWhenOffered(page, 'd8', 'f6');
    await page.waitForFunction(() => S.game.nodes.length === 6);
    await page.click('#last');
    if (await page.isVisible('#undo')) await page.click('#undo');
    const undone = await request(page, 'POST', '/api/undo', { game: await gameId(page) });
    check(undone.status === 409, `Undo at the side line's end is refused (${undone.status})`);
    await page.click('#first');
    await page.waitForFunction(() => S.game.current === 0);
    for (const path of ['/api/delete', '/api/promote']) {
      const side = await page.evaluate(() => S.game.nodes.find((n) => !n.main).id);
      const body = path === '/api/delete' ? { node: await page.evaluate(() => S.game.plies[3].node) } : { node: side, main: true };
      const r = await request(page, 'POST', path, { game: await gameId(page), ...body });
      check(r.status === 409, `${path} on the finished game is refused (${r.status}: ${r.data.error})`);
    }
    await page.reload();
    await page.waitForSelector('body[data-ready="1"]');
    const after = await record(page);
    check(after.sans === mated.sans && after.status === mated.status, `the mate and its result stand after a reload (${JSON.stringify(after)})`);
    check(page.errors.length === 0, `no script errors ${page.errors.join('; ')}`);
    await context.close();
  },

  // 2. A reload restores exactly what was on screen, on either host (the
  // static site's Worker loses its games with the page: the browser's
  // copy gives them back): a game against Kestrel on a clock reloaded the
  // moment a move is made goes on under its own id, its players and clocks
  // as they were; after the end, a side line and the move on view in it
  // come back with the result, final.
  async reload(browser) {
    const { context, page } = await open(browser, DESKTOP, `${new URL(url).origin}/play`);
    await page.waitForSelector('#match-dialog[open]');
    await page.check('#match-dialog input[name="colour"][value="w"]');
    await page.selectOption('#match-level', await page.$eval('#match-level', (el) => el.options[el.options.length > 1 ? 1 : 0].value));
    await page.selectOption('#match-time', '5+3');
    await startMatchGame(page);
    await playAndWait(page, 'e2', 'e4');
    const id = await gameId(page);
    await moveWhenOffered(page, 'g1', 'f3');
    await page.waitForFunction(() => S.game.plies.length >= 3);
    const sans = await page.evaluate(() => S.game.plies.slice(0, 3).map((p) => p.san).join(' '));
    await page.reload();
    await page.waitForSelector('body[data-ready="1"]');
    const back = await page.evaluate(() => S.game && {
      id: S.game.id, sans: S.game.plies.slice(0, 3).map((p) => p.san).join(' '), players: `${S.players.w}/${S.players.b}`,
      clock: !!S.clock, match: !!S.match, over: S.game.status.over, url: new URLSearchParams(location.search).get('game'),
    });
    check(back && back.id === id && back.url === id && back.sans === sans,
      `reloaded the moment 2. Nf3 was made: the same game ${id} (${JSON.stringify(back)})`);
    check(back.players === 'human/engine' && back.clock && back.match && !back.over, 'still against Kestrel, on the clock');
    await waitPlies(page, 4);
    await resignAndClose(page);
    // A side line from 1... (a finished game is studied in variations), viewed.
    await page.click('#first');
    await page.click('#forward');
    await page.waitForFunction(() => S.game.current === S.game.plies[0].node);
    await moveWhenOffered(page, 'd7', 'd5');
    await page.waitForFunction(() => S.game.nodes.some((n) => !n.main));
    const shown = () => page.evaluate(() => ({
      sans: S.game.plies.map((p) => p.san).join(' '), status: document.getElementById('status').textContent,
      final: S.game.status.final, nodes: S.game.nodes.length, onView: pathTo(S.game.current).join('.'), id: S.game.id,
    }));
    const before = await shown();
    check(before.final && before.onView === '0.1', `resigned, a side line on view: ${JSON.stringify(before)}`);
    await page.reload();
    await page.waitForSelector('body[data-ready="1"]');
    const after = await page.evaluate(() => S.game !== null).then((has) => (has ? shown() : null));
    check(JSON.stringify(after) === JSON.stringify(before), `and so after a reload (${JSON.stringify(after)})`);
    check(page.errors.length === 0, `no script errors ${page.errors.join('; ')}`);
    await context.close();
  },

  // 2. New game does not throw a running game away in one click, and a
  // new game has its own id (Back returns to the one before).
  async newgame(browser) {
    const { context, page } = await open(browser);
    await startMatch(page, '');
    await playAndWait(page, 'e2', 'e4');
    const first = await gameId(page);
    // On the play page New game is a new game against Kestrel: its dialog,
    // then the question before the running game is left.
    const newGame = async () => {
      await page.click('#newgame');
      await page.waitForSelector('#match-dialog[open]', { timeout: 3000 }).catch(() => {});
      if (await page.evaluate(() => document.getElementById('match-dialog').open)) await page.click('#match-start');
      await page.waitForSelector('#confirm:not(.hidden)', { timeout: 3000 }).catch(() => {});
    };
    await newGame();
    check(await page.isVisible('#confirm'), `New game asks first: ${await page.textContent('#confirm-text')}`);
    await page.click('#confirm-no');
    check(await gameId(page) === first && await page.evaluate(() => !S.game.status.over && S.game.plies.length === 2),
      'No: the game goes on, untouched');
    await newGame();
    await page.click('#confirm-yes');
    await page.waitForFunction((first) => S.game.id !== first, first);
    const second = await gameId(page);
    check(second !== first && await urlGame(page) === second, `Yes: a new game with its own id (${first} -> ${second})`);
    const old = await request(page, 'GET', `/api/state?game=${first}`);
    check(old.data.status.result === '0-1' && old.data.plies.length === 2, `the game left is kept, resigned (${old.data.status.reason})`);
    await page.goBack();
    await page.waitForFunction((first) => S.game && S.game.id === first, first);
    check(await page.evaluate(() => S.game.plies.length) === 2, 'Back returns to it');
    // A study with moves made here is asked about too.
    await page.goto(`${new URL(url).origin}/analysis`);
    await page.waitForSelector('body[data-ready="1"]');
    const study = await gameId(page);
    await moveWhenOffered(page, 'd2', 'd4');
    await page.waitForFunction(() => S.game.plies.length === 1);
    await page.fill('#fen', '4k3/8/8/8/8/8/4P3/4K3 w - - 0 1');
    await page.press('#fen', 'Enter');
    check(await page.isVisible('#confirm'), 'a FEN loaded over moves made here asks first');
    await page.click('#confirm-yes');
    await page.waitForFunction(() => S.game.start_fen.startsWith('4k3'));
    check(await gameId(page) !== study, 'and makes a game of its own');
    await context.close();
  },

  // 3. The arrow keys, Home, End and f work after a click on a checkbox or
  // a select (no text field has the focus).
  async keys(browser) {
    const { context, page } = await open(browser);
    await page.fill('#pgn', '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *');
    await page.click('#loadpgn');
    await waitPlies(page, 6);
    const ply = () => page.evaluate(() => S.ply);
    await page.click('#sound'); // a checkbox, with the mouse
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => S.ply === 5, null, { timeout: 3000 }).catch(() => {});
    check(await ply() === 5, `← after a click on a checkbox steps back (ply ${await ply()})`);
    await page.click('#side-w [data-k="player"]'); // a select
    await page.keyboard.press('Escape');
    await page.keyboard.press('Home');
    await page.waitForFunction(() => S.ply === 0, null, { timeout: 3000 }).catch(() => {});
    check(await ply() === 0 && await page.inputValue('#side-w [data-k="player"]') === 'human',
      `Home after a click on a select goes to the start and leaves the select alone (ply ${await ply()})`);
    await page.keyboard.press('End');
    await page.waitForFunction(() => S.ply === 6, null, { timeout: 3000 }).catch(() => {});
    await page.keyboard.press('ArrowUp');
    await page.waitForFunction(() => S.ply === 0, null, { timeout: 3000 }).catch(() => {});
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(() => S.ply === 6, null, { timeout: 3000 }).catch(() => {});
    check(await ply() === 6, 'End, ↑ and ↓ too');
    await page.keyboard.press('f');
    check(await page.evaluate(() => S.flipped), 'f flips');
    await page.click('#fen');
    await page.keyboard.press('ArrowLeft');
    check(await ply() === 6, 'while the FEN box has the focus the keys are its');
    await context.close();
  },

  // 6. The header says the game's state (whose move in the game, not in
  // the position on view), and a draw answer shows in the message area,
  // in view under the board.
  async header(browser) {
    const { context, page } = await open(browser);
    await startMatch(page, '5+3');
    await playAndWait(page, 'e2', 'e4');
    await page.click('#back');
    await page.waitForFunction(() => S.game.current === S.game.plies[0].node);
    const text = await status(page);
    check(/^White to move/.test(text), `looking back at Black's move, the header says the game's: ${text}`);
    await page.click('#last');
    await page.click('#offerdraw');
    await page.click('#confirm-yes');
    await page.waitForFunction(() => /declines|accepts|draw/i.test(document.getElementById('message').textContent), null, { timeout: 15000 });
    const box = await page.$eval('#message', (el) => { const r = el.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, h: innerHeight }; });
    check(box.top >= 0 && box.bottom <= box.h, `the answer "${await page.textContent('#message')}" is on screen (${JSON.stringify(box)})`);
    check(/^White to move/.test(await status(page)), 'and the header still says the game\'s state');
    await context.close();
  },

  // 7. No stale panel after "Analyse this game": the book and explorer
  // show, the PGN box does not hold the game loaded before.
  async stale(browser) {
    const { context, page } = await open(browser);
    const before = '[Event "Before"]\n\n1. d4 d5 2. c4 *';
    await page.fill('#pgn', before);
    await page.click('#loadpgn');
    await waitPlies(page, 3);
    await startMatch(page, '', true);
    await playAndWait(page, 'e2', 'e4');
    await page.click('#resign');
    await page.click('#confirm-yes');
    await page.waitForSelector('#over-dialog[open]');
    await page.click('#over-analyse');
    await page.waitForFunction(() => location.pathname === '/analysis');
    await page.waitForFunction(() => document.querySelector('#book table, #book span') && !/Hidden/.test(document.getElementById('book').textContent), null, { timeout: 10000 }).catch(() => {});
    const book = await page.textContent('#book');
    check(!/Hidden while you play/.test(book), `the book shows once the game is over (${book.slice(0, 60)})`);
    const pgn = await page.inputValue('#pgn');
    check(!pgn.includes('Before'), `the PGN box does not hold the game before (${JSON.stringify(pgn.slice(0, 40))})`);
    await context.close();
  },

  // 4. The editor: a piece dragged on the board moves (the palette's
  // piece used to land instead and the dragged king vanish), and so does
  // one clicked then put down; a piece dragged off goes, a spare piece
  // dragged on comes; the FEN box follows every edit and takes a pasted
  // FEN; one "Analyse" and one "Play from here", which starts a game
  // against Kestrel from the edited position.
  async editor(browser) {
    const { context, page } = await open(browser, DESKTOP, `${new URL(url).origin}/editor`);
    await page.waitForSelector('#editor:not(.hidden)');
    const on = (sq) => probe(page, (sq) => cgProbe.piece(sq), sq);
    const fenBox = () => page.inputValue('#edit-fen');
    const drag = async (from, to) => {
      const a = await page.evaluate((sq) => cgProbe.centre(sq), from);
      const b = typeof to === 'string' ? await page.evaluate((sq) => cgProbe.centre(sq), to) : to;
      await page.mouse.move(a.x, a.y);
      await page.mouse.down();
      await page.mouse.move(b.x, b.y, { steps: 6 });
      await page.mouse.up();
    };
    await drag('e1', 'e3');
    check(await on('e3') === 'K' && await on('e1') === '', `a dragged king moves: e3 ${await on('e3')}, e1 "${await on('e1')}"`);
    check((await fenBox()).startsWith('rnbqkbnr/pppppppp/8/8/8/4K3/PPPPPPPP/RNBQ1BNR'), `the FEN box follows: ${await fenBox()}`);
    await clickSquare(page, 'e3');
    await clickSquare(page, 'e5');
    check(await on('e5') === 'K' && await on('e3') === '', 'a king clicked, then a square clicked, moves too');
    const box = await page.evaluate(() => document.querySelector('#board cg-board').getBoundingClientRect().toJSON());
    await drag('a2', { x: box.right + 60, y: box.top + box.height / 2 });
    check(await on('a2') === '', 'a piece dragged off the board goes');
    const spare = await page.$eval('#palette [data-piece="Q"]', (el) => { const r = el.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; });
    const d4 = await page.evaluate(() => cgProbe.centre('d4'));
    await page.mouse.move(spare.x, spare.y);
    await page.mouse.down();
    await page.mouse.move(d4.x, d4.y, { steps: 6 });
    await page.mouse.up();
    check(await on('d4') === 'Q', `a spare queen dragged on lands on d4 (${await on('d4')})`);
    await page.click('#palette [data-piece="n"]');
    await clickSquare(page, 'h5');
    check(await on('h5') === 'n', 'a spare knight picked, then clicked onto h5');
    await page.click('#palette [data-piece="x"]');
    await clickSquare(page, 'h5');
    check(await on('h5') === '', 'and taken off with ✕');
    check((await fenBox()) === 'rnbqkbnr/pppppppp/8/4K3/3Q4/8/1PPPPPPP/RNBQ1BNR w kq - 0 1',
      `the FEN box has every edit, White's castling gone with its king: ${await fenBox()}`);
    await page.fill('#edit-fen', '8/8/8/4k3/8/8/3P4/4K2R w K - 0 1');
    await page.press('#edit-fen', 'Enter');
    check(await on('h1') === 'R' && await on('e5') === 'k' && await on('d4') === '', 'a pasted FEN sets the board up');
    await page.selectOption('#edit-turn', 'b');
    check((await fenBox()) === '8/8/8/4k3/8/8/3P4/4K2R b K - 0 1', `side to move and castling in the FEN box: ${await fenBox()}`);
    const named = await page.evaluate(() => [...document.querySelectorAll('button')].filter((b) => b.getClientRects().length)
      .map((b) => b.textContent.trim()).filter((t) => /^(Play from here|Analyse)$/.test(t)));
    check(named.sort().join(',') === 'Analyse,Play from here', `one Analyse and one Play from here (${named})`);
    await page.click('#edit-play');
    await page.waitForSelector('#match-dialog[open]');
    check((await page.textContent('#match-from-fen')).startsWith('8/8/8/4k3/8/8/3P4/4K2R b K'), 'Play from here: the dialog, from the edited position');
    await page.check('#match-dialog input[name="colour"][value="b"]');
    await page.selectOption('#match-time', '');
    await startMatchGame(page);
    check(await page.evaluate(() => S.game.start_fen.startsWith('8/8/8/4k3/8/8/3P4/4K2R b K') && location.pathname === '/play' && !S.edit),
      'a game against Kestrel from it');
    check(page.errors.length === 0, `no script errors ${page.errors.join('; ')}`);
    await context.close();
  },

  // 5. The play screen as lichess's on a phone: every control at least
  // 44x44 CSS px, none off screen, no page scroll, the annotation tools
  // hidden while the game runs and the move on view kept in view; the same
  // at 1366x768 (no size bound there), during a game and after it.
  async layout(browser) {
    const table = [];
    for (const [name, options] of [['390x844', PHONE], ['1366x768', DESKTOP]]) {
      const { context, page } = await open(browser, options);
      const phone = name === '390x844';
      const click = (sel) => (phone ? page.tap(sel) : page.click(sel));
      // The header's Play link: on the phone it stands for the board's
      // "Play the computer" button, which folds away there.
      await click('#pages a[data-page="play"]');
      await page.waitForSelector('#match-dialog[open]');
      await page.check('#match-dialog input[name="colour"][value="w"]');
      await page.selectOption('#match-level', await page.$eval('#match-level', (el) => el.options[el.options.length > 1 ? 1 : 0].value));
      await page.selectOption('#match-time', '5+3');
      await startMatchGame(page);
      for (const [from, to] of [['e2', 'e4'], ['g1', 'f3'], ['f1', 'c4'], ['d2', 'd3'], ['b1', 'c3'], ['c1', 'e3']]) {
        await playAndWait(page, from, to);
      }
      for (const when of ['during the game', 'after it']) {
        if (when === 'after it') {
          await click('#resign');
          await click('#confirm-yes');
          await page.waitForSelector('#over-dialog[open]');
          await click('#over-close');
        }
        const boxes = await page.evaluate(() => {
          const seen = new Set();
          const out = [];
          for (const el of document.querySelectorAll('button, a[href], select, input, textarea, summary, [role="button"]')) {
            // A box inside a label is tapped through its label.
            const target = el.closest('label') || el;
            if (seen.has(target) || !target.getClientRects().length || getComputedStyle(target).visibility === 'hidden') continue;
            if (el.closest('dialog:not([open])')) continue;
            seen.add(target);
            const r = target.getBoundingClientRect();
            const label = (target.id ? `#${target.id}` : target.tagName.toLowerCase()) + ` "${(target.textContent || el.value || '').trim().slice(0, 18)}"`;
            out.push({ label, w: Math.round(r.width), h: Math.round(r.height),
              on: r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5 });
          }
          return { out, scroll: document.documentElement.scrollHeight - innerHeight, scrollX: document.documentElement.scrollWidth - innerWidth };
        });
        for (const b of boxes.out) table.push(`| ${name} | ${when} | ${b.label} | ${b.w}×${b.h} | ${b.on ? 'yes' : 'NO'} |`);
        const small = boxes.out.filter((b) => phone && (b.w < 44 || b.h < 44)).map((b) => `${b.label} ${b.w}x${b.h}`);
        const off = boxes.out.filter((b) => !b.on).map((b) => b.label);
        check(small.length === 0, `${name} ${when}: ${boxes.out.length} controls, none under 44 px on the phone [${small.join('; ')}]`);
        check(off.length === 0, `${name} ${when}: none off screen [${off.join('; ')}]`);
        check(boxes.scroll <= 0 && boxes.scrollX <= 0, `${name} ${when}: no page scroll (${boxes.scroll}, ${boxes.scrollX} px)`);
        const tools = await page.evaluate(() => ['#annotate', '#tree-tools'].filter((sel) => document.querySelector(sel).getClientRects().length));
        check(tools.length === 0, `${name} ${when}: no annotation tools on the play screen [${tools}]`);
        const cur = await page.evaluate(() => {
          const m = document.querySelector('#moves .mv.cur'), list = document.getElementById('moves');
          if (!m) return 'none';
          const a = m.getBoundingClientRect(), b = list.getBoundingClientRect();
          return a.top >= b.top - 1 && a.bottom <= b.bottom + 1 && a.bottom <= innerHeight;
        });
        check(cur === true, `${name} ${when}: the move on view is in view (${cur})`);
        if (process.env.KESTREL_GUI_SHOTS) {
          await page.screenshot({ path: `${process.env.KESTREL_GUI_SHOTS}/gui-play-${phone ? 'phone' : 'desktop'}-${when === 'after it' ? 'over' : 'game'}.png` });
        }
      }
      await context.close();
    }
    if (process.env.KESTREL_LAYOUT_TABLE) {
      fs.writeFileSync(process.env.KESTREL_LAYOUT_TABLE,
        ['| viewport | when | element | size (CSS px) | on screen |', '|---|---|---|---|---|', ...table].join('\n') + '\n');
    }
  },

  // 8. The best line is the search's whole principal variation: every
  // line 1 the analysis sends from depth 10 on is at least depth/2 plies
  // long, the reports of a window failing high or low (after 3 s)
  // included; before, those showed one move ("24... Kb6").
  async pv(browser) {
    const { context, page } = await open(browser);
    await page.fill('#fen', 'b2r3r/k4p1p/p2q1np1/NppP4/3R1Q2/P4PPB/1PP4P/1K2R3 b - - 0 24');
    await page.press('#fen', 'Enter');
    await page.waitForFunction(() => S.game.start_fen.startsWith('b2r3r'));
    await page.evaluate(() => {
      window.firstLines = [];
      S.events.addEventListener('message', (ev) => {
        const e = JSON.parse(ev.data);
        if (e.type === 'info' && e.multipv === 1) window.firstLines.push({ depth: e.depth, plies: e.pv.length, bound: e.bound || 'exact', san: e.pv.map((m) => m.san).join(' ') });
      });
    });
    await page.check('#analyse');
    await page.waitForFunction(() => window.firstLines.some((l) => l.depth >= 18), null, { timeout: 120000 });
    await page.uncheck('#analyse');
    const lines = await page.evaluate(() => window.firstLines.filter((l) => l.depth >= 10));
    const short = lines.filter((l) => l.plies < Math.floor(l.depth / 2));
    check(short.length === 0, `${lines.length} reports of line 1 from depth 10 to 18, each at least depth/2 plies `
      + `(${lines.filter((l) => l.bound !== 'exact').length} of them bounds) [${short.map((l) => `d${l.depth} ${l.bound}: ${l.san}`).join('; ')}]`);
    await context.close();
  },

  // 9. The tablebase panel answers a 4-piece ending with no set-up (no
  // --syzygy-path): every legal move with its value and DTZ, win first
  // and the shortest win first, draws, then losses; a click plays one.
  async tablebase(browser) {
    const { context, page } = await open(browser);
    for (const fen of ['8/8/8/3k4/3p4/8/3P4/3K4 w - - 0 1', '8/8/8/8/8/1k6/1p6/1K2R3 w - - 0 1']) {
      await page.fill('#fen', fen);
      await page.press('#fen', 'Enter');
      await page.waitForFunction((fen) => S.game.start_fen === fen, fen);
      await page.waitForFunction((fen) => document.getElementById('tb').dataset.fen === fen, fen, { timeout: 10000 }).catch(() => {});
      const shown = await page.evaluate(() => ({
        legal: S.game.legal.length,
        rows: [...document.querySelectorAll('#tb tr.tbm')].map((tr) => ({ san: tr.cells[0].textContent, cat: tr.className.split(' ')[1], note: tr.cells[2].textContent })),
        head: (document.querySelector('#tb h3') || {}).textContent || '',
      }));
      const rank = { win: 4, 'cursed-win': 3, draw: 2, 'blessed-loss': 1, loss: 0 };
      const dtz = (r) => Number((/DTZ (\d+)/.exec(r.note) || [0, 0])[1]);
      const sorted = shown.rows.every((r, i) => i === 0 || rank[shown.rows[i - 1].cat] > rank[r.cat]
        || (rank[shown.rows[i - 1].cat] === rank[r.cat] && (r.cat !== 'win' || dtz(shown.rows[i - 1]) <= dtz(r))));
      check(shown.rows.length === shown.legal && shown.legal > 0 && sorted,
        `${fen}: ${shown.head.trim()}; every legal move (${shown.rows.length}/${shown.legal}), sorted: ${shown.rows.slice(0, 4).map((r) => `${r.san} ${r.cat} ${r.note}`).join(', ')}`);
    }
    const first = await page.$eval('#tb tr.tbm', (tr) => tr.cells[0].textContent);
    await page.click('#tb tr.tbm');
    await page.waitForFunction(() => S.game.plies.length === 1);
    check(await page.evaluate(() => S.game.plies[0].san) === first, `a click on ${first} plays it`);
    if (process.env.KESTREL_GUI_SHOTS) {
      await page.click('#back');
      await page.waitForFunction(() => S.game.current === 0 && document.getElementById('tb').dataset.fen === S.game.fen);
      await page.$eval('#book-panel', (el) => el.scrollIntoView());
      await page.locator('#book-panel').screenshot({ path: `${process.env.KESTREL_GUI_SHOTS}/gui-tablebase.png` });
    }
    await context.close();
  },

  // 10. The explorer filters the master games by rating and years, as
  // lichess's does: fewer games within the filters, none past them, the
  // filters kept over a reload; positions are indexed to ply 60.
  async explorer(browser) {
    const { context, page } = await open(browser);
    await move(page, 'e2', 'e4');
    await page.waitForFunction(() => S.game.plies.length === 1);
    const total = () => page.$$eval('#explorer tr.xm td.num:nth-child(3)', (tds) => tds.reduce((n, td) => n + Number(td.textContent.replace(/,/g, '')), 0));
    await page.waitForSelector('#explorer tr.xm');
    const all = await total();
    await page.selectOption('#x-rating', '2600');
    await page.waitForFunction(() => /within the filters/.test(document.getElementById('explorer').textContent));
    const rated = await total();
    // The top games at 2600+ may all be from 2000 on already: wait for the
    // count, which the year filter changes, not for the years alone.
    const header = () => page.$eval('#explorer .small', (d) => d.textContent);
    const before = await header();
    await page.fill('#x-since', '2000');
    await page.press('#x-since', 'Tab');
    await page.waitForFunction((was) => {
      const now = document.querySelector('#explorer .small');
      const v = [...document.querySelectorAll('#explorer tr.xg td.num:nth-child(3)')].map((td) => Number(td.textContent));
      return now && now.textContent !== was && v.length > 0 && v.every((y) => y >= 2000);
    }, before);
    const recent = await total();
    check(all > rated && rated > recent && recent > 0, `1. e4: ${all} master games, ${rated} at 2600+, ${recent} at 2600+ since 2000`);
    const ratings = await page.$$eval('#explorer tr.xg td:first-child', (tds) => tds.map((td) => [...td.querySelectorAll('.small')].map((s) => Number(s.textContent))));
    check(ratings.every((r) => r.length === 2 && (r[0] + r[1]) / 2 >= 2600), `the top games are rated 2600+ on average: ${JSON.stringify(ratings.slice(0, 3))}`);
    if (process.env.KESTREL_GUI_SHOTS) {
      await page.locator('#book-panel').screenshot({ path: `${process.env.KESTREL_GUI_SHOTS}/gui-explorer-filtered.png` });
    }
    await page.fill('#x-since', '2090');
    await page.press('#x-since', 'Tab');
    await page.waitForFunction(() => /No master game within the filters/.test(document.getElementById('explorer').textContent));
    await page.fill('#x-since', '2000');
    await page.press('#x-since', 'Tab');
    await page.reload();
    await page.waitForSelector('body[data-ready="1"]');
    const kept = await page.evaluate(() => [document.getElementById('x-rating').value, document.getElementById('x-since').value]);
    check(kept[0] === '2600' && kept[1] === '2000', `the filters are kept over a reload: ${kept}`);
    await context.close();
  },

  // 9. SyzygyPath set in the page (the engine settings, on `kestrel gui`)
  // feeds the tablebase panel too, not only --syzygy-path: directories
  // without tables are refused with the reason, the test folder's tables
  // taken, the panel answers from them, and the path stays over a reload.
  async syzygy(browser) {
    const { context, page } = await open(browser);
    const tables = require('path').join(__dirname, '..', 'data', 'syzygy');
    await page.click('#engine-gear');
    check(await page.isVisible('#syzygy-path'), 'the engine settings have SyzygyPath');
    await page.fill('#syzygy-path', '/no/such/tables');
    await page.click('#syzygy-set');
    await page.waitForFunction(() => /^SyzygyPath /.test(document.getElementById('engine-error').textContent));
    check(true, `a folder without tables is refused: ${await page.textContent('#engine-error')}`);
    await page.fill('#syzygy-path', tables);
    await page.click('#syzygy-set');
    await page.waitForFunction(() => /Syzygy tables of .*up to 4 pieces/.test(document.getElementById('message').textContent));
    const options = await request(page, 'GET', '/api/options');
    check(options.data.syzygy_path === tables, `the server's tables are now those of ${options.data.syzygy_path}`);
    await page.fill('#fen', '8/8/8/8/8/2k5/8/K6Q w - - 0 1');
    await page.press('#fen', 'Enter');
    await page.waitForFunction(() => document.querySelectorAll('#tb tr.tbm').length > 0, null, { timeout: 10000 });
    check(true, `the tablebase panel answers KQ v K (${await page.$eval('#tb tr.tbm', (tr) => tr.textContent)})`);
    await page.reload();
    await page.waitForSelector('body[data-ready="1"]');
    check(await page.inputValue('#syzygy-path') === tables, 'kept over a reload');
    await request(page, 'POST', '/api/syzygy', { path: '' });
    check(page.errors.length === 0, `no script errors ${page.errors.join('; ')}`);
    await context.close();
  },

  // 10. The explorer's second collection, one's own PGN files: `kestrel
  // gui --explorer FILE` (tests/gui_browser.rs starts the server with
  // tests/data/famous_games.pgn), or on the static site the same file
  // chosen in the page and indexed in the game Worker. "My games" names
  // the file, its moves and games are its own, the year filter counts only
  // its games since 1900, a top game loads; on a phone (390x844), each
  // control a finger's width. KESTREL_GUI_SHOTS: the phone's screenshot.
  async mygames(browser) {
    const { context, page } = await open(browser, PHONE, `${new URL(url).origin}/analysis`);
    const file = require('path').join(__dirname, '..', 'data', 'famous_games.pgn');
    await page.tap('#morebtn');
    if (await page.evaluate(() => S.ownGamesUpload && !S.ownGames)) {
      check(await page.isVisible('#x-own'), 'the static site offers a file of your own');
      await page.setInputFiles('#x-file', file);
      await page.waitForFunction(() => !!S.ownGames, null, { timeout: 30000 });
    }
    const own = await page.evaluate(() => S.ownGames);
    check(own && own.games === 3 && own.files[0] === 'famous_games.pgn', `your games: ${JSON.stringify(own)}`);
    await page.$eval('#book-panel', (el) => el.scrollIntoView());
    await page.selectOption('#x-db', 'mine');
    await page.waitForFunction(() => document.getElementById('explorer').dataset.source === 'mine'
      && document.querySelectorAll('#explorer tr.xm').length > 0);
    const shown = await page.evaluate(() => ({
      head: document.querySelector('#explorer .small').textContent,
      option: document.querySelector('#x-db').selectedOptions[0].textContent,
      moves: [...document.querySelectorAll('#explorer tr.xm td:first-child')].map((t) => t.textContent),
      games: [...document.querySelectorAll('#explorer tr.xg')].length,
    }));
    check(shown.head.startsWith('My games (famous_games.pgn): 3 games') && shown.option.startsWith('My games (famous_games.pgn')
      && shown.moves.join() === 'e4' && shown.games === 3, `My games explored: ${JSON.stringify(shown)}`);
    await page.fill('#x-since', '1900');
    await page.press('#x-since', 'Tab');
    await page.waitForFunction(() => /2 here within the filters/.test(document.querySelector('#explorer .small').textContent));
    check(true, 'since 1900: the two games of 1997 and 2014');
    const small = await page.evaluate(() => [...document.querySelectorAll('#xfilter select, #xfilter input:not([type=file]), #xfilter .filebtn')]
      .filter((el) => el.getClientRects().length).map((el) => el.getBoundingClientRect())
      .filter((r) => r.width < 44 || r.height < 44).length);
    check(small === 0, `the explorer's controls are a finger's width on the phone (${small} smaller)`);
    if (process.env.KESTREL_GUI_SHOTS) {
      await page.$eval('#book-panel', (el) => el.scrollIntoView());
      await page.screenshot({ path: `${process.env.KESTREL_GUI_SHOTS}/gui-explorer-mygames-phone.png` });
    }
    await page.tap('#explorer tr.xg');
    await page.waitForFunction(() => S.game.plies.length > 20, null, { timeout: 10000 });
    check(true, `a game of yours loads (${await page.evaluate(() => S.game.plies.length)} plies)`);
    await page.fill('#x-since', '');
    await page.press('#x-since', 'Tab');
    check(page.errors.length === 0, `no script errors ${page.errors.join('; ')}`);
    await context.close();
  },

  // 12. /play in a fresh browser opens the new-game dialog there; a Play
  // link in the header; Kestrel's level on its clock; the 1366x768 play
  // page neither scrolls nor hides a button.
  async play(browser) {
    const { context, page } = await open(browser, DESKTOP, `${new URL(url).origin}/play`);
    await page.waitForSelector('#match-dialog[open]', { timeout: 5000 }).catch(() => {});
    check(await page.evaluate(() => document.getElementById('match-dialog').open && location.pathname === '/play'),
      `/play opens the new-game dialog on /play (${await page.evaluate(() => location.pathname)})`);
    await page.click('#match-dialog button[value="cancel"]');
    await page.waitForFunction(() => location.pathname === '/analysis');
    check(await page.isVisible('#pages a[data-page="play"]'), 'the header has a Play link');
    await page.click('#pages a[data-page="play"]');
    await page.waitForSelector('#match-dialog[open]');
    await page.check('#match-dialog input[name="colour"][value="w"]');
    const level = await page.$eval('#match-level', (el) => el.options[1].value);
    await page.selectOption('#match-level', level);
    await page.selectOption('#match-time', '3+2');
    await startMatchGame(page);
    const label = await page.textContent('#clock-top');
    check(label.includes(level), `Kestrel's clock names its level: ${label}`);
    await playAndWait(page, 'e2', 'e4');
    const layout = await page.evaluate(() => {
      const off = [...document.querySelectorAll('#nav button, #resign, #offerdraw')].filter((b) => b.offsetParent)
        .map((b) => [b.textContent, b.getBoundingClientRect()]).filter(([, r]) => r.bottom > innerHeight || r.right > innerWidth || r.top < 0);
      return { scroll: document.documentElement.scrollHeight - innerHeight, off: off.map(([t]) => t) };
    });
    check(layout.scroll <= 0 && layout.off.length === 0, `the play page fits 1366x768: scrolls ${layout.scroll} px, off screen: [${layout.off}]`);
    await context.close();
  },
};

async function main() {
  await runScenarios({
    scenarios: SCENARIOS, only, file: __filename, done: 'issue 63 done',
  });
}

module.exports = { SCENARIOS };
if (require.main === module) main().catch((e) => { console.error(e); process.exit(1); });
