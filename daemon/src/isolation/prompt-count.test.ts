import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { decide, DEFAULT_RULES } from '../permissions/engine/index.js';

/** One realistic working session: build, test, search, git, a package install, a push. */
const SESSION = [
  ...Array(12).fill('npm run build'),
  ...Array(15).fill('npm test'),
  'npm test -- --grep parser',
  'npx tsc --noEmit',
  'npx eslint src',
  ...Array(10).fill('git status'),
  ...Array(8).fill('git diff'),
  'git diff --stat',
  'git log --oneline -10',
  ...Array(10).fill('grep -rn "TODO" src'),
  'grep -rn "parseConfig" src test',
  'rg "export function" src',
  ...Array(8).fill('ls -la'),
  'cat package.json',
  'cat src/index.ts',
  'head -50 README.md',
  'wc -l src/*.ts',
  'find src -name "*.test.ts"',
  'npm install',
  'npm install lodash',
  'npm ci',
  'node scripts/generate.js',
  'python3 -m pytest',
  'make test',
  'sh ./build.sh',
  'mkdir -p dist',
  'cp README.md dist/',
  'git add -A',
  'git add src/parser.ts',
  'git commit -m "Parse the new format"',
  'git commit -m "Tests for the parser"',
  'git stash',
  'git stash pop',
  'git checkout -b feature/parser',
  'git fetch origin',
  'git pull --rebase',
  'git push origin feature/parser',
  'curl -s https://example.com/api',
  'echo done',
  'pwd',
  'date',
  'node --version',
  'npm --version',
];

describe('prompts per 100 commands of a realistic session', () => {
  it('with "run confined commands without asking", only the rules ask', () => {
    assert.equal(SESSION.length, 100);
    const root = mkdtempSync(join(tmpdir(), 'relais-count-'));
    const cwd = join(root, 'project');
    mkdirSync(join(cwd, 'src'), { recursive: true });
    writeFileSync(join(cwd, 'package.json'), '{}');
    const ctx = {
      rules: DEFAULT_RULES,
      dataDir: join(root, 'data'),
      homeDir: join(root, 'home'),
      agentHomeDir: join(root, 'home'),
    };
    const decisions = SESSION.map((command) =>
      decide({ tool_name: 'Bash', input: { command }, cwd, permission_mode: 'write' }, ctx),
    );
    const asked = decisions.filter((d) => d.decision === 'ask');
    // The broker's choice: only "no rule decided" is allowed without asking.
    const stillAsked = asked.filter((d) => d.step !== 'default');
    console.log(
      `prompts per 100 commands: ${asked.length} without the choice, ${stillAsked.length} with it (${stillAsked.map((d) => d.rule).join(', ')})`,
    );
    assert.ok(stillAsked.length < asked.length);
    assert.ok(
      stillAsked.some((d) => d.rule === 'git-push'),
      'git push still asks',
    );
  });
});
