/**
 * Seeds a SQLite file with synthetic usage: `node dist/daemon/daemon/bench/seed-usage.js [file] [turns]`
 * (defaults: a temp file, 1,000,000 turns over 90 days, 5 subscriptions, 6 models, 10 apps, 20 tools).
 * Prints the file path. Deterministic (seeded PRNG). A tool call carries its turn's dimensions, as the writer copies them.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/db/database.js';
import { TOOL_CALL_COUNT_BACKFILL_SQL } from '../src/db/migrations.js';
import { estimateCost } from '../src/agents/kit/prices.js';
import { ROLLUP_BACKFILL_SQL, ROLLUP_CLEAR_SQL } from '../src/usage/rollup-schema.js';
import { prng } from '../src/testing/prng.js';
import { SCHEMA } from '../src/schema.js';

const MODELS = [
  'claude-sonnet-4-5',
  'claude-opus-4-5',
  'claude-haiku-4-5',
  'claude-sonnet-4',
  'claude-opus-4-1',
  'internal-experimental',
];
const SUBSCRIPTIONS = Array.from({ length: 5 }, (_, i) => `sub_${i + 1}`);
const APPS = Array.from({ length: 10 }, (_, i) => `app-${i + 1}`);
const TOOLS = [
  'Bash',
  'Read',
  'Write',
  'Edit',
  'Glob',
  'Grep',
  'WebFetch',
  'WebSearch',
  'Task',
  'TodoWrite',
  'NotebookEdit',
  'MultiEdit',
  'LS',
  'AskUserQuestion',
  'mcp__git__status',
  'mcp__git__diff',
  'mcp__db__query',
  'mcp__fs__list',
  'KillShell',
  'BashOutput',
];
const DECISIONS = ['allowed', 'auto_allowed', 'not_asked', 'denied', 'auto_denied'];

export function seedUsage(
  file: string,
  count: number,
  endMs = Date.parse('2026-06-01T00:00:00.000Z'),
): void {
  const db = openDatabase(file, SCHEMA);
  db.pragma('synchronous = OFF');
  const rand = prng(42);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const startMs = endMs - 90 * 86_400_000;
  const turn =
    db.prepare(`INSERT INTO turns (turn_key, session_id, subscription_id, agent, model, models, app, permission_mode,
    started_at_ms, ended_at_ms, duration_ms, model_calls, input_tokens, output_tokens, cache_read_tokens, cache_creation_tokens,
    cost_usd, is_error, error_kind, error_message) VALUES (?, ?, ?, 'claude', ?, ?, ?, 'write', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const tool =
    db.prepare(`INSERT INTO tool_calls (turn_id, session_id, tool_use_id, tool_name, started_at_ms, ended_at_ms, duration_ms,
    is_error, permission_decision, subscription_id, agent, model, app, turn_started_at_ms, turn_is_error)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'claude', ?, ?, ?, ?)`);
  const batch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const started = startMs + Math.floor(((endMs - startMs) * i) / count);
      const session = `ses_${Math.floor(i / 8)}`;
      const model = MODELS[Math.floor(i / 8) % MODELS.length]!;
      const duration = Math.floor(500 + rand() ** 3 * 120_000);
      const calls = 1 + Math.floor(rand() * 4);
      const input = 100 + Math.floor(rand() * 5000);
      const output = 20 + Math.floor(rand() * 2000);
      const read = Math.floor(rand() * 40_000);
      const creation = Math.floor(rand() * 3000);
      const error = rand() < 0.03;
      const cost = estimateCost(model, {
        input,
        output,
        cache_read: read,
        cache_creation: creation,
      });
      const app = pick(APPS);
      const turnId = Number(
        turn.run(
          `${session}:${i}`,
          session,
          SUBSCRIPTIONS[Math.floor(i / 8) % 5],
          model,
          model,
          app,
          started,
          started + duration,
          duration,
          calls,
          input,
          output,
          read,
          creation,
          cost,
          error ? 1 : 0,
          error ? 'api_error' : null,
          error ? 'API Error: 529 {"type":"overloaded_error"}' : null,
        ).lastInsertRowid,
      );
      for (let c = 0, n = Math.floor(rand() * 3); c < n; c++) {
        const toolDuration = Math.floor(20 + rand() * 5000);
        tool.run(
          turnId,
          session,
          `toolu_${i}_${c}`,
          pick(TOOLS),
          started + 10,
          started + 10 + toolDuration,
          toolDuration,
          rand() < 0.05 ? 1 : 0,
          pick(DECISIONS),
          SUBSCRIPTIONS[Math.floor(i / 8) % 5],
          model,
          app,
          started,
          error ? 1 : 0,
        );
      }
    }
  });
  for (let i = 0; i < count; i += 50_000) batch(i, Math.min(count, i + 50_000));
  db.exec(TOOL_CALL_COUNT_BACKFILL_SQL);
  // Rows went in without the writer, so the rollups are rebuilt as migration 5 builds them.
  db.transaction(() => db.exec(`${ROLLUP_CLEAR_SQL}\n${ROLLUP_BACKFILL_SQL}`))();
  db.exec('ANALYZE');
  db.close();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = process.argv[2] ?? join(mkdtempSync(join(tmpdir(), 'relais-seed-')), 'relais.db');
  const count = Number(process.argv[3] ?? 1_000_000);
  const t0 = Date.now();
  seedUsage(file, count);
  process.stderr.write(`seeded ${count} turns in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  process.stdout.write(`${file}\n`);
}
