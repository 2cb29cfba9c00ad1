import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeCodexControl } from './codex-control.js';

const line = (text: string): unknown => JSON.parse(text);

describe("Codex app-server's control messages", () => {
  it('reads the answers to its requests, success or error', () => {
    assert.deepEqual(decodeCodexControl(line('{"id":4,"result":{"thread":{"id":"t1"}}}')), {
      kind: 'response',
      id: 4,
      outcome: { ok: true, result: { thread: { id: 't1' } } },
    });
    assert.deepEqual(decodeCodexControl(line('{"id":6}')), {
      kind: 'response',
      id: 6,
      outcome: { ok: true, result: {} },
    });
    assert.deepEqual(
      decodeCodexControl(
        line('{"id":2,"error":{"code":-32600,"message":"codex account authentication required"}}'),
      ),
      {
        kind: 'response',
        id: 2,
        outcome: { ok: false, code: -32600, message: 'codex account authentication required' },
      },
    );
  });

  it('reads the notifications that move the session', () => {
    assert.deepEqual(
      decodeCodexControl(line('{"method":"turn/started","params":{"turn":{"id":"u1"}}}')),
      { kind: 'turn_started', turnId: 'u1' },
    );
    assert.deepEqual(
      decodeCodexControl(
        line(
          '{"method":"item/started","params":{"item":{"type":"fileChange","id":"c1","changes":[' +
            '{"path":"/w/a.txt","kind":{"type":"add"},"diff":"+a"},{"path":"/w/b.txt","kind":{"type":"update"}}]}}}',
        ),
      ),
      {
        kind: 'item_started',
        itemId: 'c1',
        changes: [
          { path: '/w/a.txt', kind: 'add', diff: '+a' },
          { path: '/w/b.txt', kind: 'update', diff: '' },
        ],
      },
    );
    assert.deepEqual(
      decodeCodexControl(
        line('{"method":"item/completed","params":{"item":{"type":"agentMessage","id":"m1"}}}'),
      ),
      { kind: 'item_completed', itemId: 'm1', agentMessage: true },
    );
    assert.deepEqual(
      decodeCodexControl(
        line('{"method":"error","params":{"error":{"message":"overloaded"},"willRetry":true}}'),
      ),
      { kind: 'error', willRetry: true, message: 'overloaded' },
    );
    assert.deepEqual(
      decodeCodexControl(line('{"method":"serverRequest/resolved","params":{"requestId":0}}')),
      { kind: 'request_resolved', requestId: '0' },
    );
    assert.deepEqual(
      decodeCodexControl(
        line(
          '{"method":"turn/completed","params":{"turn":{"status":"failed","error":{"message":"quota"}}}}',
        ),
      ),
      { kind: 'turn_completed', failed: true, error: 'quota' },
    );
    assert.deepEqual(
      decodeCodexControl(line('{"method":"item/agentMessage/delta","params":{"delta":"x"}}')),
      { kind: 'other' },
    );
  });

  it("reads the server's requests: approvals, questions, and the rest", () => {
    assert.deepEqual(
      decodeCodexControl(
        line(
          '{"method":"item/commandExecution/requestApproval","id":0,"params":{"itemId":"call_1",' +
            '"reason":"Allow creating a file?","command":"/bin/bash -lc \'touch x\'"}}',
        ),
      ),
      {
        kind: 'command_approval',
        id: 0,
        itemId: 'call_1',
        command: "/bin/bash -lc 'touch x'",
        reason: 'Allow creating a file?',
      },
    );
    assert.deepEqual(
      decodeCodexControl(
        line('{"method":"item/fileChange/requestApproval","id":"r1","params":{"itemId":"c1"}}'),
      ),
      { kind: 'file_change_approval', id: 'r1', itemId: 'c1', reason: null },
    );
    assert.deepEqual(
      decodeCodexControl(
        line(
          '{"method":"item/tool/requestUserInput","id":3,"params":{"itemId":"q","questions":[' +
            '{"id":"q1","header":"Go","question":"Proceed?","options":[{"label":"Yes","description":"do it"}]},' +
            '{"id":"q2","question":"Name?","options":null}]}}',
        ),
      ),
      {
        kind: 'user_input',
        id: 3,
        itemId: 'q',
        questions: [
          {
            id: 'q1',
            question: 'Proceed?',
            header: 'Go',
            options: [{ label: 'Yes', description: 'do it' }],
          },
          { id: 'q2', question: 'Name?', header: '', options: [] },
        ],
      },
    );
    assert.deepEqual(
      decodeCodexControl(line('{"method":"mcpServer/elicitation/request","id":9,"params":{}}')),
      { kind: 'unhandled', id: 9, method: 'mcpServer/elicitation/request' },
    );
  });
});

