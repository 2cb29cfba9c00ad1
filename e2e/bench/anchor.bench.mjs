#!/usr/bin/env node
/**
 * Relais beside the web UI issue 14 measures it against (claude-code-ui, "CloudCLI"): the same
 * Claude Code transcripts of 20, 2,000 and 10,000 events (BENCH_SIZES) opened in both, runs
 * alternated (each product first in turn), a fresh browser for every open, BENCH_RUNS times
 * (default 5). Prints the medians of navigation → last message on screen, of the script and API
 * bytes, and how many times faster Relais is. For Relais, the last message counts in its first paint
 * (src/first-paint: the last rows as plain text, before the console has started) as anywhere
 * else on screen; the console's own view of it is timed and printed too. Then, in the same page, what
 * a person does next (anchor-acts.mjs): the long tasks until 2 s after the page's own last message,
 * when the other UI's composer took the first key typed from the start (an imported conversation
 * has none in Relais: bench:conversation times its composer on a live one), and the way up from the
 * bottom to the first message: for Relais row by row and by the thumb, for the other UI its own way
 * (scrolled to the top until it has read everything, then "Load earlier messages"; minutes at
 * 10,000 events: BENCH_WAY_UP=0 leaves it out).
 *
 * The other UI is not a dependency of Relais: install it in a folder of its own
 * (`npm install @siteboon/claude-code-ui@1.12.0`, then let its native packages build) and name its
 * package folder in BENCH_ANCHOR. It is started here on a home of its own, whose `.claude/projects`
 * holds the transcripts; Relais imports the same folder through a subscription, as a user would.
 * Build Relais first (`npm run build`).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { WATCH_ACTS, loadEarlierToHead, longTasksBefore } from './anchor-acts.mjs';
import { freePort, launchChromium, requireBuilt, startBuiltDaemon } from './bench-support.mjs';
import { backToTail, firstKeystroke, scrollToTop, watchNetwork } from './conversation-open.mjs';
import { importConfigDir, writeTranscript } from './seed-imported.mjs';

const SIZES = (process.env.BENCH_SIZES ?? '20,2000,10000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const TAIL = 'TAIL MARKER: end of the seeded conversation';
const ANCHOR = process.env.BENCH_ANCHOR && resolve(process.env.BENCH_ANCHOR);
/** BENCH_WAY_UP=0: the open alone (the way up to the first message takes the other UI minutes). */
const WAY_UP = process.env.BENCH_WAY_UP !== '0';

if (!ANCHOR || !existsSync(join(ANCHOR, 'server/index.js')))
  throw new Error('BENCH_ANCHOR: the folder of an installed @siteboon/claude-code-ui package');
requireBuilt();

/**
 * Set before any script of the page runs: the first frame where the tail marker is on screen (in
 * the document is not enough: a page may lay out the history before it scrolls to its end).
 */
