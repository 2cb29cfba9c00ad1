import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openDatabase } from '../db/database.js';
import { AnalyticsRepo } from './analytics-repo.js';
import { boundTurn, TURN_BOUNDS } from './turn-bounds.js';
import { TurnTracker } from '../agents/claude/turn-tracker.js';
import { TurnWriter } from './turn-writer.js';
import type { TurnRecord } from '../agents/turn-record.js';
import { SCHEMA } from '../schema.js';

const NOW = Date.parse('2026-12-04T12:00:00.000Z');
const T = Date.parse('2026-12-01T10:00:00.000Z');

const turn = (change: Partial<TurnRecord> = {}): TurnRecord => ({
  turn_key: 'k',
  session_id: 's',
  subscription_id: 'demo',
  agent: 'claude',
  model: 'claude-sonnet-4-5',
  app: 'tests',
  permission_mode: 'write',
  models: ['claude-sonnet-4-5'],
  started_at_ms: T,
  ended_at_ms: T + 1500,
  duration_ms: 1500,
  model_calls: 2,
  input_tokens: 100,
  output_tokens: 20,
  cache_read_tokens: 0,
  cache_creation_tokens: 0,
  reasoning_tokens: null,
  cost_usd: 0.01,
  is_error: false,
  error_kind: null,
  error_message: null,
  tool_calls: [],
  ...change,
});

describe('turn bounds', () => {
  it('a plausible turn passes unchanged, error lines and all', () => {
    const plain = turn({ error_message: 'line one\n\tline two\r\n', error_kind: 'failed' });
    const { turn: bounded, clamped } = boundTurn(plain, NOW);
    assert.equal(clamped, 0);
    assert.deepEqual(bounded, plain);
  });

  it('tokens and counts: huge, negative, fractional and not finite are brought within bounds', () => {
    const values = [9e18, 1e308, -5, 1.5, Number.NaN, Infinity, -Infinity, 2 ** 63];
    for (const value of values) {
      const { turn: t, clamped } = boundTurn(
        turn({
          input_tokens: value,
          output_tokens: value,
          reasoning_tokens: value,
          model_calls: value,
        }),
        NOW,
      );
      assert.equal(clamped, 4, String(value));
      for (const n of [t.input_tokens, t.output_tokens, t.reasoning_tokens!]) {
        assert.ok(Number.isSafeInteger(n) && n >= 0 && n <= TURN_BOUNDS.tokens, `${value} → ${n}`);
      }
      assert.ok(t.model_calls <= TURN_BOUNDS.modelCalls && t.model_calls >= 0);
    }
  });

  it('cost: capped, never negative; a cost that is not finite becomes unknown (null), not 0', () => {
    assert.equal(boundTurn(turn({ cost_usd: 1e308 }), NOW).turn.cost_usd, TURN_BOUNDS.costUsd);
    assert.equal(boundTurn(turn({ cost_usd: -3 }), NOW).turn.cost_usd, 0);
    assert.equal(boundTurn(turn({ cost_usd: Infinity }), NOW).turn.cost_usd, null);
    assert.equal(boundTurn(turn({ cost_usd: Number.NaN }), NOW).turn.cost_usd, null);
    assert.equal(boundTurn(turn({ cost_usd: null }), NOW).clamped, 0);
  });

  it('times out of range move inside, and the duration is what is left between them', () => {
    const far = Date.parse('+275760-09-13T00:00:00.000Z');
    const late = boundTurn(turn({ ended_at_ms: far, duration_ms: far - T }), NOW).turn;
    assert.equal(late.ended_at_ms, NOW + TURN_BOUNDS.aheadMs);
    assert.ok(late.duration_ms <= TURN_BOUNDS.durationMs);
    const both = boundTurn(
      turn({ started_at_ms: far, ended_at_ms: far, duration_ms: 10 }),
      NOW,
    ).turn;
    assert.equal(both.started_at_ms, NOW + TURN_BOUNDS.aheadMs);
    assert.equal(both.duration_ms, 0);
    const early = boundTurn(turn({ started_at_ms: -8.64e15, duration_ms: 2e16 }), NOW).turn;
    assert.equal(early.started_at_ms, TURN_BOUNDS.earliestMs);
    assert.ok(early.duration_ms <= TURN_BOUNDS.durationMs);
    const slow = boundTurn(turn({ duration_ms: 9e18 }), NOW).turn;
    assert.equal(slow.duration_ms, TURN_BOUNDS.durationMs);
  });

  it('names off their rule are recorded as unknown; tool calls are bounded too', () => {
    const { turn: t, clamped } = boundTurn(
      turn({
        model: '=HYPERLINK("http://x","y")',
        models: ['ok-model', 'bad\u0000model'],
        app: 'app\u202Eevil',
        tool_calls: [
          {
            tool_use_id: 'id\u0007',
            tool_name: "=cmd|' /C calc'!A0",
            started_at_ms: T,
            ended_at_ms: 8.64e15,
            duration_ms: 8.64e15,
            is_error: null,
            permission_decision: null,
          },
        ],
      }),
      NOW,
    );
    assert.equal(t.model, 'unknown');
    assert.deepEqual(t.models, ['ok-model', 'unknown']);
    assert.equal(t.app, 'unknown');
    assert.equal(t.tool_calls[0]!.tool_name, 'unknown');
    assert.equal(t.tool_calls[0]!.tool_use_id, 'id ');
    assert.ok(t.tool_calls[0]!.duration_ms! <= TURN_BOUNDS.durationMs);
    assert.ok(clamped >= 6);
    for (const name of ['Bash', 'mcp__docs__find', 'apply_patch', 'web.run'])
      assert.equal(
        boundTurn(
          turn({
            tool_calls: [{ ...t.tool_calls[0]!, tool_name: name, ended_at_ms: T, duration_ms: 0 }],
          }),
          NOW,
        ).turn.tool_calls[0]!.tool_name,
        name,
      );
    for (const model of ['claude-opus-4-1[1m]', 'gpt-5.1-codex', 'vendor/model:tag', 'demo-sonnet'])
      assert.equal(boundTurn(turn({ model }), NOW).turn.model, model);
  });
});

