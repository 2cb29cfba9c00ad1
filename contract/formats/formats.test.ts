import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decoderFor, type DecodedItem } from './index.js';

const claude = decoderFor('claude');
const codex = decoderFor('codex');
const kinds = (items: DecodedItem[]) => items.map((item) => item.kind);

describe('Claude Code lines', () => {
  it('reads an assistant line as its text, thinking, tool calls and the model call', () => {
    const items = claude(
      {
        type: 'assistant',
        message: {
          id: 'msg1',
          model: 'claude-x',
          content: [
            { type: 'thinking', thinking: 'hm' },
            { type: 'text', text: 'hello' },
            { type: 'tool_use', id: 'tu1', name: 'Bash', input: { command: 'ls' } },
          ],
          usage: { input_tokens: 3, output_tokens: 4, cache_read_input_tokens: 5 },
        },
      },
      'agent',
    );
    assert.deepEqual(items, [
      { kind: 'thinking', text: 'hm', sub: false },
      { kind: 'text', text: 'hello', sub: false, id: null, final: true },
      { kind: 'tool_call', id: 'tu1', name: 'Bash', input: { command: 'ls' }, sub: false },
      {
        kind: 'model_call',
        id: 'msg1',
        model: 'claude-x',
        sub: false,
        error: null,
        tokens: {
          input: 3,
          output: 4,
          cacheRead: 5,
          cacheCreation: 0,
          cacheCreation1h: 0,
          reasoning: null,
        },
      },
    ]);
  });

  it("reads an assistant line's usage as given, and none when it lies about its shape", () => {
    const call = (usage: unknown) =>
      claude(
        { type: 'assistant', message: { id: 'm', model: 'claude-x', content: [], usage } },
        'agent',
      ).at(-1) as { tokens: unknown };
    assert.deepEqual(
      call({
        input_tokens: -2,
        output_tokens: 1e999,
        cache_read_input_tokens: '7',
        cache_creation_input_tokens: 4,
        cache_creation: { ephemeral_1h_input_tokens: 3 },
        ['__proto__']: { input_tokens: 9 },
      }).tokens,
      { input: -2, output: 0, cacheRead: 0, cacheCreation: 4, cacheCreation1h: 3, reasoning: null },
    );
    for (const usage of [undefined, null, 5, 'x', [1, 2]]) assert.equal(call(usage).tokens, null);
    const cyclic: Record<string, unknown> = { input_tokens: 1 };
    cyclic['cache_creation'] = cyclic;
    assert.equal((call(cyclic).tokens as { cacheCreation1h: number }).cacheCreation1h, 0);
  });

  it('reads a synthetic message as a model call that did not reach the model', () => {
    const synthetic = {
      type: 'assistant',
      error: 'rate_limit',
      message: { id: 'x', model: '<synthetic>', content: [{ type: 'text', text: 'limit' }] },
    };
    assert.deepEqual(claude(synthetic, 'agent').at(-1), {
      kind: 'model_call',
      id: null,
      model: null,
      sub: false,
      error: 'rate_limit',
      tokens: null,
    });
    const unnamed = claude({ ...synthetic, error: 5 }, 'agent').at(-1) as { error: string };
    assert.equal(unnamed.error, 'api_error');
    // Only the agent's own lines are its calls.
    assert.deepEqual(kinds(claude(synthetic, 'host')), ['other']);
  });

  it("reads how each call of a line's results was let through", () => {
    const line = {
      type: 'user',
      tool_result_meta: [
        { id: 'tu1', permission_decision: { source: 'config' } },
        { id: 'tu2', permission_decision: { source: 7 } },
        { id: 3, permission_decision: { source: 'hook' } },
        null,
      ],
      message: { content: [{ type: 'tool_result', tool_use_id: 'tu1', content: 'ok' }] },
    };
    assert.deepEqual(kinds(claude(line, 'agent')), ['tool_permission', 'tool_result']);
    assert.deepEqual(claude(line, 'agent')[0], {
      kind: 'tool_permission',
      id: 'tu1',
      source: 'config',
    });
  });

  it("reads a quota's windows from a rate_limit_event, a fraction made a percent", () => {
    const unified = {
      type: 'rate_limit_event',
      rate_limit_info: {
        rateLimitType: 'five_hour',
        utilization: 0.9,
        unifiedWindows: {
          five_hour: { utilization: 0.25, resetsAt: 100 },
          seven_day: { utilization: 0.5 },
          broken: { utilization: '1' },
          alsoBroken: 4,
        },
      },
    };
    assert.deepEqual(claude(unified, 'agent'), [
      { kind: 'quota', window: 'five_hour', percent: 25, resetsAtMs: 100_000 },
      { kind: 'quota', window: 'seven_day', percent: 50, resetsAtMs: null },
    ]);
    const binding = {
      type: 'rate_limit_event',
      rate_limit_info: { rateLimitType: 'seven_day', utilization: 1.2, resetsAt: 'soon' },
    };
    assert.deepEqual(claude(binding, 'agent'), [
      { kind: 'quota', window: 'seven_day', percent: 120, resetsAtMs: null },
    ]);
    const { rateLimitType: _, ...unnamed } = binding.rate_limit_info;
    assert.deepEqual(kinds(claude({ ...binding, rate_limit_info: unnamed }, 'agent')), ['other']);
    assert.deepEqual(kinds(claude(binding, 'host')), ['other']);
  });

  it("tells a person's prompt from tool results, and a sub-agent's lines", () => {
    assert.deepEqual(claude({ type: 'user', message: { content: 'hi' } }, 'host'), [
      { kind: 'user', text: 'hi', steer: false },
    ]);
    // The same line from the agent is no prompt unless a transcript holds it as one.
    assert.deepEqual(kinds(claude({ type: 'user', message: { content: 'hi' } }, 'agent')), [
      'other',
    ]);
    const transcript = {
      type: 'user',
      sessionId: 's',
      message: {
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
    };
    assert.deepEqual(claude(transcript, 'agent'), [{ kind: 'user', text: 'a\nb', steer: false }]);
    assert.deepEqual(kinds(claude({ ...transcript, isMeta: true }, 'agent')), ['other']);
    const result = claude(
      {
        type: 'user',
        parent_tool_use_id: 'task1',
        message: {
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'tu1',
              content: [{ type: 'text', text: 'x' }, { type: 'image' }],
              is_error: true,
            },
          ],
        },
        tool_use_result: { stdout: 'x' },
      },
      'agent',
    );
    assert.deepEqual(result, [
      {
        kind: 'tool_result',
        id: 'tu1',
        output: 'x\n[image]',
        isError: true,
        sub: true,
        call: null,
        detail: { stdout: 'x' },
      },
    ]);
  });

  it('reads the context line and the end of a turn', () => {
    assert.deepEqual(claude({ type: 'system', subtype: 'init' }, 'agent'), [{ kind: 'init' }]);
    assert.deepEqual(
      claude(
        {
          type: 'result',
          is_error: true,
          terminal_reason: 'aborted_tools',
          duration_ms: 9,
          total_cost_usd: 0.5,
        },
        'agent',
      ),
      [
        {
          kind: 'turn_end',
          outcome: 'interrupted',
          isError: true,
          durationMs: 9,
          costUsd: 0.5,
          text: null,
          tokens: null,
          reason: 'aborted_tools',
          category: null,
          errors: null,
        },
      ],
    );
    const [end] = claude(
      {
        type: 'result',
        subtype: 'error_during_execution',
        is_error: true,
        errors: ['a', { b: 1 }],
        usage: {
          input_tokens: 3,
          output_tokens: 4,
          cache_read_input_tokens: 5,
          cache_creation_input_tokens: -1,
          cache_creation: { ephemeral_1h_input_tokens: 2 },
        },
      },
      'agent',
    );
    assert.deepEqual(
      { ...end, kind: 'turn_end' },
      {
        kind: 'turn_end',
        outcome: 'failed',
        isError: true,
        durationMs: null,
        costUsd: null,
        text: null,
        // The turn's own counts, as given: bounding them is the recorder's business.
        tokens: {
          input: 3,
          output: 4,
          cacheRead: 5,
          cacheCreation: -1,
          cacheCreation1h: 2,
          reasoning: null,
        },
        reason: null,
        category: 'error_during_execution',
        errors: ['a', '{"b":1}'],
      },
    );
    assert.equal(
      (claude({ type: 'result', is_error: true, result: 'no' }, 'agent')[0] as { outcome: string })
        .outcome,
      'failed',
    );
  });
});

