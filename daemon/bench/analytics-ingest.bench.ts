/**
 * Turn-writer throughput with the rollups kept on ingest: `node dist/daemon/daemon/bench/analytics-ingest.bench.js [turns]`
 * (default 20,000 turns, 0–2 tool calls each, written in batches of 50 as the writer's ticks do).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/db/database.js';
import type { TurnRecord } from '../src/agents/turn-record.js';
import { TurnWriter } from '../src/usage/turn-writer.js';
import { SCHEMA } from '../src/schema.js';

const TOOLS = ['Bash', 'Read', 'Write', 'Edit', 'Glob', 'Grep'];

function turn(i: number): TurnRecord {
  const started = Date.parse('2026-05-01T00:00:00Z') + i * 7_777;
  const model = `model-${i % 6}`;
  return {
    turn_key: `k${i}`,
    session_id: `s${Math.floor(i / 8)}`,
    subscription_id: `sub_${(i >> 3) % 5}`,
    agent: 'claude',
    model,
    models: [model],
    app: `app-${i % 10}`,
    permission_mode: 'write',
    started_at_ms: started,
    ended_at_ms: started + 1000 + (i % 5000),
    duration_ms: 1000 + (i % 5000),
    model_calls: 1 + (i % 3),
    input_tokens: 100 + (i % 900),
    output_tokens: 20 + (i % 300),
    cache_read_tokens: i % 9000,
    cache_creation_tokens: i % 700,
    cost_usd: i % 11 ? (i % 1000) / 1e5 : null,
    is_error: i % 33 === 0,
    error_kind: null,
    error_message: null,
    tool_calls: Array.from({ length: i % 3 }, (_, c) => ({
      tool_use_id: `t${i}.${c}`,
      tool_name: TOOLS[(i + c) % TOOLS.length]!,
      started_at_ms: started + 10,
      ended_at_ms: started + 60,
      duration_ms: 50,
      is_error: false,
      permission_decision: 'allowed',
    })),
  };
}

const count = Number(process.argv[2] ?? 20_000);
const dir = mkdtempSync(join(tmpdir(), 'relais-bench-turns-'));
const db = openDatabase(join(dir, 'relais.db'), SCHEMA);
const writer = new TurnWriter(db);
const t0 = performance.now();
for (let i = 0; i < count; i++) {
  writer.add(turn(i));
  if (i % 50 === 49) writer.flush();
}
writer.flush();
const seconds = (performance.now() - t0) / 1000;
console.log(
  `${count} turns through the writer (with rollups) in ${seconds.toFixed(2)} s = ${Math.round(count / seconds)} turns/s, ${((seconds * 1e6) / count).toFixed(0)} µs per turn`,
);
db.close();
rmSync(dir, { recursive: true, force: true });
