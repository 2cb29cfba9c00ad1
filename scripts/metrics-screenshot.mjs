// Regenerates monitoring/prometheus-graph.png: a daemon runs demo sessions, a real Prometheus
// scrapes it, and Prometheus' own graph page shows the Grafana dashboard's queries.
// Run after `npm run build:daemon`: node scripts/metrics-screenshot.mjs
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { startTestDaemon } from '../dist/daemon/daemon/src/testing/harness.js';
import { SessionDriver } from '../dist/daemon/daemon/src/testing/session-driver.js';
import { startPrometheus } from '../dist/daemon/daemon/src/testing/prometheus-server.js';

const QUERIES = [
  'sum by (instance, state) (relais_sessions)',
  'sum by (app) (relais_turns_total)',
  'sum by (subscription) (increase(relais_cost_usd_total[1d]))',
  'histogram_quantile(0.95, sum by (le, instance) (rate(relais_permission_answer_seconds_bucket[5m])))',
  '1 - max by (instance, subscription, window) (relais_quota_window_used_ratio)',
  'sum by (outcome, decided_by) (relais_permission_decisions_total)',
];

const daemon = await startTestDaemon();
const prometheus = await startPrometheus(new URL(daemon.base).host, daemon.key);
const cwd = () => mkdtempSync(join(tmpdir(), 'relais-shot-'));
for (const app of ['ci', 'editor', 'ci']) {
  const s = await SessionDriver.launch(daemon, { cwd: cwd(), app, prompt: 'demo:bash touch x' });
  const prompt = await s.pendingPermission();
  await new Promise((r) => setTimeout(r, 1500));
  await s.decide(prompt.id, { decision: app === 'editor' ? 'deny' : 'allow' });
  await s.waitResults(1);
}
await new Promise((r) => setTimeout(r, 15_000));
const params = QUERIES.map(
  (q, i) => `g${i}.expr=${encodeURIComponent(q)}&g${i}.tab=${i < 1 ? 0 : 1}&g${i}.range_input=5m`,
).join('&');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
await page.goto(`${prometheus.base}/graph?${params}`);
await page.waitForTimeout(4000);
await page.screenshot({ path: 'monitoring/prometheus-graph.png', fullPage: true });
await browser.close();
await prometheus.stop();
await daemon.close();
