import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** One realistic working session: build, test, search, git, a package install, a push. */
export const SESSION: string[] = [
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

/**
 * A project the session's commands run in for real, offline: its build and tests are quick
 * scripts, its tools local, its git history one commit; npm neither audits nor retries.
 */
export function realisticProject(): string {
  const cwd = mkdtempSync(join(tmpdir(), 'relais-realistic-'));
  const file = (path: string, text: string, mode = 0o644): void => {
    mkdirSync(dirname(join(cwd, path)), { recursive: true });
    writeFileSync(join(cwd, path), text, { mode });
  };
  file(
    'package.json',
    JSON.stringify({
      name: 'parser',
      version: '1.0.0',
      scripts: { build: 'node -e "console.log(1)"', test: 'node -e "console.log(2)"' },
    }),
  );
  file('.npmrc', 'audit=false\nfund=false\nfetch-retries=0\nupdate-notifier=false\n');
  for (const tool of ['tsc', 'eslint'])
    file(`node_modules/.bin/${tool}`, '#!/bin/sh\necho ok\n', 0o755);
  file('Makefile', 'test:\n\t@echo tested\n');
  file('build.sh', 'echo built\n');
  file('scripts/generate.js', 'console.log("generated")\n');
  file('src/index.ts', 'export function parseConfig(): void {} // TODO\n');
  file('src/parser.ts', 'export const parser = 1;\n');
  file('README.md', '# Parser\n');
  for (const args of [
    ['init', '-q', '-b', 'main'],
    ['config', 'user.email', 'dev@example.com'],
    ['config', 'user.name', 'Dev'],
    ['add', '-A'],
    ['commit', '-qm', 'Start'],
  ])
    execFileSync('git', args, { cwd });
  return cwd;
}