const WATCH_TAIL = (tail) => {
  const onScreen = () => {
    if (!document.body?.textContent?.includes(tail)) return false;
    const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (texts.nextNode()) {
      if (!texts.currentNode.textContent.includes(tail)) continue;
      const box = texts.currentNode.parentElement.getBoundingClientRect();
      if (box.bottom > 0 && box.top < innerHeight && box.height > 0) return true;
    }
    return false;
  };
  const check = () => {
    if (onScreen()) window.__benchTailMs = performance.now();
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
};

/** Relais only: the first frame where the tail marker is in the console's own conversation view. */
const WATCH_OWN_VIEW = ({ tail, selector }) => {
  const check = () => {
    if (document.querySelector(selector)?.textContent?.includes(tail))
      window.__benchOwnViewMs = performance.now();
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
};

/** What is printed beside the last message: [key, label, unit]. */
const ROWS = [
  ['keyMs', 'navigation → composer took a key', 'ms'],
  ['blockingMs', 'main thread blocked opening', 'ms'],
  ['longestTaskMs', 'longest task opening', 'ms'],
  ['longTasks', 'tasks over 50 ms opening', ''],
  ['wayUpMs', 'bottom → first message, row by row', 'ms'],
  ['thumbMs', '  by the scrollbar thumb', 'ms'],
  ['jsBytes', 'JS transferred', 'kB'],
  ['apiBytes', 'API bytes to the last message', 'kB'],
];

const home = mkdtempSync(join(tmpdir(), 'relais-bench-anchor-'));
const configDir = join(home, '.claude');
const products = [];
try {
  const sessionIds = new Map(
    SIZES.map((count, n) => [
      count,
      writeTranscript(join(configDir, 'projects'), {
        count,
        tail: TAIL,
        n,
        project: `-home-me-project-${n}`,
      }),
    ]),
  );
  products.push(await startRelais(sessionIds), await startAnchor(sessionIds));
  const results = new Map(SIZES.map((size) => [size, products.map(() => [])]));
  for (let run = 1; run <= RUNS; run++)
    for (const size of SIZES) {
      const order = products.map((_, i) => i);
      if (run % 2 === 0) order.reverse();
      for (const i of order) {
        const figures = await openOnce(products[i], size);
        results.get(size)[i].push(figures);
        process.stderr.write(
          `run ${run}, ${size} events, ${products[i].label}: ${JSON.stringify(figures)}\n`,
        );
      }
    }
  report(results);
} finally {
  for (const product of products) await product.stop();
  rmSync(home, { recursive: true, force: true });
}

async function startRelais(sessionIds) {
  const daemon = await startBuiltDaemon(mkdtempSync(join(home, 'relais-')));
  const imported = await importConfigDir(daemon.base, daemon.key, configDir, 'Bench transcripts');
  const urls = new Map();
  for (const [size, sessionId] of sessionIds) {
    const session = imported.get(sessionId);
    if (!session) throw new Error(`Relais did not import the ${size}-event transcript`);
    urls.set(size, `${daemon.base}/sessions/${session.id}#key=${daemon.key}`);
  }
  // Its first paint (src/first-paint) shows the last rows before the console has started: the
  // console's own view of them is timed too.
  const prepare = (page) =>
    page.addInitScript(WATCH_OWN_VIEW, { tail: TAIL, selector: '.scroller' });
  // An imported conversation is read-only in Relais: no composer, so no key is typed there (its
  // composer's first key is measured on a live conversation by bench:conversation).
  // Row by row (the view moved to the top of the rows drawn, again and again), then by the thumb.
  const wayUp = async (page, cdp) => {
    const wayUpMs = (await scrollToTop(page, cdp, { walk: true })).ms;
    await backToTail(page, TAIL);
    return { wayUpMs, thumbMs: (await scrollToTop(page, cdp)).ms };
  };
  return { label: 'Relais', urls, prepare, stop: daemon.stop, ownView: true, wayUp };
}

/** The other UI on a free port, its one user registered; its token is set in each fresh page. */
async function startAnchor(sessionIds) {
  const port = await freePort();
  const server = spawn(process.execPath, [join(ANCHOR, 'server/index.js')], {
    cwd: ANCHOR,
    env: {
      PATH: process.env.PATH,
      HOME: home,
      PORT: String(port),
      DATABASE_PATH: join(home, 'anchor.db'),
    },
    // Its log is its own business (it reports, for one, that the transcripts' folder is not a Git
    // repository): only its exit matters here.
    stdio: 'ignore',
  });
  const stop = async () => {
    if (server.exitCode !== null) return;
    const exited = new Promise((done) => server.once('exit', done));
    server.kill('SIGTERM');
    await exited;
  };
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitForAnswer(`${base}/api/auth/status`, server);
    const registered = await fetch(`${base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bench', password: 'bench-password' }),
    });
    if (!registered.ok) throw new Error(`register: ${registered.status}`);
    const { token } = await registered.json();
    const urls = new Map([...sessionIds].map(([size, id]) => [size, `${base}/session/${id}`]));
    const prepare = async (page) => {
      await page.addInitScript((value) => localStorage.setItem('auth-token', value), token);
      await page.addInitScript(WATCH_ACTS, 'textarea.chat-input-placeholder');
    };
    const wayUp = async (page) => ({ wayUpMs: await loadEarlierToHead(page) });
    return { label: 'claude-code-ui', urls, prepare, stop, wayUp, composer: true };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function openOnce(product, size) {
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(120_000);
    if (!product.composer) await page.addInitScript(WATCH_ACTS, null);
    await product.prepare(page);
    await page.addInitScript(WATCH_TAIL, TAIL);
    const cdp = await context.newCDPSession(page);
    const network = await watchNetwork(cdp);
    await page.goto(product.urls.get(size), { waitUntil: 'commit' });
    const keyMs = product.composer ? await firstKeystroke(cdp, 30_000) : null;
    await page.waitForFunction(() => window.__benchTailMs !== undefined);
    if (product.ownView) await page.waitForFunction(() => window.__benchOwnViewMs !== undefined);
    const tailMs = await page.evaluate(() => window.__benchTailMs);
    const ownViewMs = await page.evaluate(() => window.__benchOwnViewMs ?? null);
    const { js, api } = network.snapshot();
    // The open's main thread: until 2 s after the page's own last message.
    await page.waitForTimeout(2000);
    const tasks = await longTasksBefore(page, Math.max(tailMs, ownViewMs ?? 0) + 2000);
    const opened = { tailMs, ownViewMs, keyMs, ...tasks, jsBytes: js.bytes, apiBytes: api.bytes };
    return WAY_UP ? { ...opened, ...(await product.wayUp(page, cdp)) } : opened;
  } finally {
    await browser.close();
  }
}

function report(results) {
  for (const [size, [relais, anchor]] of results) {
    const mine = median(relais.map((r) => r.tailMs));
    const theirs = median(anchor.map((r) => r.tailMs));
    const ratios = relais.map((r, i) => anchor[i].tailMs / r.tailMs).sort((a, b) => a - b);
    console.log(`\n${size} events, medians of ${RUNS} alternated runs (fresh browser each)`);
    console.log(`  ${''.padEnd(36)} ${'Relais'.padStart(10)} | ${'claude-code-ui'.padStart(14)}`);
    console.log(`  ${'navigation → last message'.padEnd(36)} ${ms(mine)} | ${ms(theirs, 14)}`);
    const own = median(relais.map((r) => r.ownViewMs));
    console.log(`  ${"  in the console's own view".padEnd(36)} ${ms(own)} |`);
    for (const [key, label, unit] of ROWS) {
      const [a, b] = [relais, anchor].map((runs) => median(runs.map((r) => r[key])));
      if (a === null && b === null) continue;
      const show = (value, width) =>
        value === null
          ? '—'.padStart(width)
          : unit === 'kB'
            ? kB(value, width)
            : unit === 'ms'
              ? ms(value, width)
              : String(value).padStart(width);
      console.log(`  ${label.padEnd(36)} ${show(a, 10)} | ${show(b, 14)}`);
    }
    console.log(
      `  Relais faster by ${(theirs / mine).toFixed(1)}× (run by run ${ratios[0].toFixed(1)}–${ratios.at(-1).toFixed(1)}×); its own view ${(theirs / own).toFixed(1)}×`,
    );
  }
}

function ms(value, width = 10) {
  return `${Math.round(value)} ms`.padStart(width);
}

function kB(value, width = 10) {
  return `${(value / 1000).toFixed(1)} kB`.padStart(width);
}

function median(values) {
  const sorted = values.filter((v) => typeof v === 'number').sort((a, b) => a - b);
  if (!sorted.length) return null;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

async function waitForAnswer(url, child) {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited (${child.exitCode})`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`${url}: no answer in 30 s`);
}
