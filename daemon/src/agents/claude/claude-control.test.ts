import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeClaudeControl } from './claude-control.js';

const line = (text: string): unknown => JSON.parse(text);

describe("Claude Code's control lines", () => {
  it('reads can_use_tool as a permission request with its tool, input and paths', () => {
    const decoded = decodeClaudeControl(
      line(
        '{"type":"control_request","request_id":"aa5f","request":{"subtype":"can_use_tool","tool_name":"Bash",' +
          '"input":{"command":"touch x"},"description":"Create a file","blocked_path":"/w/x","tool_use_id":"toolu_1",' +
          '"permission_suggestions":[]}}',
      ),
    );
    assert.deepEqual(decoded, {
      kind: 'permission',
      requestId: 'aa5f',
      toolName: 'Bash',
      toolUseId: 'toolu_1',
      input: { command: 'touch x' },
      description: 'Create a file',
      blockedPath: '/w/x',
    });
  });

  it('reads hook_callback with the tool call of its input', () => {
    const decoded = decodeClaudeControl(
      line(
        '{"type":"control_request","request_id":"ed4a","request":{"subtype":"hook_callback","callback_id":"relais_pre_tool_use",' +
          '"input":{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"toolu_2"},' +
          '"tool_use_id":"toolu_2"}}',
      ),
    );
    assert.deepEqual(decoded, {
      kind: 'hook',
      requestId: 'ed4a',
      callbackId: 'relais_pre_tool_use',
      toolName: 'Bash',
      toolInput: { command: 'ls' },
      toolUseId: 'toolu_2',
    });
  });

  it('reads any other control request as unhandled, by its subtype', () => {
    assert.deepEqual(
      decodeClaudeControl(
        line('{"type":"control_request","request_id":"r","request":{"subtype":"elicitation"}}'),
      ),
      { kind: 'unhandled', requestId: 'r', subtype: 'elicitation' },
    );
  });

  it('reads the answers to its requests, a withdrawn request and the session lines', () => {
    assert.deepEqual(
      decodeClaudeControl(
        line(
          '{"type":"control_response","response":{"subtype":"success","request_id":"relais_1","response":{"pid":5}}}',
        ),
      ),
      { kind: 'response', requestId: 'relais_1', outcome: { ok: true, payload: { pid: 5 } } },
    );
    assert.deepEqual(
      decodeClaudeControl(
        line('{"type":"control_response","response":{"subtype":"success","request_id":"r2"}}'),
      ),
      { kind: 'response', requestId: 'r2', outcome: { ok: true, payload: {} } },
    );
    assert.deepEqual(
      decodeClaudeControl(
        line(
          '{"type":"control_response","response":{"subtype":"error","request_id":"r3","error":"nope"}}',
        ),
      ),
      { kind: 'response', requestId: 'r3', outcome: { ok: false, error: 'nope' } },
    );
    assert.deepEqual(
      decodeClaudeControl(line('{"type":"control_cancel_request","request_id":"aa5f"}')),
      { kind: 'cancel', requestId: 'aa5f' },
    );
    assert.deepEqual(
      decodeClaudeControl(line('{"type":"system","subtype":"init","session_id":"s1"}')),
      { kind: 'init', sessionId: 's1' },
    );
    assert.deepEqual(decodeClaudeControl(line('{"type":"assistant","message":{}}')), {
      kind: 'assistant',
      apiError: false,
    });
    assert.deepEqual(
      decodeClaudeControl(line('{"type":"assistant","error":"rate_limit","message":{}}')),
      { kind: 'assistant', apiError: true },
    );
    assert.deepEqual(
      decodeClaudeControl(line('{"type":"result","is_error":true,"result":"boom"}')),
      { kind: 'result', isError: true, text: 'boom' },
    );
  });

  it('ends the turn on a result line whose fields lie about their types', () => {
    assert.deepEqual(
      decodeClaudeControl(line('{"type":"result","is_error":"yes","result":7,"duration_ms":"5"}')),
      { kind: 'result', isError: false, text: null },
    );
  });
});