describe('Codex lines', () => {
  it('reads the app server: turns, streamed messages, tools and their results', () => {
    assert.deepEqual(
      codex({ method: 'turn/steer', params: { input: [{ text: 'a' }, { text: 'b' }] } }, 'host'),
      [{ kind: 'user', text: 'a\nb', steer: true }],
    );
    const item = (method: string, value: Record<string, unknown>) =>
      codex({ method, params: { item: value } }, 'agent');
    assert.deepEqual(item('item/started', { type: 'agentMessage', id: 'm', text: '' }), [
      { kind: 'text', text: '', sub: false, id: 'm', final: false },
    ]);
    assert.deepEqual(
      codex({ method: 'item/agentMessage/delta', params: { itemId: 'm', delta: 'he' } }, 'agent'),
      [{ kind: 'text_delta', id: 'm', text: 'he' }],
    );
    assert.deepEqual(
      item('item/started', {
        type: 'commandExecution',
        id: 'c',
        command: "/bin/bash -lc 'echo '\\''hi'\\'''",
      }),
      [{ kind: 'tool_call', id: 'c', name: 'Bash', input: { command: "echo 'hi'" }, sub: false }],
    );
    const done = item('item/completed', {
      type: 'commandExecution',
      id: 'c',
      command: 'ls',
      status: 'failed',
      aggregatedOutput: 'boom',
    });
    assert.deepEqual(kinds(done), ['tool_result']);
    assert.deepEqual(
      { ...done[0], detail: null },
      {
        kind: 'tool_result',
        id: 'c',
        output: 'boom',
        isError: true,
        sub: false,
        call: { name: 'Bash', input: { command: 'ls' } },
        detail: null,
      },
    );
    const write = item('item/started', {
      type: 'fileChange',
      id: 'f',
      changes: [{ path: 'a.txt', kind: { type: 'add' }, diff: 'x' }],
    });
    assert.deepEqual(write, [
      {
        kind: 'tool_call',
        id: 'f',
        name: 'Write',
        input: { file_path: 'a.txt', content: 'x' },
        sub: false,
      },
    ]);
    assert.deepEqual(
      codex(
        {
          method: 'turn/completed',
          params: { turn: { status: 'failed', error: { message: 'quota' } } },
        },
        'agent',
      ),
      [
        {
          kind: 'turn_end',
          outcome: 'failed',
          isError: true,
          durationMs: null,
          costUsd: null,
          text: 'quota',
          tokens: null,
          reason: null,
          category: null,
          errors: null,
        },
      ],
    );
    assert.deepEqual(kinds(codex({ method: 'error', params: { willRetry: true } }, 'agent')), [
      'other',
    ]);
  });

  it('reads the model, each model call with its tokens, and the rate limits', () => {
    assert.deepEqual(
      codex({ method: 'thread/started', params: { thread: { model: 'm' } } }, 'agent'),
      [{ kind: 'model', model: 'm' }],
    );
    const last = {
      inputTokens: 3,
      cachedInputTokens: 5,
      outputTokens: 'x',
      reasoningOutputTokens: 1,
    };
    assert.deepEqual(
      codex({ method: 'thread/tokenUsage/updated', params: { tokenUsage: { last } } }, 'agent'),
      [
        {
          kind: 'model_call',
          id: null,
          model: null,
          sub: false,
          error: null,
          tokens: {
            input: 0,
            output: 0,
            cacheRead: 5,
            cacheCreation: 0,
            cacheCreation1h: 0,
            reasoning: 1,
          },
        },
      ],
    );
    const limits = {
      limitId: 'codex',
      primary: { usedPercent: 40, windowDurationMins: 300, resetsAt: 2 },
      secondary: { usedPercent: null, windowDurationMins: 10080 },
    };
    assert.deepEqual(
      codex({ method: 'account/rateLimits/updated', params: { rateLimits: limits } }, 'agent'),
      [{ kind: 'quota', window: 'five_hour', percent: 40, resetsAtMs: 2000 }],
    );
    // Relais writes none of these: from the host they say nothing.
    assert.deepEqual(
      kinds(codex({ method: 'thread/started', params: { thread: { model: 'm' } } }, 'host')),
      ['other'],
    );
  });

  it("reads a rollout's prompts, replies and calls, not Codex's own context", () => {
    const line = (payload: Record<string, unknown>) =>
      codex({ timestamp: 't', type: 'response_item', payload }, 'agent');
    assert.deepEqual(
      line({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix it' }] }),
      [{ kind: 'user', text: 'fix it', steer: false }],
    );
    assert.deepEqual(
      kinds(
        line({
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: '<environment_context>' }],
        }),
      ),
      ['other'],
    );
    assert.deepEqual(
      line({ type: 'function_call', call_id: 'k', name: 'shell', arguments: '{"command":["ls"]}' }),
      [{ kind: 'tool_call', id: 'k', name: 'shell', input: { command: ['ls'] }, sub: false }],
    );
    assert.deepEqual(
      line({ type: 'custom_tool_call', call_id: 'p', name: 'apply_patch', input: '*** Begin' }),
      [
        {
          kind: 'tool_call',
          id: 'p',
          name: 'apply_patch',
          input: { input: '*** Begin' },
          sub: false,
        },
      ],
    );
    assert.deepEqual(line({ type: 'function_call_output', call_id: 'k', output: { ok: 1 } })[0], {
      kind: 'tool_result',
      id: 'k',
      output: '{"ok":1}',
      isError: false,
      sub: false,
      call: null,
      detail: { ok: 1 },
    });
    assert.deepEqual(line({ type: 'web_search_call', id: 'w', action: { query: 'zod' } }), [
      { kind: 'tool_call', id: 'w', name: 'web_search_call', input: { query: 'zod' }, sub: false },
    ]);
  });

  it("reads a rollout's model and each model call's tokens, the cached part out of the input", () => {
    const line = (type: string, payload: unknown) =>
      codex({ timestamp: 't', type, payload }, 'agent');
    assert.deepEqual(line('turn_context', { model: 'gpt-x', cwd: '/w' }), [
      { kind: 'model', model: 'gpt-x' },
    ]);
    assert.deepEqual(kinds(line('turn_context', { model: 7 })), ['other']);
    const tokens = (input: number, output: number, cacheRead: number, reasoning: number) => ({
      input,
      output,
      cacheRead,
      cacheCreation: 0,
      cacheCreation1h: 0,
      reasoning,
    });
    const usage = {
      input_tokens: 10,
      cached_input_tokens: 4,
      output_tokens: 3,
      reasoning_output_tokens: 2,
    };
    assert.deepEqual(line('token_usage_record', { response_id: 'r1', usage }), [
      {
        kind: 'model_call',
        id: 'r1',
        model: null,
        sub: false,
        error: null,
        tokens: tokens(6, 3, 4, 2),
      },
    ]);
    const counted = (info: unknown) =>
      (line('event_msg', { type: 'token_count', info })[0] as { tokens?: unknown }).tokens;
    assert.deepEqual(counted({ last_token_usage: usage }), tokens(6, 3, 4, 2));
    // Cached more than the input, negative or non-finite counts: never a negative input.
    assert.deepEqual(
      counted({
        last_token_usage: { input_tokens: 5, cached_input_tokens: 9, output_tokens: -1 },
      }),
      tokens(0, -1, 5, 0),
    );
    assert.deepEqual(
      counted({ last_token_usage: { input_tokens: -5, cached_input_tokens: 1e999 } }),
      tokens(0, 0, 0, 0),
    );
    assert.deepEqual(
      counted({ last_token_usage: { input_tokens: 8, cached_input_tokens: -3 } }),
      tokens(8, 0, 0, 0),
    );
    // A report that is not one: no call.
    assert.equal(counted(null), undefined);
    assert.equal(counted([1]), undefined);
    assert.deepEqual(kinds(line('event_msg', { type: 'agent_message', info: {} })), ['other']);
    assert.deepEqual(counted({ last_token_usage: 'x' }), tokens(0, 0, 0, 0));
  });
});

