import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openDatabase } from '../db/database.js';
import { ROLLUP_BACKFILL_SQL, ROLLUP_CLEAR_SQL } from './rollup-schema.js';
import { cellKey } from './rollup-writer.js';
import type { TurnRecord } from '../agents/turn-record.js';
import { TurnWriter } from './turn-writer.js';
import { SCHEMA } from '../schema.js';

const turn = (key: string, model: string, app: string, tool: string): TurnRecord => ({
  turn_key: key,
  session_id: `ses_${key}`,
  subscription_id: 'sub',
  agent: 'claude',
  model,
  models: [model],
  app,
  permission_mode: 'write',
  started_at_ms: Date.parse('2026-03-01T10:00:00Z'),
  ended_at_ms: Date.parse('2026-03-01T10:00:05Z'),
  duration_ms: 5000,
  model_calls: 1,
  input_tokens: 10,
  output_tokens: 20,
  cache_read_tokens: 0,
  cache_creation_tokens: 0,
  cost_usd: 0.5,
  is_error: false,
  error_kind: null,
  error_message: null,
  tool_calls: [
    {
      tool_use_id: `t-${key}`,
      tool_name: tool,
      started_at_ms: Date.parse('2026-03-01T10:00:01Z'),
      ended_at_ms: null,
      duration_ms: 100,
      is_error: false,
      permission_decision: 'allowed',
    },
  ],
});

describe('rollup writer', () => {
  it('cell keys never collide, whatever the values hold', () => {
    assert.notEqual(cellKey(['x\u0000y', 'z']), cellKey(['x', 'y\u0000z']));
    assert.notEqual(cellKey(['a', 1]), cellKey(['a\u00001']));
    assert.equal(cellKey(['a', 1, 'b']), 'a\u00001\u0000b');
  });

  it('two cells whose values would join alike stay two cells in one batch', () => {
    const home = mkdtempSync(join(tmpdir(), 'relais-rollup-writer-'));
    const db = openDatabase(join(home, 'relais.db'), SCHEMA);
    try {
      const writer = new TurnWriter(db);
      // Joined on NUL, both would read "…x␀y␀z…": a model and an app (or a tool) from a transcript.
      writer.add(turn('a', 'x\u0000y', 'z', 'T\u0000U'));
      writer.add(turn('b', 'x', 'y\u0000z', 'T'));
      writer.flush();
      const dump = (): unknown[] =>
        ['usage_rollup', 'usage_sessions', 'usage_tool_rollup', 'usage_session_days'].map((table) =>
          db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9`).raw().all(),
        );
      const written = dump();
      db.exec(ROLLUP_CLEAR_SQL);
      db.exec(ROLLUP_BACKFILL_SQL);
      assert.deepEqual(written, dump());
    } finally {
      db.close();
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('turns close together in a session, summed by group in a batch, make the cells the backfill makes', () => {
    const home = mkdtempSync(join(tmpdir(), 'relais-rollup-writer-'));
    const db = openDatabase(join(home, 'relais.db'), SCHEMA);
    try {
      const writer = new TurnWriter(db);
      const start = Date.parse('2026-03-01T23:50:00Z');
      for (let i = 0; i < 240; i++) {
        const t = turn(`g${i}`, i % 3 ? 'm1' : 'm2', 'write', ['Read', 'Bash', 'Edit'][i % 3]!);
        t.session_id = `ses_${i % 4}`;
        // Twenty minutes across midnight: five-minute slots, hours and days shared by many turns.
        t.started_at_ms = start + i * 5_000;
        t.ended_at_ms = t.started_at_ms + 1_000 + i * 37;
        t.duration_ms = 1_000 + i * 37;
        t.is_error = i % 7 === 0;
        t.cost_usd = i % 5 === 0 ? null : 0.25;
        t.tool_calls.push({
          ...t.tool_calls[0]!,
          tool_use_id: `u-${i}`,
          duration_ms: i % 2 ? null : i,
        });
        if (i % 11 === 0) t.tool_calls = [];
        writer.add(t);
      }
      writer.flush();
      const dump = (): unknown[] =>
        ['usage_rollup', 'usage_sessions', 'usage_tool_rollup', 'usage_session_days'].map((table) =>
          db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9`).raw().all(),
        );
      const written = dump();
      db.exec(ROLLUP_CLEAR_SQL);
      db.exec(ROLLUP_BACKFILL_SQL);
      assert.deepEqual(written, dump());
    } finally {
      db.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});
