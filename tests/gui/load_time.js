// Page load time of `kestrel gui` in Chromium: loads the page N times, each
// in a fresh browser context (empty cache), and prints the median and the
// slowest of the navigation timings. Usage: node load_time.js URL [N]
'use strict';

const { launch } = require('./browser');

async function main() {
  const [url, runs = '10'] = process.argv.slice(2);
  const browser = await launch();
  const rows = [];
  for (let i = 0; i < Number(runs); i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForSelector('body[data-ready="1"]');
    rows.push(await page.evaluate(() => {
      const n = performance.getEntriesByType('navigation')[0];
      return { dcl: n.domContentLoadedEventEnd, load: n.loadEventEnd, ready: Number(document.body.dataset.readyMs) };
    }));
    await context.close();
  }
  await browser.close();
  for (const key of ['dcl', 'load', 'ready']) {
    const v = rows.map((r) => r[key]).sort((a, b) => a - b);
    console.log(`${key}: median ${v[Math.floor(v.length / 2)].toFixed(0)} ms, max ${v[v.length - 1].toFixed(0)} ms over ${v.length} loads`);
  }
}

main().catch((e) => { console.error(e.stack || String(e)); process.exit(1); });