describe('live agent output', () => {
  it('a result line with 9e18 tokens and a 1e308 cost is recorded bounded; rollup and raw answers agree', () => {
    const dir = mkdtempSync(join(tmpdir(), 'relais-live-bounds-'));
    const db = openDatabase(join(dir, 'relais.db'), SCHEMA);
    try {
      const clamped: number[] = [];
      const writer = new TurnWriter(db, { onClamped: (_turn, n) => clamped.push(n) });
      const meta = {
        subscription_id: 'demo',
        agent: 'claude',
        model: 'claude-sonnet-4-5',
        app: 'tests',
        permission_mode: 'write',
      };
      for (let k = 0; k < 3; k++) {
        const tracker = new TurnTracker(`s${k}`, meta);
        const at = Date.now() - 60_000 + k * 1000;
        tracker.hostUser(1, at);
        tracker.assistant(
          {
            type: 'assistant',
            message: {
              id: `m${k}`,
              model: 'claude-sonnet-4-5',
              content: [],
              usage: { input_tokens: 9e18, output_tokens: 1e308 },
            },
            parent_tool_use_id: null,
          },
          at + 10,
        );
        const turn = tracker.result(
          {
            type: 'result',
            is_error: false,
            total_cost_usd: 1e308,
            usage: {
              input_tokens: 9e18,
              output_tokens: 1e308,
              cache_read_input_tokens: 9.2e18,
              cache_creation_input_tokens: -1,
            },
          },
          at + 20,
        );
        writer.write(turn);
      }
      assert.ok(clamped.length === 3 && clamped.every((n) => n >= 3), `${clamped}`);
      const filter = {
        from: new Date(Date.now() - 3_600_000).toISOString(),
        to: new Date(Date.now() + 60_000).toISOString(),
      };
      const raw = new AnalyticsRepo(db).summary(filter as never);
      const fromRollups = new AnalyticsRepo(db, () => undefined, 0).summary(filter as never);
      for (const summary of [raw, fromRollups]) {
        assert.equal(summary.turns, 3);
        assert.equal(summary.tokens.input, 3 * TURN_BOUNDS.tokens);
        assert.ok(Number.isFinite(summary.cost.estimate_usd));
      }
      assert.equal(fromRollups.tokens.output, raw.tokens.output);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
