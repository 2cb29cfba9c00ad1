import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StoredEvent } from '../../events/stored-event.js';
import { claudeReader } from './claude-reader.js';

const meta = {
  subscription_id: 'sub',
  agent: 'claude',
  model: 'claude-sonnet-4-5',
  app: 'a',
  permission_mode: 'write',
};
let seq = 0;
const stored = (source: StoredEvent['source'], line: unknown, at = ++seq): StoredEvent => ({
  session_id: 'ses_1',
  seq: ++seq,
  received_at_ms: at,
  source,
  data: typeof line === 'string' ? line : JSON.stringify(line),
});
const prompt = { type: 'user', message: { role: 'user', content: 'go' } };
const call = (id: string, tools: string[], model = 'claude-sonnet-4-5') => ({
  type: 'assistant',
  message: {
    id,
    model,
    content: tools.map((tool) => ({ type: 'tool_use', id: tool, name: 'Bash', input: {} })),
  },
  parent_tool_use_id: null,
});

describe("Claude's reader (through the contract decoder)", () => {
  it("counts a turn from Relais' prompt to the result: calls, tools, the agent's own permissions", () => {
    const counter = claudeReader.turnCounter('s', meta);
    const heard = (source: StoredEvent['source'], line: unknown, at?: number) =>
      counter.hear(stored(source, line, at));
    const asked = stored('host', prompt, 1000);
    assert.equal(counter.hear(asked), null);
    heard('agent', call('m1', ['tu1', 'tu2']), 1010);
    heard('agent', call('m1', ['tu1']), 1011); // the same message's next block line
    heard('agent', '{"type":"assistant", not json', 1012);
    const results = {
      type: 'user',
      tool_result_meta: [
        { id: 'tu1', permission_decision: { source: 'config' } },
        { id: 'tu2', permission_decision: { source: 'user_reject' } },
      ],
      message: {
        content: [
          { type: 'tool_result', tool_use_id: 'tu1', content: 'ok' },
          { type: 'tool_result', tool_use_id: 'tu2', content: 'no', is_error: true },
        ],
      },
    };
    heard('agent', results, 1100);
    heard('agent', call('m2', []), 1200);
    const turn = heard(
      'agent',
      { type: 'result', is_error: false, usage: { input_tokens: 10, output_tokens: 5 } },
      1300,
    )!;
    assert.equal(turn.turn_key, `s:${asked.seq}`);
    assert.deepEqual(
      [turn.model_calls, turn.duration_ms, turn.input_tokens, turn.output_tokens],
      [2, 300, 10, 5],
    );
    assert.deepEqual(
      turn.tool_calls.map((c) => [c.tool_use_id, c.duration_ms, c.is_error, c.permission_decision]),
      [
        ['tu1', 90, false, 'not_asked'],
        ['tu2', 90, true, 'denied'],
      ],
    );
    assert.ok(turn.cost_usd! > 0);
  });

  it("names a failed turn by its reason, else the API's error, else its subtype; its message from its errors", () => {
    const counter = claudeReader.turnCounter('s', meta);
    counter.hear(stored('host', prompt));
    counter.hear(
      stored('agent', {
        type: 'assistant',
        error: 'rate_limit',
        message: { id: 'x', model: '<synthetic>', content: [{ type: 'text', text: 'limit' }] },
      }),
    );
    const failed = counter.hear(
      stored('agent', {
        type: 'result',
        subtype: 'success',
        is_error: true,
        errors: ['one', 'two'],
      }),
    )!;
    assert.deepEqual(
      [failed.error_kind, failed.error_message, failed.model_calls, failed.cost_usd],
      ['rate_limit', 'one; two', 0, null],
    );
    counter.hear(stored('host', prompt));
    const bySubtype = counter.hear(
      stored('agent', { type: 'result', subtype: 'error_max_turns', is_error: true, errors: [] }),
    )!;
    assert.deepEqual([bySubtype.error_kind, bySubtype.error_message], ['error_max_turns', '']);
    // An interrupted turn the agent does not call an error is none.
    counter.hear(stored('host', prompt));
    const stopped = counter.hear(
      stored('agent', { type: 'result', is_error: false, terminal_reason: 'aborted_streaming' }),
    )!;
    assert.deepEqual([stopped.is_error, stopped.error_kind], [false, null]);
  });

  it('ends the turn on a result line that lies about its fields, as an error of unknown cost', () => {
    const counter = claudeReader.turnCounter('s', meta);
    counter.hear(stored('host', prompt));
    const turn = counter.hear(
      stored('agent', { type: 'result', is_error: 'no', usage: { input_tokens: 5 } }),
    )!;
    assert.deepEqual(
      [turn.is_error, turn.error_kind, turn.input_tokens, turn.cost_usd],
      [true, 'unreadable_result', 0, null],
    );
    assert.equal(counter.abandon(9, 'stopped'), null, 'the turn was closed');
  });

  it("keeps the agent's own word on a permission that is a prototype key as a word", () => {
    const counter = claudeReader.turnCounter('s', meta);
    counter.hear(stored('host', prompt));
    counter.hear(stored('agent', call('m1', ['tu1', 'tu2'])));
    const meta_ = (id: string, source: string) => ({ id, permission_decision: { source } });
    counter.hear(
      stored('agent', {
        type: 'user',
        tool_result_meta: [meta_('tu1', 'constructor'), meta_('tu2', '__proto__')],
        message: {
          content: ['tu1', 'tu2'].map((id) => ({ type: 'tool_result', tool_use_id: id })),
        },
      }),
    );
    const turn = counter.hear(stored('agent', { type: 'result', is_error: false }))!;
    assert.deepEqual(
      turn.tool_calls.map((c) => c.permission_decision),
      ['constructor', '__proto__'],
    );
  });

  it('skips lines nothing counts, and host lines that are no prompt', () => {
    const counter = claudeReader.turnCounter('s', meta);
    for (const line of [
      { type: 'system', subtype: 'init', model: 'x' },
      { type: 'stream_event', event: {} },
      { type: 'result', is_error: false },
      'plain text',
    ])
      assert.equal(counter.hear(stored('host', line)), null);
    assert.equal(counter.hear(stored('agent', { type: 'system', subtype: 'init' })), null);
    assert.equal(counter.abandon(5, 'stopped'), null, 'no turn was opened');
  });

  it("reads a rate_limit_event's windows as quota readings, nothing from a broken one", () => {
    const line = {
      type: 'rate_limit_event',
      rate_limit_info: { unifiedWindows: { five_hour: { utilization: 0.5, resetsAt: 10 } } },
    };
    assert.deepEqual(claudeReader.quotaReadings(stored('agent', line, 77)), [
      {
        window: 'five_hour',
        utilization: 50,
        resets_at_ms: 10_000,
        read_at_ms: 77,
        source: 'stream',
      },
    ]);
    assert.deepEqual(claudeReader.quotaReadings(stored('host', line)), []);
    assert.deepEqual(
      claudeReader.quotaReadings(stored('agent', '{"type":"rate_limit_event",')),
      [],
    );
  });
});
