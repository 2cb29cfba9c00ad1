import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { killProcessGroup } from '../../processes/process-groups.js';
import type { AgentHost, AgentProcess, PermissionAnswer, PermissionAsk } from '../agent.js';
import type { PolicyDecision } from '../permission-policy.js';
import { ClaudeDriver } from './claude-agent.js';
import type { ClaudeLauncher } from './launcher.js';

/** What the scripted agent prints, one line each, then it waits for the end of its input. */
const PRINTED = [
  // No request at all, then one that is not an object: the driver read `request.subtype` of these.
  '{"type":"control_request","request_id":"x1"}',
  '{"type":"control_request","request_id":"x2","request":null}',
  '{"type":"control_request","request_id":7,"request":{"subtype":"can_use_tool"}}',
  '{"type":"control_response","response":{"subtype":"error","request_id":"relais_9","error":{"a":1}}}',
  'not json at all',
  '{"type":"control_request","request_id":"h1","request":{"subtype":"hook_callback","callback_id":"relais_pre_tool_use","input":{"tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t1"}}}',
  '{"type":"control_request","request_id":"h2","request":{"subtype":"hook_callback","callback_id":"someone_else"}}',
  '{"type":"control_request","request_id":"p1","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"ls"},"tool_use_id":"t1"}}',
  '{"type":"system","subtype":"init","session_id":"conv-1"}',
  '{"type":"assistant","message":{}}',
  '{"type":"control_cancel_request","request_id":"p1"}',
  '{"type":"result","is_error":"yes","result":7}',
];

const AGENT = `for (const line of ${JSON.stringify(PRINTED)}) process.stdout.write(line + '\\n');
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));`;

function scriptedHost() {
  const events: string[] = [];
  const written: unknown[] = [];
  let exited!: () => void;
  const exit = new Promise<void>((resolve) => (exited = resolve));
  const allow: PolicyDecision = { decision: 'allow', step: 'test', rule: null, reason: 'fine' };
  const host: AgentHost = {
    record: (source, data) => {
      if (source === 'host') written.push(JSON.parse(data));
      else events.push(data);
    },
    permissions: {
      check: (tool, input, id) => (
        events.push(`check ${tool} ${JSON.stringify(input)} ${id}`),
        allow
      ),
      ask: (ask: PermissionAsk, answer: (answer: PermissionAnswer) => void) => {
        events.push(`ask ${ask.requestId} ${ask.toolName}`);
        answer({ behavior: 'allow', updatedInput: ask.input });
      },
      withdraw: (id) => events.push(`withdraw ${id}`),
    },
    onConversationId: (id) => events.push(`conversation ${id}`),
    onAnswered: () => events.push('answered'),
    onTurnEnd: (error) => events.push(`turn end ${error}`),
    onExit: () => exited(),
  };
  return { host, events, written, exit };
}

describe('a scripted Claude Code started by spawnAgent, printing hostile control lines', () => {
  it('answers what it can, leaves out what it cannot and keeps reading', async () => {
    const home = mkdtempSync(join(tmpdir(), 'relais-hostile-control-'));
    let agent: AgentProcess | null = null;
    try {
      const spec = { binary: process.execPath, args: ['-e', AGENT], cwd: home, env: {} };
      const launcher = { spec: () => spec } as unknown as ClaudeLauncher;
      const { host, events, written, exit } = scriptedHost();
      agent = new ClaudeDriver(launcher).start(
        { id: 'sub', config_dir: home, builtin: false },
        { cwd: home, model: 'default', effort: null, permissionMode: 'write', sessionTag: 't' },
        host,
      );
      await waitFor(() => events.includes('turn end null'));
      agent.closeInput();
      await exit;
      const responses = written.map((line) => (line as { response: unknown }).response);
      assert.deepEqual(responses, [
        {
          subtype: 'error',
          request_id: 'x1',
          error: 'Relais does not handle a request without a subtype',
        },
        {
          subtype: 'error',
          request_id: 'x2',
          error: 'Relais does not handle a request without a subtype',
        },
        {
          subtype: 'success',
          request_id: 'h1',
          response: {
            hookSpecificOutput: {
              hookEventName: 'PreToolUse',
              permissionDecision: 'allow',
              permissionDecisionReason: 'fine',
            },
          },
        },
        { subtype: 'error', request_id: 'h2', error: 'Relais does not handle hook_callback' },
        {
          subtype: 'success',
          request_id: 'p1',
          response: { behavior: 'allow', updatedInput: { command: 'ls' } },
        },
      ]);
      const said = events.filter((event) => !event.startsWith('{'));
      assert.deepEqual(said, [
        'check Bash {"command":"ls"} t1',
        'ask p1 Bash',
        'conversation conv-1',
        'answered',
        'withdraw p1',
        // A result whose is_error is not `true` is a finished turn, as it was.
        'answered',
        'turn end null',
      ]);
      assert.ok(
        events.includes(
          JSON.stringify({ type: 'relais', subtype: 'agent_text', text: 'not json at all' }),
        ),
      );
    } finally {
      // A driver that threw on a line leaves its agent waiting for input: the test must not wait too.
      if (agent?.alive) killProcessGroup(agent.pid);
      rmSync(home, { recursive: true, force: true });
    }
  });
});

async function waitFor(ready: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error('the scripted agent said less than expected');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
