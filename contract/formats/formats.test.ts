import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decoderFor, type DecodedItem } from './index.js';

const claude = decoderFor('claude');
const codex = decoderFor('codex');
const kinds = (items: DecodedItem[]) => items.map((item) => item.kind);

describe('Claude Code lines', () => {
  it('reads an assistant line as its text, thinking and tool calls', () => {
    const items = claude(
      {
        type: 'assistant',
        message: {
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
    ]);
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
      [{ kind: 'turn_end', outcome: 'interrupted', durationMs: 9, costUsd: 0.5, text: null }],
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
      [{ kind: 'turn_end', outcome: 'failed', durationMs: null, costUsd: null, text: 'quota' }],
    );
    assert.deepEqual(kinds(codex({ method: 'error', params: { willRetry: true } }, 'agent')), [
      'other',
    ]);
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