describe('hostile control lines', () => {
  const hostile: unknown[] = [
    null,
    undefined,
    42,
    'control_request',
    true,
    [],
    [{ type: 'control_request', request_id: 'r', request: { subtype: 'can_use_tool' } }],
    () => 1,
    Symbol('x'),
    10n,
    {},
    { type: 7 },
    { type: 'control_request' },
    { type: 'control_request', request_id: 'r' },
    { type: 'control_request', request_id: 'r', request: null },
    { type: 'control_request', request_id: 'r', request: 'can_use_tool' },
    { type: 'control_request', request_id: 'r', request: [] },
    { type: 'control_request', request_id: 5, request: { subtype: 'can_use_tool' } },
    { type: 'control_request', request_id: 'r', request: { subtype: 10n } },
    {
      type: 'control_request',
      request_id: 'r',
      request: { subtype: 'can_use_tool', tool_name: {}, input: [1, 2], tool_use_id: 3 },
    },
    {
      type: 'control_request',
      request_id: 'r',
      request: { subtype: 'hook_callback', input: 'x', callback_id: [] },
    },
    { type: 'control_response' },
    { type: 'control_response', response: 'x' },
    { type: 'control_response', response: { request_id: {} } },
    { type: 'control_response', response: { subtype: 'error', request_id: 'r', error: { a: 1 } } },
    { type: 'control_cancel_request', request_id: null },
    { type: 'system', subtype: 'init', session_id: 5 },
    { type: 'result', is_error: 1 },
    line('{"__proto__":{"type":"control_request","request_id":"r"},"constructor":{"x":1}}'),
    line(
      '{"type":"control_request","request_id":"r","request":{"__proto__":{"subtype":"can_use_tool"}}}',
    ),
    line('{"type":"control_request","request_id":"__proto__","request":{"subtype":"toString"}}'),
  ];
  const cyclic: Record<string, unknown> = { type: 'control_request', request_id: 'c' };
  cyclic['request'] = cyclic;
  hostile.push(cyclic);

  it('never throws, and reads each line as one item', () => {
    for (const value of hostile) {
      const decoded = decodeClaudeControl(value);
      assert.equal(typeof decoded.kind, 'string', String(value));
    }
  });

  it('leaves out what is not of its type, and a request it could not answer', () => {
    for (const value of [
      null,
      [],
      { type: 'control_request', request_id: 5, request: { subtype: 'can_use_tool' } },
      { type: 'control_response', response: { request_id: {} } },
      { type: 'control_cancel_request', request_id: null },
      line('{"__proto__":{"type":"control_request","request_id":"r"}}'),
    ])
      assert.deepEqual(decodeClaudeControl(value), { kind: 'other' });
    assert.deepEqual(
      decodeClaudeControl({
        type: 'control_request',
        request_id: 'r',
        request: { subtype: 'can_use_tool', tool_name: {}, input: [1, 2], tool_use_id: 3 },
      }),
      {
        kind: 'permission',
        requestId: 'r',
        toolName: 'unknown',
        toolUseId: null,
        input: {},
        description: null,
        blockedPath: null,
      },
    );
    // A prototype key in the request is its own field, never the request's subtype.
    assert.deepEqual(
      decodeClaudeControl(
        line(
          '{"type":"control_request","request_id":"r","request":{"__proto__":{"subtype":"can_use_tool"}}}',
        ),
      ),
      { kind: 'unhandled', requestId: 'r', subtype: 'a request without a subtype' },
    );
    assert.deepEqual(
      decodeClaudeControl({
        type: 'control_response',
        response: { subtype: 'error', request_id: 'r', error: { a: 1 } },
      }),
      { kind: 'response', requestId: 'r', outcome: { ok: false, error: 'control request failed' } },
    );
  });

  it('bounds the subtype it echoes, and keeps a huge input whole in linear time', () => {
    const started = performance.now();
    const huge = 'x'.repeat(5_000_000);
    const unhandled = decodeClaudeControl({
      type: 'control_request',
      request_id: 'r',
      request: { subtype: huge },
    });
    assert.equal(unhandled.kind === 'unhandled' && unhandled.subtype.length, 200);
    const permission = decodeClaudeControl({
      type: 'control_request',
      request_id: 'r',
      request: { subtype: 'can_use_tool', tool_name: 'Bash', input: { command: huge } },
    });
    assert.equal(permission.kind === 'permission' && permission.input['command'], huge);
    assert.ok(performance.now() - started < 2000);
  });
});
