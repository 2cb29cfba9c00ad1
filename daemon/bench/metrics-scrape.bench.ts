/**
 * Scrape benchmark: `node dist/daemon/daemon/bench/metrics-scrape.bench.js [scrapes]`. For 10,000,
 * 100,000 and 1,000,000 turns of seeded history (seed-usage: 90 days, 5 subscriptions, 6 models,
 * 10 apps, 20 tools), a daemon on that home with 8 live sessions, each finishing a turn between
 * two scrapes; GET /metrics over real HTTP with the key. Prints the start-up read of the
 * history, then p50/p95/max of the scrape and the exposition's size.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from '../src/app.js';
import { configFromEnv } from '../src/config.js';
import { emptyAgentHome } from '../src/testing/harness.js';
import { insertSessionRow } from '../src/testing/fixtures.js';
import { TurnWriter } from '../src/usage/turn-writer.js';
import type { TurnRecord } from '../src/agents/turn-record.js';
import { percentile } from './percentile.js';
import { seedUsage } from './seed-usage.js';

const SIZES = [10_000, 100_000, 1_000_000];
const LIVE_SESSIONS = 8;
const WARM_UP = 5;

function liveTurn(sessionId: string, n: number): TurnRecord {
  const now = Date.now();
  return {
    turn_key: `${sessionId}:live:${n}`,
    session_id: sessionId,
    subscription_id: 'demo',
    agent: 'claude',
    model: 'claude-sonnet-4-5',
    models: ['claude-sonnet-4-5'],
    app: `live-${n % 4}`,
    permission_mode: 'write',
    started_at_ms: now - 4000,
    ended_at_ms: now,
    duration_ms: 4000,
    model_calls: 2,
    input_tokens: 1200,
    output_tokens: 300,
    cache_read_tokens: 9000,
    cache_creation_tokens: 400,
    cost_usd: 0.01,
    is_error: false,
    error_kind: null,
    error_message: null,
    tool_calls: [
      {
        tool_use_id: `toolu_${sessionId}_${n}`,
        tool_name: 'Bash',
        started_at_ms: now - 3000,
        ended_at_ms: now - 2000,
        duration_ms: 1000,
        is_error: false,
        permission_decision: 'auto_allowed',
      },
    ],
  };
}

async function measure(turns: number, scrapes: number): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'relais-metrics-bench-'));
  const seededAt = performance.now();
  seedUsage(join(home, 'relais.db'), turns);
  const seedSeconds = (performance.now() - seededAt) / 1000;
  const builtAt = performance.now();
  const relais = await build({
    ...configFromEnv({ RELAIS_HOME: home, RELAIS_AGENT_HOME: emptyAgentHome() }),
    port: 0,
    consoleDir: null,
    logLevel: 'silent',
    historyWatch: false,
  });
  const buildMs = performance.now() - builtAt;
  const base = await relais.listen();
  const states = ['working', 'idle', 'waiting', 'working'];
  const sessions = Array.from({ length: LIVE_SESSIONS }, (_, i) =>
    insertSessionRow(relais.db, { state: states[i % states.length]!, app: `live-${i % 4}` }),
  );
  const writer = new TurnWriter(relais.db);
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < WARM_UP + scrapes; i++) {
    for (const id of sessions) writer.add(liveTurn(id, i));
    writer.flush();
    const started = performance.now();
    const answer = await fetch(`${base}/metrics`, {
      headers: { authorization: `Bearer ${relais.apiKey}` },
    });
    const text = await answer.text();
    const ms = performance.now() - started;
    if (answer.status !== 200) throw new Error(`scrape: ${answer.status} ${text.slice(0, 200)}`);
    if (i >= WARM_UP) times.push(ms);
    bytes = text.length;
  }
  await relais.close();
  rmSync(home, { recursive: true, force: true });
  const f = (ms: number): string => ms.toFixed(1).padStart(6);
  console.log(
    `${String(turns).padStart(9)} turns (seeded in ${seedSeconds.toFixed(0)} s, daemon start ${buildMs.toFixed(0)} ms):` +
      ` scrape p50 ${f(percentile(times, 50))} ms  p95 ${f(percentile(times, 95))} ms  max ${f(Math.max(...times))} ms` +
      `  (${scrapes} scrapes, ${LIVE_SESSIONS} live sessions, ${LIVE_SESSIONS} new turns between scrapes, ${(bytes / 1024).toFixed(0)} KiB)`,
  );
}

async function main(): Promise<void> {
  const scrapes = Number(process.argv[2] ?? 200);
  for (const turns of SIZES) await measure(turns, scrapes);
}

await main();
