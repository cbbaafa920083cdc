// What the browser tests share: Chromium launched headless as Debian
// ships it, a check that prints what it checked, and reading the move list.
'use strict';

const path = require('path');
const { chromium } = require(path.join(__dirname, 'node_modules', 'playwright-core'));

// KESTREL_GUI_ASSETS=crates/gui/assets serves the page's scripts, style
// and page from that folder instead of the binary's copies, so that a
// change to them can be tried without rebuilding (what the binary embeds
// is what the tests check otherwise).
async function launch() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const dir = process.env.KESTREL_GUI_ASSETS;
  if (!dir) return browser;
  const fs = require('fs');
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await context.route(/\/([a-z]+\.(js|css)|)(\?.*)?$/, async (route) => {
      const name = new URL(route.request().url()).pathname.slice(1) || 'index.html';
      const file = path.join(dir, name);
      if (!fs.existsSync(file)) return route.continue();
      const type = name.endsWith('.js') ? 'text/javascript' : name.endsWith('.css') ? 'text/css' : 'text/html';
      return route.fulfill({ status: 200, contentType: type, body: fs.readFileSync(file) });
    });
    return context;
  };
  return browser;
}

function check(cond, what) {
  if (!cond) throw new Error(`check failed: ${what}`);
  console.log(`ok: ${what}`);
}

async function plyCount(page) {
  return page.$$eval('#moves .mv[data-ply]', (els) => els.length); // the main line's moves
}

async function waitPlies(page, n, timeout = 30000) {
  await page.waitForFunction((n) => document.querySelectorAll('#moves .mv[data-ply]').length >= n, n, { timeout });
}

async function current(page) {
  return page.$eval('#moves .mv.cur', (el) => Number(el.dataset.ply)).catch(() => 0);
}

module.exports = { launch, check, plyCount, waitPlies, current };
