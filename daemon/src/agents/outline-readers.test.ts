import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StoredEvent } from '../events/stored-event.js';
import { claudeOutline } from './claude/claude-outline.js';
import { codexOutline } from './codex/codex-outline.js';

let seq = 0;
const stored = (source: StoredEvent['source'], line: unknown): StoredEvent => ({
  session_id: 'ses_1',
  seq: ++seq,
  received_at_ms: seq,
  source,
  data: typeof line === 'string' ? line : JSON.stringify(line),
});

describe('outline readers (through the contract decoders)', () => {
  it("outlines a Codex command as typed, a steer as no new turn, a rollout's calls", () => {
    const started = stored('agent', {
      method: 'item/started',
      params: { item: { type: 'commandExecution', id: 'c1', command: "/bin/bash -lc 'npm test'" } },
    });
    assert.deepEqual(codexOutline(started), {
      tools: [{ id: 'c1', name: 'Bash', input: { command: 'npm test' } }],
    });
    const turn = (method: string) =>
      codexOutline(stored('host', { method, params: { input: [{ type: 'text', text: 'go' }] } }));
    assert.deepEqual(turn('turn/start'), { turn: 'go' });
    assert.equal(turn('turn/steer'), null);
    const call = stored('agent', {
      timestamp: 't',
      type: 'response_item',
      payload: { type: 'function_call', name: 'shell', arguments: '{"command":"ls"}' },
    });
    assert.deepEqual(codexOutline(call), {
      tools: [{ id: String(call.seq), name: 'shell', input: { command: 'ls' } }],
    });
  });

  it("outlines Claude's prompts, context line and tool calls, and nothing of a broken line", () => {
    assert.deepEqual(claudeOutline(stored('host', { type: 'user', message: { content: 'hi' } })), {
      turn: 'hi',
    });
    assert.deepEqual(claudeOutline(stored('agent', { type: 'system', subtype: 'init' })), {
      init: true,
    });
    const tools = stored('agent', {
      type: 'assistant',
      message: {
        content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: 'a' } }],
      },
    });
    assert.deepEqual(claudeOutline(tools), {
      tools: [{ id: 't1', name: 'Read', input: { file_path: 'a' } }],
    });
    for (const line of [
      '{"type":"user"',
      '{"type":"user","message":{"__proto__":{"content":"x"}}}',
    ])
      assert.equal(claudeOutline(stored('host', line)), null);
    assert.equal(codexOutline(stored('agent', '{"method":"item/started","params":')), null);
  });
});
