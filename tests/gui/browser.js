// What the browser tests share: Chromium launched headless as Debian
// ships it, a check that prints what it checked, and reading the move list.
'use strict';

const path = require('path');
const { chromium } = require(path.join(__dirname, 'node_modules', 'playwright-core'));

function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
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
