import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { killProcessGroup } from '../../processes/process-groups.js';
import type { AgentHost, PermissionAnswer, PermissionAsk } from '../agent.js';
import { CodexSession } from './codex-agent.js';

/** What the scripted app server prints once its thread is started, one message a line. */
const PRINTED = [
  'not json at all',
  '{"id":99,"error":"boom"}',
  '{"method":"item/tool/requestUserInput","id":5,"params":{"itemId":"q","questions":[' +
    '{"id":"__proto__","question":"Proceed?","options":[]},{"id":"q2","question":"constructor","options":[]},' +
    '{"id":"q3","question":"toString","options":[]}]}}',
  '{"method":"mcpServer/elicitation/request","id":"e1","params":{}}',
  '{"method":"item/commandExecution/requestApproval","id":{},"params":{"command":"ls"}}',
  '{"method":"item/started","params":{"item":{"type":"fileChange","id":"c1","changes":[null]}}}',
  '{"method":"item/fileChange/requestApproval","id":6,"params":{"itemId":"c1"}}',
  '{"method":"item/fileChange/requestApproval","id":7,"params":{"itemId":"unseen"}}',
  '{"method":"serverRequest/resolved","params":{"requestId":{"id":5}}}',
  '{"method":"turn/completed","params":{"turn":{"status":"failed","error":"not an object"}}}',
];

/** Answers initialize and thread/start, then prints the lines above; ends with its input. */
const APP_SERVER = `const lines = ${JSON.stringify(PRINTED)};
const out = (message) => process.stdout.write(JSON.stringify(message) + '\\n');
require('node:readline').createInterface({ input: process.stdin }).on('line', (text) => {
  const message = JSON.parse(text);
  if (message.method === 'initialize') out({ id: message.id, result: {} });
  if (message.method === 'thread/start') {
    out({ id: message.id, result: { thread: { id: 'th1' } } });
    for (const line of lines) process.stdout.write(line + '\\n');
  }
}).on('close', () => process.exit(0));`;

function scriptedHost() {
  const events: string[] = [];
  const written: Record<string, unknown>[] = [];
  let exited!: () => void;
  const exit = new Promise<void>((resolve) => (exited = resolve));
  const host: AgentHost = {
    record: (source, data) => {
      if (source === 'host') written.push(JSON.parse(data) as Record<string, unknown>);
      else events.push(data);
    },
    permissions: {
      check: () => {
        throw new Error('Codex has no hook');
      },
      ask: (ask: PermissionAsk, answer: (answer: PermissionAnswer) => void) => {
        events.push(`ask ${ask.requestId} ${ask.toolName} ${JSON.stringify(ask.input)}`);
        if (ask.toolName !== 'AskUserQuestion') return answer({ behavior: 'deny', message: 'no' });
        const answers = { 'Proceed?': 'Yes', constructor: 'No, thanks', toString: 'Maybe' };
        answer({ behavior: 'allow', updatedInput: { ...ask.input, answers } });
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

describe('a scripted Codex app server started by spawnAgent, sending hostile messages', () => {
  it('answers what it can, refuses the rest and keeps reading', async () => {
    const home = mkdtempSync(join(tmpdir(), 'relais-hostile-codex-'));
    const spec = { binary: process.execPath, args: ['-e', APP_SERVER], cwd: home, env: {} };
    const { host, events, written, exit } = scriptedHost();
    const launch = { cwd: home, model: 'default', effort: null, sessionTag: 't' } as const;
    const session = new CodexSession(spec, { ...launch, permissionMode: 'write' }, host);
    try {
      await session.initialize();
      await waitFor(() => events.some((event) => event.startsWith('turn end')));
      session.closeInput();
      await exit;
      const answers = written.filter((line) => line['id'] !== undefined && !line['method']);
      assert.deepEqual(answers, [
        {
          id: 5,
          result: {
            answers: {
              ['__proto__']: { answers: ['Yes'] },
              q2: { answers: ['No', 'thanks'] },
              q3: { answers: ['Maybe'] },
            },
          },
        },
        {
          id: 'e1',
          error: { code: -32601, message: 'Relais does not handle mcpServer/elicitation/request' },
        },
        { id: 6, result: { decision: 'decline' } },
        { id: 7, result: { decision: 'decline' } },
      ]);
      // The thread's id is taken once thread/start's answer is read: after the lines of its chunk.
      assert.ok(events.includes('conversation th1'));
      const said = events.filter((event) => !event.startsWith('{') && !event.startsWith('conv'));
      assert.deepEqual(said, [
        `ask 5 AskUserQuestion ${JSON.stringify({
          questions: ['Proceed?', 'constructor', 'toString'].map((question) => ({
            question,
            header: '',
            options: [],
            multiSelect: false,
          })),
        })}`,
        'ask 6 Edit {"file_path":"","diff":"","kind":"update"}',
        'turn end the turn failed',
      ]);
      const stray = JSON.stringify({
        type: 'relais',
        subtype: 'agent_text',
        text: 'not json at all',
      });
      assert.ok(events.includes(stray));
    } finally {
      // A driver that threw on a message leaves its agent waiting for input: the test must not wait too.
      if (session.alive) killProcessGroup(session.pid);
      rmSync(home, { recursive: true, force: true });
    }
  });
});

async function waitFor(ready: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error('the scripted app server said less than expected');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