describe('hostile control messages', () => {
  const hostile: unknown[] = [
    null,
    undefined,
    42,
    'turn/completed',
    true,
    [],
    [{ method: 'turn/completed' }],
    () => 1,
    Symbol('x'),
    10n,
    {},
    { id: 'x' },
    { id: null, result: {} },
    { id: 1, error: 'boom' },
    { id: 1, error: { code: 'x', message: 5 } },
    { method: 42, id: 1 },
    { method: '', id: 1 },
    { method: 'turn/started', params: 'x' },
    { method: 'turn/started', params: { turn: [] } },
    { method: 'item/started', params: { item: { id: 5, changes: 'all' } } },
    { method: 'item/started', params: { item: { id: 'c', changes: [null, 3, { kind: 'add' }] } } },
    { method: 'error', params: { error: [], willRetry: 'yes' } },
    { method: 'serverRequest/resolved', params: { requestId: { id: 1 } } },
    { method: 'turn/completed', params: { turn: { status: ['failed'], error: 'x' } } },
    { method: 'item/commandExecution/requestApproval', id: {}, params: { command: 'ls' } },
    { method: 'item/commandExecution/requestApproval', id: 1, params: { command: ['ls'] } },
    { method: 'item/tool/requestUserInput', id: 1, params: { questions: { length: 1e9 } } },
    {
      method: 'item/tool/requestUserInput',
      id: 1,
      params: { questions: [null, { options: 'x' }] },
    },
    line('{"__proto__":{"method":"turn/completed","params":{}},"constructor":{"x":1}}'),
    line('{"method":"turn/completed","params":{"__proto__":{"turn":{"status":"failed"}}}}'),
    line('{"method":"toString","id":"__proto__","params":{}}'),
  ];
  const cyclic: Record<string, unknown> = { method: 'item/started' };
  cyclic['params'] = { item: cyclic };
  hostile.push(cyclic);

  it('never throws, and reads each message as one item', () => {
    for (const value of hostile)
      assert.equal(typeof decodeCodexControl(value).kind, 'string', String(value));
  });

  it('leaves out what is not of its type, and a request it could not answer', () => {
    for (const value of [
      null,
      [],
      {},
      { id: 'x' },
      { id: null, result: {} },
      { method: 42, id: 1 },
      { method: '', id: 1 },
      { method: 'item/commandExecution/requestApproval', id: {}, params: { command: 'ls' } },
      line('{"__proto__":{"method":"turn/completed","params":{}}}'),
    ])
      assert.deepEqual(decodeCodexControl(value), { kind: 'other' }, JSON.stringify(value));
    assert.deepEqual(decodeCodexControl({ id: 1, error: { code: 'x', message: 5 } }), {
      kind: 'response',
      id: 1,
      outcome: { ok: false, code: undefined, message: 'request failed' },
    });
    assert.deepEqual(decodeCodexControl({ id: 1, error: 'boom' }), {
      kind: 'response',
      id: 1,
      outcome: { ok: false, code: undefined, message: 'request failed' },
    });
    // A prototype key in the params is its own field, never the turn.
    assert.deepEqual(
      decodeCodexControl(
        line('{"method":"turn/completed","params":{"__proto__":{"turn":{"status":"failed"}}}}'),
      ),
      { kind: 'turn_completed', failed: false, error: null },
    );
    // A change that says nothing is still one to ask for, never one passed over.
    assert.deepEqual(
      decodeCodexControl({
        method: 'item/started',
        params: { item: { id: 'c', changes: [null, { kind: 'add' }] } },
      }),
      {
        kind: 'item_started',
        itemId: 'c',
        changes: [
          { path: '', kind: 'update', diff: '' },
          { path: '', kind: 'update', diff: '' },
        ],
      },
    );
  });

  it('bounds the method it echoes, and keeps a huge command whole in linear time', () => {
    const started = performance.now();
    const huge = 'x'.repeat(5_000_000);
    const unhandled = decodeCodexControl({ method: huge, id: 1, params: {} });
    assert.equal(unhandled.kind === 'unhandled' && unhandled.method.length, 200);
    const approval = decodeCodexControl({
      method: 'item/commandExecution/requestApproval',
      id: 1,
      params: { command: huge },
    });
    assert.equal(approval.kind === 'command_approval' && approval.command, huge);
    assert.ok(performance.now() - started < 2000);
  });
});
