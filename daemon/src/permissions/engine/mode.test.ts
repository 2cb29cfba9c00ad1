import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_RULES } from './default-rules.js';
import { decide, gateReport } from './decide.js';
import { makeFixtureTree, type FixtureTree } from './fixture-tree.js';
import { nodeFs } from './realpath.js';
import type {
  Decision,
  DecisionKind,
  DecisionStep,
  EngineContext,
  PermissionMode,
  RuleSet,
  ToolRequest,
} from './types.js';

let tree: FixtureTree;
before(() => {
  tree = makeFixtureTree();
});
after(() => tree.remove());

const ctx = (over: Partial<EngineContext> = {}): EngineContext => ({
  rules: DEFAULT_RULES,
  dataDir: tree.data,
  homeDir: tree.home,
  ...over,
});
const request = (
  mode: PermissionMode,
  tool: string,
  input: Record<string, unknown>,
): ToolRequest => ({
  tool_name: tool,
  input,
  cwd: tree.proj,
  permission_mode: mode,
});
const run = (mode: PermissionMode, tool: string, input: Record<string, unknown>): Decision =>
  decide(request(mode, tool, input), ctx());

function expectStep(d: Decision, decision: DecisionKind, step: DecisionStep): void {
  assert.deepEqual([d.decision, d.step], [decision, step], JSON.stringify(d));
}

const CHANGES: [string, Record<string, unknown>][] = [
  ['Bash', { command: 'ls' }],
  ['Write', { file_path: 'src/new.ts', content: 'x' }],
  ['Edit', { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' }],
  ['MultiEdit', { file_path: 'src/a.ts', edits: [] }],
  ['NotebookEdit', { notebook_path: 'n.ipynb', new_source: '' }],
  ['Task', { description: 'sub', prompt: 'go' }],
  ['Agent', { description: 'sub', prompt: 'go' }],
  ['mcp__github__create_issue', { title: 'x' }],
  ['SomeFutureTool', {}],
];

describe('read_only mode', () => {
  test('reading and searching tools pass, then meet the path step', () => {
    expectStep(run('read_only', 'Read', { file_path: 'src/a.ts' }), 'allow', 'default');
    expectStep(run('read_only', 'Glob', { pattern: '**/*.ts' }), 'allow', 'default');
    expectStep(run('read_only', 'Grep', { pattern: 'a', path: 'src' }), 'allow', 'default');
    expectStep(run('read_only', 'LS', { path: tree.proj }), 'allow', 'default');
    expectStep(run('read_only', 'NotebookRead', { notebook_path: 'n.ipynb' }), 'allow', 'default');
    expectStep(run('read_only', 'Read', { file_path: '../outside/secret.txt' }), 'deny', 'path');
    expectStep(run('read_only', 'Read', { file_path: '.env' }), 'deny', 'rule');
  });
  test('questions and bookkeeping pass; the network goes to a person', () => {
    expectStep(run('read_only', 'AskUserQuestion', { questions: [] }), 'ask', 'default');
    expectStep(run('read_only', 'ExitPlanMode', { plan: 'x' }), 'ask', 'default');
    expectStep(run('read_only', 'TodoWrite', { todos: [] }), 'allow', 'default');
    expectStep(
      run('read_only', 'WebFetch', { url: 'https://example.com', prompt: 'x' }),
      'ask',
      'default',
    );
  });
  for (const [tool, input] of CHANGES) {
    test(`${tool} is refused`, () => {
      const d = run('read_only', tool, input);
      expectStep(d, 'deny', 'mode');
      assert.match(d.reason, /^read-only session/);
    });
  }
});

describe('dry_run mode', () => {
  for (const [tool, input] of CHANGES) {
    test(`${tool} is refused as "would have run"`, () => {
      const d = run('dry_run', tool, input);
      expectStep(d, 'deny', 'mode');
      assert.match(d.reason, /^dry run: would have run /);
    });
  }
  test('the summary names the command or the file', () => {
    assert.equal(
      run('dry_run', 'Bash', { command: 'git push origin main' }).reason,
      'dry run: would have run Bash: git push origin main',
    );
    assert.equal(
      run('dry_run', 'Write', { file_path: 'src/x.ts', content: '' }).reason,
      'dry run: would have run Write src/x.ts',
    );
  });
  test('reads pass on to the path step', () => {
    expectStep(run('dry_run', 'Read', { file_path: 'src/a.ts' }), 'allow', 'default');
    expectStep(run('dry_run', 'Read', { file_path: 'link-out' }), 'deny', 'path');
  });
  test('a dangerous command is still only a dry run (the mode step comes first)', () => {
    expectStep(run('dry_run', 'Bash', { command: 'rm -rf /' }), 'deny', 'mode');
  });
});

describe('write mode', () => {
  test('changes go to the following steps', () => {
    expectStep(run('write', 'Bash', { command: 'npm test' }), 'ask', 'default');
    expectStep(
      run('write', 'Edit', { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' }),
      'ask',
      'default',
    );
    expectStep(run('write', 'mcp__github__create_issue', { title: 'x' }), 'ask', 'default');
  });
});

describe('fail closed', () => {
  const throwing = (message: string) => (): never => {
    throw new Error(message);
  };

  test('a filesystem that throws: deny, engine_error', () => {
    const fs = { ...nodeFs, realpath: throwing('disk on fire') };
    const d = decide(request('write', 'Read', { file_path: 'src/a.ts' }), ctx({ fs }));
    expectStep(d, 'deny', 'engine_error');
    assert.match(d.reason, /disk on fire/);
  });

  test('an input that throws when read: deny, engine_error', () => {
    const input = new Proxy({}, { get: throwing('hostile input') });
    expectStep(decide(request('write', 'Read', input), ctx()), 'deny', 'engine_error');
  });

  test('rules that cannot compile (bypassing validation): deny, engine_error', () => {
    const rules: RuleSet = {
      version: 1,
      rules: [{ id: 'bad', kind: 'bash', pattern: '(', action: 'deny', reason: 'x' }],
    };
    expectStep(
      decide(request('write', 'Bash', { command: 'ls' }), ctx({ rules })),
      'deny',
      'engine_error',
    );
  });

  test('a malformed request: deny, engine_error', () => {
    expectStep(
      decide(
        {
          ...request('write', 'Read', { file_path: 'a' }),
          permission_mode: 'yolo' as PermissionMode,
        },
        ctx(),
      ),
      'deny',
      'engine_error',
    );
    expectStep(
      decide({ ...request('write', 'Read', { file_path: 'a' }), cwd: 'relative' }, ctx()),
      'deny',
      'engine_error',
    );
    expectStep(decide(null as unknown as ToolRequest, ctx()), 'deny', 'engine_error');
  });
});

describe('gate report', () => {
  test('names the rule and its reason, then asks not to work around it', () => {
    const d = run('write', 'Bash', { command: 'git reset --hard' });
    const report = gateReport(d);
    assert.match(report, /rule "git-reset-hard"/);
    assert.ok(report.includes('git reset --hard destroys uncommitted work'));
    assert.ok(report.endsWith('Do not work around this rule; report it.'));
  });
  test('without a rule it names the step; an unanswered ask says so', () => {
    assert.match(
      gateReport(run('write', 'Read', { file_path: '../outside/secret.txt' })),
      /^Refused by the permission gate — path step: .*\nDo not work around this rule; report it\.$/,
    );
    assert.match(
      gateReport(run('write', 'Bash', { command: 'git push' })),
      /a person had to approve this, and did not/,
    );
  });
});
