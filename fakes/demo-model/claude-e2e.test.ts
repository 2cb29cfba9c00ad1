/** End to end: the pinned Claude Code binary driven over stream-json against the demo model. */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { ClaudeRun, findClaudeBinary, type JsonLine, type PermissionAnswer } from './claude-cli.js';
import { startDemoModel, type DemoModel } from './server.js';

const TEST_TIMEOUT_MS = 90_000;
const WAIT_MS = 60_000;

interface Workspace {
  cwd: string;
  configDir: string;
}

function workspace(root: string, name: string): Workspace {
  const cwd = join(root, name, 'work');
  const configDir = join(root, name, 'config');
  mkdirSync(cwd, { recursive: true });
  mkdirSync(configDir, { recursive: true });
  return { cwd, configDir };
}

/** Runs one prompt to its `result` line, closes stdin, and always reaps the process. */
async function runPrompt(
  model: DemoModel,
  space: Workspace,
  prompt: string,
  onPermission: (request: JsonLine) => PermissionAnswer,
): Promise<{ run: ClaudeRun; result: JsonLine }> {
  const run = new ClaudeRun({ baseUrl: model.url, ...space, onPermission });
  try {
    run.sendUserText(prompt);
    const result = await run.waitFor((line) => line['type'] === 'result', WAIT_MS, 'result');
    run.endInput();
    const exit = await withTimeout(run.exited(), WAIT_MS, 'claude did not exit after stdin closed');
    assert.equal(exit.code, 0, `exit ${String(exit.code)}; stderr: ${run.stderr}`);
    return { run, result };
  } finally {
    run.kill();
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}

function messageContent(line: JsonLine): JsonLine[] {
  const message = line['message'] as { content?: unknown } | undefined;
  return Array.isArray(message?.content) ? (message.content as JsonLine[]) : [];
}

function toolUses(run: ClaudeRun): JsonLine[] {
  return run.lines
    .filter((l) => l['type'] === 'assistant')
    .flatMap(messageContent)
    .filter((b) => b['type'] === 'tool_use');
}

function toolResults(run: ClaudeRun): JsonLine[] {
  return run.lines
    .filter((l) => l['type'] === 'user')
    .flatMap(messageContent)
    .filter((b) => b['type'] === 'tool_result');
}

const allow = (request: JsonLine): PermissionAnswer => ({
  behavior: 'allow',
  updatedInput: request['input'],
});

describe('real Claude Code against the demo model', { timeout: TEST_TIMEOUT_MS * 4 }, () => {
  let model: DemoModel;
  let root: string;
  before(async () => {
    findClaudeBinary();
    model = await startDemoModel();
    root = mkdtempSync(join(tmpdir(), 'relais-demo-model-'));
  });
  after(async () => {
    await model.close();
    rmSync(root, { recursive: true, force: true });
  });

  it(
    'allowed Bash: tool_result pairs with tool_use, result arrives, the file exists',
    { timeout: TEST_TIMEOUT_MS },
    async () => {
      const space = workspace(root, 'allow');
      const from = model.requests.length;
      const prompts: JsonLine[] = [];
      const { run, result } = await runPrompt(
        model,
        space,
        'demo:bash touch made.txt',
        (request) => {
          prompts.push(request);
          return allow(request);
        },
      );
      assert.equal(prompts.length, 1);
      assert.equal(prompts[0]?.['tool_name'], 'Bash');
      const [use] = toolUses(run);
      const [toolResult] = toolResults(run);
      assert.equal(use?.['name'], 'Bash');
      assert.deepEqual(use?.['input'], {
        command: 'touch made.txt',
        description: 'Run the demo command',
      });
      assert.equal(toolResult?.['tool_use_id'], use?.['id']);
      assert.equal(prompts[0]?.['tool_use_id'], use?.['id']);
      assert.equal(result['subtype'], 'success');
      assert.equal(result['is_error'], false);
      assert.equal(result['num_turns'], 2);
      assert.match(String(result['result']), /^Command result: /);
      assert.ok(existsSync(join(space.cwd, 'made.txt')));

      const served = model.requests.slice(from).filter((r) => r.path === '/v1/messages');
      assert.deepEqual(
        served.map((r) => [r.script, r.step, r.model]),
        [
          ['bash', 0, 'demo-sonnet'],
          ['bash', 1, 'demo-sonnet'],
        ],
      );
      const usage = result['usage'] as Record<string, number>;
      const sum = (key: 'input_tokens' | 'output_tokens'): number =>
        served.reduce((total, r) => total + (r.usage?.[key] ?? 0), 0);
      assert.equal(usage['input_tokens'], sum('input_tokens'));
      assert.equal(usage['output_tokens'], sum('output_tokens'));
      assert.equal(usage['cache_read_input_tokens'], 100);
      assert.equal(usage['cache_creation_input_tokens'], 40);
    },
  );

  it(
    'denied Bash: the deny message reaches the final text and nothing runs',
    { timeout: TEST_TIMEOUT_MS },
    async () => {
      const space = workspace(root, 'deny');
      const reason = 'Denied by the demo test';
      const { run, result } = await runPrompt(model, space, 'demo:bash touch denied.txt', () => ({
        behavior: 'deny',
        message: reason,
      }));
      const [use] = toolUses(run);
      const [toolResult] = toolResults(run);
      assert.equal(toolResult?.['tool_use_id'], use?.['id']);
      assert.equal(toolResult?.['is_error'], true);
      assert.equal(result['result'], `Command result: ${reason}`);
      const denials = result['permission_denials'] as JsonLine[];
      assert.equal(denials[0]?.['tool_use_id'], use?.['id']);
      assert.ok(!existsSync(join(space.cwd, 'denied.txt')));
    },
  );

  it(
    'AskUserQuestion: the answer comes back in the final text',
    { timeout: TEST_TIMEOUT_MS },
    async () => {
      const space = workspace(root, 'ask');
      const asked: unknown[] = [];
      const { result } = await runPrompt(model, space, 'demo:ask', (request) => {
        asked.push(request['tool_name']);
        const input = request['input'] as JsonLine;
        return {
          behavior: 'allow',
          updatedInput: { ...input, answers: { 'Which color?': 'Blue' } },
        };
      });
      assert.deepEqual(asked, ['AskUserQuestion']);
      assert.match(String(result['result']), /^You answered: .*"Which color\?"="Blue"/);
    },
  );

  it(
    'demo:write resolves the relative path in the cwd Claude Code announces',
    { timeout: TEST_TIMEOUT_MS },
    async () => {
      const space = workspace(root, 'write');
      const { result } = await runPrompt(
        model,
        space,
        'demo:write notes/out.txt hello world',
        allow,
      );
      assert.match(String(result['result']), /^Write result: File created successfully/);
      assert.ok(existsSync(join(space.cwd, 'notes', 'out.txt')));
    },
  );

  it('demo:steps asks once per step', { timeout: TEST_TIMEOUT_MS }, async () => {
    const space = workspace(root, 'steps');
    let prompts = 0;
    const { result } = await runPrompt(model, space, 'demo:steps 2', (request) => {
      prompts += 1;
      return allow(request);
    });
    assert.equal(prompts, 2);
    assert.equal(result['result'], 'Finished 2 steps.');
  });
});
