/**
 * Analytics benchmark over a seeded file: `node dist/daemon/daemon/bench/analytics.bench.js [file] [runs]`
 * (seeds 1,000,000 turns into a temp file when none is given). Every endpoint with and without
 * filters through Fastify's inject (route + validation + SQL + JSON), then a 1,000,000-row CSV
 * export over real HTTP: rows/s and peak RSS.
 */
import Fastify from 'fastify';
import { mkdtempSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, openReader } from '../src/db/database.js';
import { installErrorHandling } from '../src/http/error-handler.js';
import { RouteTable } from '../src/http/route.js';
import { analyticsRoutes } from '../src/usage/analytics.routes.js';
import { AnalyticsRepo } from '../src/usage/analytics-repo.js';
import { ANALYTICS_MMAP_BYTES } from '../src/usage/usage-module.js';
import { seedUsage } from './seed-usage.js';
import { SCHEMA } from '../src/schema.js';

const FILTERS: Record<string, string> = {
  none: '',
  model: 'model=claude-sonnet-4-5',
  'subscription+app': 'subscription=sub_2&app=app-3',
  'last 7 days': 'from=2026-05-25T00:00:00Z&to=2026-06-01T00:00:00Z',
  'tool=Bash': 'tool=Bash',
  'error=yes': 'error=yes',
  'all combined':
    'model=claude-sonnet-4-5&subscription=sub_1&app=app-3&from=2026-04-01T00:00:00Z&to=2026-06-01T00:00:00Z&error=no&tool=Read',
};
const ENDPOINTS = [
  'summary',
  'timeseries',
  'breakdown?by=model',
  'breakdown?by=app',
  'breakdown?by=tool',
  'turns?limit=100',
];

/**
 * The export's reader runs in its own process, as a browser or curl would: counting lines in
 * the daemon's own thread took a third of the time measured.
 */
const DOWNLOAD = `
const started = performance.now();
require('node:http').get(process.argv[1], (res) => {
  let bytes = 0;
  let lines = 0;
  res.on('data', (chunk) => {
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
  });
  res.on('end', () => {
    const seconds = (performance.now() - started) / 1000;
    process.stdout.write(JSON.stringify({ bytes, lines, seconds, status: res.statusCode }));
  });
});`;

async function download(url: string): Promise<{ bytes: number; lines: number; seconds: number }> {
  const child = spawn(process.execPath, ['-e', DOWNLOAD, url], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((resolve) => child.on('close', resolve));
  const result = JSON.parse(out) as {
    bytes: number;
    lines: number;
    seconds: number;
    status: number;
  };
  if (result.status !== 200) throw new Error(`${url}: ${result.status}`);
  return result;
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function main(): Promise<void> {
  let file = process.argv[2];
  const runs = Number(process.argv[3] ?? 7);
  if (!file) {
    file = join(mkdtempSync(join(tmpdir(), 'relais-bench-')), 'relais.db');
    seedUsage(file, 1_000_000);
  }
  const db = openDatabase(file, SCHEMA);
  const app = Fastify({ logger: false });
  const table = new RouteTable();
  // The daemon's own set-up: analytics read through a mapped read-only connection.
  const reader = openReader(file, ANALYTICS_MMAP_BYTES);
  analyticsRoutes(table, new AnalyticsRepo(reader), file, () => undefined);
  installErrorHandling(app);
  table.register(app);
  await app.ready();

  console.log(`| endpoint | filter | p50 ms | p95 ms |\n|---|---|---|---|`);
  for (const endpoint of ENDPOINTS) {
    for (const [label, query] of Object.entries(FILTERS)) {
      const url = `/api/analytics/${endpoint}${query ? (endpoint.includes('?') ? '&' : '?') + query : ''}`;
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        const answer = await app.inject({ method: 'GET', url });
        times.push(performance.now() - t0);
        if (answer.statusCode !== 200)
          throw new Error(`${url}: ${answer.statusCode} ${answer.body.slice(0, 200)}`);
      }
      times.sort((a, b) => a - b);
      console.log(
        `| ${endpoint} | ${label} | ${pct(times, 50).toFixed(1)} | ${pct(times, 95).toFixed(1)} |`,
      );
    }
  }

  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  for (const format of ['csv', 'ndjson'] as const) {
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    const { bytes, lines, seconds } = await download(
      `${address}/api/analytics/export?format=${format}`,
    );
    clearInterval(sampler);
    const rows = format === 'csv' ? lines - 1 : lines;
    console.log(
      `export ${format}: ${rows} rows, ${(bytes / 1e6).toFixed(0)} MB in ${seconds.toFixed(1)} s = ${Math.round(rows / seconds)} rows/s; RSS ${(rssBefore / 1e6).toFixed(0)} MB before, peak ${(peak / 1e6).toFixed(0)} MB`,
    );
  }
  await app.close();
  reader.close();
  db.close();
}

await main();
