#!/usr/bin/env node
/**
 * Time to first chart on the Analytics page over a seeded usage database. Seeds BENCH_TURNS
 * (default 100,000) turns over 90 days with daemon/bench/seed-usage.ts into a temporary RELAIS_HOME,
 * starts the built daemon on it, opens /analytics?period=all in headless Chromium and prints, per
 * run, the time from navigation to the first chart drawn (ECharts' first `rendered` event, exposed as
 * data-rendered="true"), to the summary tiles, and to all five charts. Nothing is built here: run
 * `npm run build` first. BENCH_SCREENSHOTS=<folder> also saves a screenshot of the page.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, launchChromium, requireBuilt, startBuiltDaemon } from './bench-support.mjs';

const SEED = join(ROOT, 'dist/daemon/daemon/bench/seed-usage.js');
const TURNS = Number(process.env.BENCH_TURNS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SHOTS = process.env.BENCH_SCREENSHOTS;

requireBuilt(SEED);

const home = mkdtempSync(join(tmpdir(), 'relais-bench-analytics-'));
const t0 = Date.now();
const seeded = spawnSync(process.execPath, [SEED, join(home, 'relais.db'), String(TURNS)], {
  encoding: 'utf8',
});
if (seeded.status !== 0) throw new Error(`seeding failed: ${seeded.stderr}`);
const seedSeconds = (Date.now() - t0) / 1000;

let browser;
let daemon;
try {
  daemon = await startBuiltDaemon(home);
  const { url, base } = daemon;
  browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.setDefaultTimeout(120_000);
  page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
  await page.goto(url);
  await page.getByRole('heading', { name: 'Sessions' }).waitFor();

  const runs = [];
  for (let run = 1; run <= RUNS; run++) {
    // Leave the page so that every run loads the route, its chunks and the figures again.
    await page.goto(`${base}/sessions`);
    await page.getByRole('heading', { name: 'Sessions' }).waitFor();
    const api = [];
    const onFinished = (request) => {
      if (request.url().includes('/api/analytics/'))
        api.push({
          path: new URL(request.url()).pathname.replace('/api/analytics/', ''),
          ms: request.timing().responseEnd,
        });
    };
    page.on('requestfinished', onFinished);
    const start = Date.now();
    await page.goto(`${base}/analytics?period=all`);
    await page
      .locator('[data-tile="Turns"] .value')
      .waitFor()
      .catch(async (error) => {
        if (SHOTS) await page.screenshot({ path: join(SHOTS, 'analytics-failure.png') });
        console.error(await page.locator('main').innerText());
        throw error;
      });
    const tiles = Date.now() - start;
    await page.locator('.chart[data-rendered="true"]').first().waitFor();
    const firstChart = Date.now() - start;
    await page.waitForFunction(
      () => document.querySelectorAll('.chart[data-rendered="true"]').length >= 5,
    );
    const allCharts = Date.now() - start;
    page.off('requestfinished', onFinished);
    const turns = await page.locator('[data-tile="Turns"] .value').textContent();
    runs.push({ run, firstChart, tiles, allCharts, turns, api });
    console.log(
      `run ${run}: first chart ${firstChart} ms, tiles ${tiles} ms, all 5 charts ${allCharts} ms (Turns tile: ${turns}; ` +
        `analytics requests: ${api.map((a) => `${a.path} ${Math.round(a.ms)} ms`).join(', ')})`,
    );
  }
  if (SHOTS) await page.screenshot({ path: join(SHOTS, 'analytics-100k.png'), fullPage: false });
  const sorted = runs.map((r) => r.firstChart).sort((a, b) => a - b);
  console.log(`\nseeded ${TURNS.toLocaleString('en-US')} turns in ${seedSeconds.toFixed(1)} s`);
  console.log(
    `time to first chart: median ${sorted[Math.floor(sorted.length / 2)]} ms, first (cold) run ${runs[0].firstChart} ms, best ${sorted[0]} ms over ${RUNS} runs`,
  );
} finally {
  await browser?.close();
  await daemon?.stop();
  rmSync(home, { recursive: true, force: true });
}
