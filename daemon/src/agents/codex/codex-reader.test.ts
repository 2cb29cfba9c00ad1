import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StoredEvent } from '../../events/stored-event.js';
import { codexReader } from './codex-reader.js';

const meta = {
  subscription_id: 'sub',
  agent: 'codex',
  model: 'gpt-5.1-codex',
  app: 'a',
  permission_mode: 'write',
};
let seq = 0;
const stored = (source: StoredEvent['source'], line: unknown, at = 0): StoredEvent => ({
  session_id: 'ses_1',
  seq: ++seq,
  received_at_ms: at,
  source,
  data: typeof line === 'string' ? line : JSON.stringify(line),
});
const rpc = (method: string, params: unknown) => ({ method, params });
const item = (method: string, value: Record<string, unknown>) => rpc(method, { item: value });

describe("Codex's reader (through the contract decoder)", () => {
  it('counts a turn: its model, token reports, tools by the names analytics knows', () => {
    const counter = codexReader.turnCounter('s', meta);
    const hear = (source: StoredEvent['source'], line: unknown, at: number) =>
      counter.hear(stored(source, line, at));
    hear('agent', rpc('thread/started', { thread: { model: 'gpt-5-codex' } }), 1);
    const start = stored(
      'host',
      rpc('turn/start', { input: [{ type: 'text', text: 'go' }] }),
      1000,
    );
    counter.hear(start);
    hear('host', rpc('turn/start', { input: [] }), 1001); // a second start joins the open turn
    const tools: Record<string, unknown>[] = [
      { id: 'c1', type: 'commandExecution', command: "bash -lc 'ls'" },
      { id: 'c2', type: 'fileChange', changes: [{ path: 'a', kind: { type: 'add' } }] },
      { id: 'c3', type: 'mcpToolCall', server: 'srv', tool: 't' },
      { id: 'c4', type: 'webSearch' },
      { id: 'c5', type: 'dynamicToolCall' },
      { id: 'c6', type: 'imageView' },
      { type: 'commandExecution', command: 'no id' },
    ];
    for (const tool of tools) hear('agent', item('item/started', tool), 1010);
    hear('agent', rpc('item/agentMessage/delta', { itemId: 'm', delta: 'x' }), 1020);
    const usage = (inputTokens: number) =>
      rpc('thread/tokenUsage/updated', {
        tokenUsage: {
          last: {
            inputTokens,
            cachedInputTokens: 4,
            outputTokens: 3,
            reasoningOutputTokens: 2,
            cacheWriteInputTokens: 1,
          },
        },
      });
    hear('agent', usage(10), 1030);
    hear('agent', usage(2), 1031); // cached beyond the input: none uncached
    hear('agent', item('item/completed', { ...tools[0], status: 'completed' }), 1100);
    hear('agent', item('item/completed', { ...tools[1], status: 'failed' }), 1200);
    const turn = hear('agent', rpc('turn/completed', { turn: { status: 'completed' } }), 1300)!;
    assert.equal(turn.turn_key, `s:${start.seq}`);
    assert.deepEqual(
      [turn.model, turn.model_calls, turn.input_tokens, turn.cache_read_tokens],
      ['gpt-5-codex', 2, 6, 8],
    );
    assert.deepEqual(
      [turn.output_tokens, turn.reasoning_tokens, turn.cache_creation_tokens],
      [6, 4, 2],
    );
    assert.deepEqual(
      turn.tool_calls.map((c) => [c.tool_use_id, c.tool_name, c.duration_ms, c.is_error]),
      [
        ['c1', 'Bash', 90, false],
        ['c2', 'Edit', 190, true],
        ['c3', 'mcp', null, null],
        ['c4', 'WebSearch', null, null],
        ['c5', 'tool', null, null],
      ],
    );
    assert.equal(turn.is_error, false);
  });

  it('names a failed turn, counts nothing outside a turn, and keeps an interrupted one no error', () => {
    const counter = codexReader.turnCounter('s', meta);
    counter.hear(stored('agent', item('item/started', { id: 'c', type: 'commandExecution' })));
    counter.hear(stored('host', rpc('turn/start', { input: [] })));
    const failed = counter.hear(
      stored('agent', rpc('turn/completed', { turn: { status: 'failed', error: {} } })),
    )!;
    assert.deepEqual(
      [failed.is_error, failed.error_kind, failed.error_message, failed.tool_calls.length],
      [true, 'failed', 'the turn failed', 0],
    );
    assert.equal(failed.reasoning_tokens, null, 'no token report: unknown');
    counter.hear(stored('host', rpc('turn/start', { input: [] })));
    const stopped = counter.hear(
      stored('agent', rpc('turn/completed', { turn: { status: 'interrupted' } })),
    )!;
    assert.deepEqual([stopped.is_error, stopped.error_kind], [false, null]);
    assert.equal(counter.hear(stored('agent', '{"method":"turn/completed", broken')), null);
  });

  it("reads the rate limits' windows by Claude's names, a null window none", () => {
    const line = rpc('account/rateLimits/updated', {
      rateLimits: {
        limitId: 'codex',
        primary: { usedPercent: 12, windowDurationMins: 300, resetsAt: 10 },
        secondary: null,
      },
    });
    assert.deepEqual(codexReader.quotaReadings(stored('agent', line, 5)), [
      {
        window: 'five_hour',
        utilization: 12,
        resets_at_ms: 10_000,
        read_at_ms: 5,
        source: 'stream',
      },
    ]);
    const other = rpc('account/rateLimits/updated', {
      rateLimits: {
        limitId: 'gpt-x',
        primary: { usedPercent: 1, windowDurationMins: 10080 },
        secondary: { usedPercent: 2, windowDurationMins: 60 },
      },
    });
    assert.deepEqual(
      codexReader.quotaReadings(stored('agent', other)).map((r) => r.window),
      ['gpt-x_seven_day', 'gpt-x_60_minutes'],
    );
    assert.deepEqual(codexReader.quotaReadings(stored('host', line)), []);
  });
});
