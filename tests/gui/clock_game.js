// A whole game against Kestrel at level 1600 on a 3+2 clock, played through
// the page to its end: the new-game dialog, each of White's moves made by
// clicking its two squares (a random legal move, from a fixed seed, made at
// once; a promotion picked in the page's chooser), each landing checked on
// chessground's board (cgProbe), Kestrel's replies on the clock. At the end
// every move has its clock in the move list and in the PGN's [%clk]; the
// PGN is written to the file in $KESTREL_CLOCK_PGN for tests/gui_browser.rs
// to read with python-chess, and with a DIR the move list with its clocks
// is photographed (gui-clocks-1366.png).
// Usage: node clock_game.js URL [DIR]. Prints `clock game done`.
'use strict';

const fs = require('fs');
const path = require('path');
const { launch, open, check, move } = require('./browser');

const [url, shots] = process.argv.slice(2);
const SEED = 41;
const MAX_PLIES = 400; // far beyond any game Kestrel plays against random moves

// A small seeded generator (mulberry32): the same game's choices each run.
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function main() {
  const browser = await launch();
  const { context, page } = await open(browser, url, { viewport: { width: 1366, height: 768 } });
  await page.click('#vsengine');
  await page.waitForSelector('#match-dialog[open]');
  await page.check('#match-dialog input[name="colour"][value="w"]');
  await page.selectOption('#match-level', '1600');
  await page.selectOption('#match-time', '3+2');
  await page.setChecked('#match-hide', true);
  await page.click('#match-start');
  await page.waitForFunction(() => S.match && S.clock && S.game && S.game.plies.length === 0);
  check(await page.evaluate(() => S.match.level === '1600' && S.clock.inc === 2000 && S.clock.left.w === 180000),
    'a game against Kestrel at level 1600, 3+2, as White');
  const pick = random(SEED);
  const started = Date.now();
  let onBoard = 0; // White's moves whose squares the board showed as the game has them
  for (;;) {
    // White's move in the game, or the end.
    const state = await page.waitForFunction(() => {
      const g = S.game;
      if (!g) return false;
      if (g.status.over) return { over: true };
      const mine = g.turn === 'w' && g.current === lineEnd(0) && g.legal.length > 0;
      return mine && { over: false, plies: g.plies.length, legal: g.legal };
    }, null, { timeout: 120000, polling: 50 }).then((h) => h.jsonValue());
    if (state.over) break;
    if (state.plies >= MAX_PLIES) throw new Error(`no end after ${state.plies} plies`);
    const m = state.legal[Math.floor(pick() * state.legal.length)];
    await move(page, m.from, m.to);
    if (m.promotion) {
      await page.waitForSelector('#promotion:not(.hidden)');
      await page.click(`#promotion img[data-role="${m.promotion}"]`);
    }
    await page.waitForFunction((n) => S.game.plies.length > n, state.plies, { timeout: 10000 });
    // The game has the move, and chessground's board shows its two squares
    // as the game has them now (Kestrel's reply may be there already: a
    // book move comes at once).
    const uci = await page.evaluate((n) => S.game.plies[n].uci, state.plies);
    if (uci !== m.uci) throw new Error(`played ${m.uci}, the game has ${uci}`);
    await page.waitForFunction(({ from, to }) => {
      const board = parseFen(S.game.fen).board; // app.js: a1 = 0, rank * 8 + file
      const at = (sq) => board[(Number(sq[1]) - 1) * 8 + sq.charCodeAt(0) - 97] || '';
      return cgProbe.piece(from) === at(from) && cgProbe.piece(to) === at(to);
    }, { from: m.from, to: m.to }, { timeout: 5000 }).catch(() => { throw new Error(`${m.uci}: the board does not show the game`); });
    onBoard += 1;
  }
  await page.waitForSelector('#over-dialog[open]');
  const end = await page.evaluate(() => ({ result: S.game.status.result, reason: S.game.status.reason, plies: S.game.plies.length }));
  check(true, `the game ended: ${end.result}, ${end.reason}, after ${end.plies} plies in ${Math.round((Date.now() - started) / 1000)} s`);
  check(onBoard * 2 >= end.plies - 1, `each of White's ${onBoard} moves in the game and its squares on chessground's board as the game has them`);
  // The last move's clock reaches the server just after the end.
  await page.waitForFunction(() => S.game.plies.every((p) => p.clock_ms != null), null, { timeout: 10000 });
  await page.click('#over-close');
  const listed = await page.$$eval('#moves .mv[data-ply]', (els) => els.map((e) => (e.querySelector('.clk') || {}).textContent));
  check(listed.length === end.plies && listed.every((t) => /^\d+:\d\d(\.\d)?$/.test(t || '')),
    `every move shows its clock in the move list (${listed.slice(0, 6).join(' ')} ... ${listed.slice(-2).join(' ')})`);
  const pgn = await page.evaluate(() => backend.pgn(S.game.id)); // the page's own way, with a server or without
  const clocks = [...pgn.matchAll(/\[%clk\s(\d+:\d\d:\d\d)\]/g)].length;
  check(clocks === end.plies, `and in the PGN as [%clk] (${clocks} of ${end.plies})`);
  check(pgn.includes('[TimeControl "180+2"]') && pgn.includes(`[Result "${end.result}"]`), 'with its time control and result');
  if (process.env.KESTREL_CLOCK_PGN) fs.writeFileSync(process.env.KESTREL_CLOCK_PGN, pgn);
  if (shots) {
    // The move list scrolled to the end, the last moves' clocks in view.
    await page.$eval('#moves', (el) => { el.scrollTop = el.scrollHeight; });
    await page.screenshot({ path: path.join(shots, 'gui-clocks-1366.png') });
  }
  check(page.errors.length === 0, `no script errors ${page.errors.join('; ')}`);
  await context.close();
  await browser.close();
  console.log('clock game done');
}

main().catch((e) => { console.error(e); process.exit(1); });
