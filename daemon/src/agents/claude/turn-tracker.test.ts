import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { estimateCost, priceOf } from '../kit/prices.js';
import { TurnTracker } from './turn-tracker.js';

const meta = {
  subscription_id: 'sub',
  agent: 'claude',
  model: 'claude-sonnet-4-5',
  app: 'a',
  permission_mode: 'write',
};
const assistant = (id: string, content: unknown[], extra: Record<string, unknown> = {}) => ({
  type: 'assistant',
  message: {
    id,
    model: 'claude-sonnet-4-5',
    content,
    usage: { input_tokens: 11, output_tokens: 1 },
  },
  parent_tool_use_id: null,
  ...extra,
});

describe('TurnTracker', () => {
  it('counts a repeated message id once, however many block lines carry it', () => {
    const t = new TurnTracker('s', meta);
    t.hostUser(1, 1000);
    t.assistant(assistant('m1', [{ type: 'thinking' }]), 1010);
    t.assistant(assistant('m1', [{ type: 'text', text: 'x' }]), 1011);
    t.assistant(assistant('m1', [{ type: 'tool_use', id: 'tu1', name: 'Bash' }]), 1012);
    t.assistant(assistant('m1', [{ type: 'tool_use', id: 'tu1', name: 'Bash' }]), 1013); // a replayed line
    t.permission('tu1', 'allowed');
    t.toolResults(
      {
        type: 'user',
        message: { content: [{ type: 'tool_result', tool_use_id: 'tu1', is_error: false }] },
      },
      1100,
    );
    t.assistant(assistant('m2', [{ type: 'text', text: 'done' }]), 1200);
    t.assistant(assistant('sub1', [{ type: 'text' }], { parent_tool_use_id: 'tu1' }), 1201); // subagent: not main loop
    const turn = t.result(
      {
        type: 'result',
        is_error: false,
        usage: {
          input_tokens: 22,
          output_tokens: 84,
          cache_read_input_tokens: 6,
          cache_creation_input_tokens: 10,
        },
      },
      1300,
    );
    assert.equal(turn.model_calls, 2);
    assert.equal(turn.duration_ms, 300);
    assert.equal(turn.input_tokens, 22);
    assert.equal(turn.tool_calls.length, 1);
    assert.deepEqual(
      {
        d: turn.tool_calls[0]!.duration_ms,
        p: turn.tool_calls[0]!.permission_decision,
        e: turn.tool_calls[0]!.is_error,
      },
      { d: 88, p: 'allowed', e: false },
    );
    // PROTOCOLS §1.4: this exact usage cost 0.0013653 USD in the CLI's own figure.
    assert.ok(Math.abs(turn.cost_usd! - 0.0013653) < 1e-12);
    assert.equal(t.open, false);
  });

  it('a message sent while a turn runs starts the next turn; a session ending mid-turn keeps the turn as an error', () => {
    const t = new TurnTracker('s', meta);
    t.hostUser(1, 0);
    t.hostUser(5, 50);
    const first = t.result({ type: 'result', is_error: false, usage: {} }, 100);
    assert.equal(first.turn_key, 's:1');
    assert.equal(t.open, true);
    const abandoned = t.abandon(400, 'stopped')!;
    assert.equal(abandoned.turn_key, 's:5');
    assert.equal(abandoned.started_at_ms, 50);
    assert.equal(abandoned.error_kind, 'no_result');
    assert.equal(abandoned.cost_usd, null);
  });

  it('an API failure is an error turn with its kind and message', () => {
    const t = new TurnTracker('s', meta);
    t.hostUser(1, 0);
    t.assistant(
      {
        type: 'assistant',
        error: 'server_error',
        message: { id: 'x', model: '<synthetic>', content: [] },
        parent_tool_use_id: null,
      },
      5,
    );
    const turn = t.result(
      {
        type: 'result',
        subtype: 'success',
        is_error: true,
        terminal_reason: 'api_error',
        result: 'API Error: 500',
        usage: { input_tokens: 0 },
      },
      9,
    );
    assert.equal(turn.model_calls, 0);
    assert.equal(turn.error_kind, 'api_error');
    assert.equal(turn.error_message, 'API Error: 500');
  });
});

describe('price table', () => {
  it('matches ids and dated ids, never a shorter family of another generation', () => {
    assert.equal(priceOf('claude-sonnet-4-5-20250929')?.match, 'claude-sonnet-4-5');
    assert.equal(priceOf('claude-opus-4-5-20251101')?.match, 'claude-opus-4-5');
    assert.equal(priceOf('claude-opus-4-20250514')?.match, 'claude-opus-4');
    assert.equal(priceOf('claude-opus-4-6')?.input, 5, 'Opus 4.6 is not priced as Opus 4');
    assert.equal(priceOf('claude-sonnet-5-5')?.match, 'claude-sonnet-5-5');
    assert.equal(priceOf('demo-sonnet'), null);
    assert.equal(
      estimateCost('gpt-5', { input: 1, output: 1, cache_read: 0, cache_creation: 0 }),
      null,
    );
    assert.equal(
      estimateCost('claude-haiku-4-5', {
        input: 1e6,
        output: 0,
        cache_read: 0,
        cache_creation: 1e6,
        cache_creation_1h: 1e6,
      }),
      1 + 2,
    );
  });

  it('leaves a version or alias it does not list unknown rather than borrow a neighbour price', () => {
    for (const model of ['claude-opus-4-9', 'claude-sonnet-4-5-extra', 'claude-haiku-5-5', 'opus'])
      assert.equal(priceOf(model), null, model);
  });
});