describe('hostile lines', () => {
  const hostile: unknown[] = [
    null,
    undefined,
    42,
    'assistant',
    true,
    [],
    [{ type: 'assistant' }],
    () => 1,
    Symbol('x'),
    10n,
    {},
    { type: 'assistant' },
    { type: 'assistant', message: 'x' },
    { type: 'assistant', message: { content: 'not an array' } },
    {
      type: 'assistant',
      message: { content: [null, 1, 'x', [], { type: 'tool_use' }, { type: 'text', text: 5 }] },
    },
    { type: 'user', message: { content: [{ type: 'tool_result', content: 7 }] } },
    { type: 'user', message: { content: { length: 1e9 } } },
    { type: 'result', duration_ms: Infinity, total_cost_usd: NaN },
    { type: 'system', subtype: 'init', __proto__: { polluted: true } },
    JSON.parse('{"__proto__":{"type":"assistant"},"constructor":{"prototype":{"x":1}}}'),
    JSON.parse('{"type":"user","message":{"__proto__":{"content":"sneaky"}}}'),
    {
      method: 'item/completed',
      params: { item: { type: 'fileChange', changes: [null, 3, { kind: 'add' }] } },
    },
    { method: 'item/completed', params: { item: { type: 'mcpToolCall', result: { a: 10n } } } },
    { method: 'item/started', params: 'x' },
    { method: 'thread/tokenUsage/updated', params: { tokenUsage: { last: [1e999, -1] } } },
    {
      method: 'account/rateLimits/updated',
      params: { rateLimits: { primary: [], secondary: 'x' } },
    },
    {
      method: 'account/rateLimits/updated',
      params: { rateLimits: { limitId: 7, primary: { usedPercent: 1e999, resetsAt: 1e999 } } },
    },
    { type: 'rate_limit_event', rate_limit_info: { unifiedWindows: [{ utilization: 1 }] } },
    { type: 'result', usage: 'x', errors: [null, [1], { a: 10n }] },
    { type: 'user', tool_result_meta: 'x', message: { content: [{ type: 'tool_result' }] } },
    { method: 'turn/start', params: { input: 'text' } },
    { method: 42, params: {} },
    {
      timestamp: 't',
      type: 'response_item',
      payload: { type: 'function_call', arguments: '{bad json' },
    },
    { timestamp: 't', type: 'response_item', payload: [] },
    { timestamp: 5, type: 'response_item', payload: {} },
  ];
  const cyclic: Record<string, unknown> = { type: 'mcpToolCall', id: 'c', status: 'completed' };
  cyclic['result'] = cyclic;
  hostile.push({ method: 'item/completed', params: { item: cyclic } });

  for (const agent of ['claude', 'codex', 'third', '__proto__', 'constructor', 'toString']) {
    it(`never throws for the ${agent} decoder, and reads every line as at least one item`, () => {
      const decode = decoderFor(agent);
      for (const line of hostile)
        for (const source of ['agent', 'host', 'relais', '__proto__'])
          assert.ok(decode(line, source).length > 0, `${String(agent)} ${String(source)}`);
    });
  }

  it('reads what no reader shows as other, and does not let a prototype key pass for a field', () => {
    for (const line of [
      null,
      42,
      [],
      {},
      JSON.parse(
        '{"__proto__":{"type":"assistant","message":{"content":[{"type":"text","text":"x"}]}}}',
      ),
    ])
      assert.deepEqual(kinds(claude(line, 'agent')), ['other']);
    assert.deepEqual(
      kinds(
        claude(JSON.parse('{"type":"user","message":{"__proto__":{"content":"sneaky"}}}'), 'host'),
      ),
      ['other'],
    );
    assert.deepEqual(kinds(decoderFor('third')({ type: 'assistant' }, 'agent')), ['other']);
    // A turn's end that lies about its fields' types says nothing (not even that it ended).
    for (const lie of [{ is_error: 'yes' }, { duration_ms: '5' }, { result: 7 }])
      assert.deepEqual(kinds(claude({ type: 'result', ...lie }, 'agent')), ['other']);
  });

  it('keeps a huge text whole and reads it in linear time', () => {
    const text = 'x'.repeat(5_000_000);
    const started = performance.now();
    const items = claude(
      { type: 'assistant', message: { content: [{ type: 'text', text }] } },
      'agent',
    );
    assert.equal((items[0] as { text: string }).text.length, text.length);
    const quoted = `/bin/bash -lc '${"'\\''".repeat(200_000)}`;
    codex(
      { method: 'item/started', params: { item: { type: 'commandExecution', command: quoted } } },
      'agent',
    );
    assert.ok(performance.now() - started < 2000);
  });
});
