// Time to Kestrel's first move on a cold load of the GUI (issue 42): N
// times, each in a fresh browser context (empty cache, a new Worker and
// module), the page is loaded, a game against Kestrel is started as Black
// (level 1600, 3+2) the moment the page is ready, and the time until
// Kestrel's first move is on the board is taken, from navigation start and
// from the click on Start. Works against `kestrel gui` and the static site.
// Usage: node first_move.js URL [N]
'use strict';

const { launch, open, check } = require('./browser');

async function main() {
  const [url, runs = '5'] = process.argv.slice(2);
  const browser = await launch();
  const rows = [];
  for (let i = 0; i < Number(runs); i++) {
    const { context, page } = await open(browser, url);
    await page.click('#vsengine');
    await page.waitForSelector('#match-dialog[open]');
    await page.check('#match-dialog input[name="colour"][value="b"]');
    await page.selectOption('#match-level', '1600');
    await page.selectOption('#match-time', '3+2');
    const clicked = await page.evaluate(() => performance.now());
    await page.click('#match-start');
    await page.waitForFunction(() => S.match && S.game && S.game.plies.length >= 1, null, { timeout: 60000, polling: 10 });
    const moved = await page.evaluate(() => performance.now());
    rows.push({ load: moved, start: moved - clicked });
    check(page.errors.length === 0 && page.problems.length === 0,
      `cold load ${i + 1}: no script or console error, no failed request ${[...page.errors, ...page.problems].join('; ')}`);
    await context.close();
  }
  await browser.close();
  const show = (key, what) => {
    const v = rows.map((r) => r[key]).sort((a, b) => a - b);
    console.log(`${what}: median ${v[Math.floor(v.length / 2)].toFixed(0)} ms, `
      + `min ${v[0].toFixed(0)} ms, max ${v[v.length - 1].toFixed(0)} ms over ${v.length} cold loads`);
  };
  show('load', 'first move from navigation start');
  show('start', 'first move from the click on Start');
}

main().catch((e) => { console.error(e.stack || String(e)); process.exit(1); });
