// Kestrel's Web Worker (target/web/kestrel.js) in headless Chromium, run by
// tests/web_worker.rs: node worker.js URL PERFT_EPD isolated|plain [full]
//
// Through the Worker, as a third-party page would use it: perft on the
// suite (every depth up to PERFT_MAX nodes) against the suite's counts;
// `bench` (the native bench's positions, depth and evaluator, one thread)
// printed as `bench N nodes M nps`; `go` with depth, nodes, movetime, a
// clock, MultiPV and a playing level; `stop` of an infinite search, which
// must answer within a second; isready during a search. Fails on a console
// error, a failed request or an uncaught error in the page.
'use strict';

const path = require('path');
const fs = require('fs');
const { chromium } = require(path.join(__dirname, '../gui/node_modules/playwright-core'));

const [url, epdPath, mode, scope] = process.argv.slice(2);
const full = scope === 'full';
const PERFT_MAX = Number(process.env.KESTREL_WEB_PERFT_MAX || 2_000_000);

function fail(message) {
  console.error(`FAIL: ${message}`);
  process.exitCode = 1;
  throw new Error(message);
}

async function main() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  const page = await browser.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  await page.goto(new URL('console.html', url).href); // the UCI console: a page with nothing of its own running
  const isolated = await page.evaluate(() => self.crossOriginIsolated);
  if (isolated !== (mode === 'isolated')) fail(`crossOriginIsolated is ${isolated} with mode ${mode}`);

  // A UCI client in the page: send lines, wait for a line that matches.
  await page.evaluate(() => {
    const created = performance.now();
    const w = new Worker('kestrel.js');
    const lines = [];
    let waiters = [];
    w.onmessage = (e) => {
      if (lines.length === 0) self.firstLineMs = performance.now() - created;
      lines.push(e.data);
      waiters = waiters.filter((waiter) => !waiter(e.data));
    };
    self.uci = {
      send: (line) => w.postMessage(line),
      // All lines from now until one matches `pattern` (a RegExp source).
      until(pattern, timeoutMs, count = 1) {
        const re = new RegExp(pattern);
        const seen = [];
        let left = count;
        return new Promise((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no line /${pattern}/ in ${timeoutMs} ms; last: ${seen.slice(-3).join(' | ')}`)), timeoutMs);
          waiters.push((line) => {
            seen.push(line);
            if (!re.test(line) || --left > 0) return false;
            clearTimeout(timer);
            resolve(seen);
            return true;
          });
        });
      },
    };
  });
  const send = (line) => page.evaluate((l) => self.uci.send(l), line);
  // Sends `line`; the lines until the `count`th that matches `pattern`.
  const ask = (line, pattern, timeoutMs = 60_000, count = 1) => page.evaluate(
    ([l, p, t, c]) => { const r = self.uci.until(p, t, c); self.uci.send(l); return r; },
    [line, pattern, timeoutMs, count]);

  const hello = await ask('uci', '^uciok$');
  // A cold load: the module fetched, compiled and started, then `uci` answered.
  console.log(`first line from the Worker ${Math.round(await page.evaluate(() => self.firstLineMs))} ms after it was created`);
  if (!hello.some((l) => l.startsWith('id name Kestrel'))) fail('no id name');
  if (!hello.some((l) => l === 'option name Threads type spin default 1 min 1 max 1')) fail('Threads is not 1 at most');
  await ask('isready', '^readyok$');

  // Perft on the suite.
  let checked = 0;
  const suite = full ? fs.readFileSync(epdPath, 'utf8') : '';
  let nodes = 0;
  const started = Date.now();
  for (const raw of suite.split('\n')) {
    const [fen, ...counts] = raw.split(';').map((s) => s.trim());
    if (!fen) continue;
    await send(`position fen ${fen}`);
    for (const count of counts) {
      const [d, n] = count.slice(1).split(' ').map(Number);
      if (n > PERFT_MAX) continue;
      const out = await ask(`go perft ${d}`, '^Nodes searched: ');
      const got = Number(out[out.length - 1].split(': ')[1]);
      if (got !== n) fail(`perft ${d} of ${fen}: ${got}, expected ${n}`);
      checked += 1;
      nodes += n;
    }
  }
  console.log(`perft ${checked} counts (${nodes} nodes) equal the suite's in ${Date.now() - started} ms`);

  // Searches with every kind of limit.
  await send('position startpos');
  let out = await ask('go depth 6', '^bestmove ');
  if (!out.some((l) => l.startsWith('info depth 6 '))) fail('go depth 6 reported no depth 6');
  out = await ask('go nodes 20000', '^bestmove ');
  const lastNodes = Number(out.filter((l) => / nodes /.test(l)).pop().split(' nodes ')[1].split(' ')[0]);
  if (lastNodes > 20_000 + 2048) fail(`go nodes 20000 searched ${lastNodes}`);
  let t = Date.now();
  await ask('go movetime 400', '^bestmove ');
  const movetime = Date.now() - t;
  if (movetime < 350 || movetime > 1500) fail(`go movetime 400 took ${movetime} ms`);
  t = Date.now();
  await ask('go wtime 3000 btime 3000 winc 50 binc 50', '^bestmove ');
  if (Date.now() - t > 1500) fail(`a 3 s clock move took ${Date.now() - t} ms`);
  await send('setoption name MultiPV value 3');
  out = await ask('go depth 7', '^bestmove ');
  for (const k of [1, 2, 3]) {
    if (!out.some((l) => l.startsWith('info depth 7 ') && l.includes(` multipv ${k} `))) fail(`no line ${k} with MultiPV 3`);
  }
  await send('setoption name MultiPV value 1');
  await send('setoption name UCI_LimitStrength value true');
  await send('setoption name UCI_Elo value 1600');
  await send('position startpos moves e2e4 e7e5');
  out = await ask('go wtime 180000 btime 180000 winc 2000 binc 2000', '^bestmove ');
  if (out.some((l) => l.includes('error'))) fail(`level 1600: ${out.join(' | ')}`);
  await send('setoption name UCI_LimitStrength value false');

  // stop and isready during an infinite search.
  await send('position startpos');
  await ask('go infinite', '^info depth 8 ');
  await ask('isready', '^readyok$', 1000);
  // Timed in the page, without the test's round trips to it.
  let stopMs;
  [out, stopMs] = await page.evaluate(async () => {
    const started = performance.now();
    const answer = self.uci.until('^bestmove ', 2000);
    self.uci.send('stop');
    const lines = await answer;
    return [lines, Math.round(performance.now() - started)];
  });
  if (stopMs > 1000) fail(`stop took ${stopMs} ms`);
  const best = out[out.length - 1].split(' ')[1];
  if (!/^[a-h][1-8][a-h][1-8]$/.test(best)) fail(`bestmove after stop: ${best}`);
  console.log(`stop answered in ${stopMs} ms (${isolated ? 'shared flag' : 'engine replaced'})`);
  // The engine goes on after a stop; a new `go` stops the running search,
  // which answers first, as natively.
  await ask('go depth 5', '^bestmove ');
  await ask('go infinite', '^info depth 5 ');
  out = await ask('go depth 4', '^bestmove ', 10_000, 2);
  if (!out.some((l) => l.startsWith('info depth 4 '))) fail(`go during a search: ${out.join(' | ')}`);

  // The bench, as `kestrel bench` runs it.
  if (full) {
    out = await ask('bench', ' nodes \\d+ nps$', 600_000);
    console.log(`bench ${out[out.length - 1]}`);
  }

  if (problems.length > 0) fail(problems.join('\n'));
  await browser.close();
  console.log('ok');
}

main().catch((e) => {
  if (!process.exitCode) console.error(e);
  process.exit(1);
});
