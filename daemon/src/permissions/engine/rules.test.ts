import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_RULES } from './default-rules.js';
import { MAX_ANALYSED_CHARS, decide } from './decide.js';
import { makeFixtureTree, type FixtureTree } from './fixture-tree.js';
import type { Decision, DecisionKind, Rule, RuleSet } from './types.js';

let tree: FixtureTree;
before(() => {
  tree = makeFixtureTree();
});
after(() => tree.remove());

const set = (...rules: Rule[]): RuleSet => ({ version: 1, rules });
const bash = (
  id: string,
  pattern: string,
  action: Rule['action'] & string,
  flags?: string,
): Rule =>
  flags === undefined
    ? { id, kind: 'bash', pattern, action, reason: `${id} reason` }
    : { id, kind: 'bash', pattern, flags, action, reason: `${id} reason` };

function run(
  tool: string,
  input: Record<string, unknown>,
  rules: RuleSet = DEFAULT_RULES,
  trusted?: string[],
): Decision {
  return decide(
    { tool_name: tool, input, cwd: tree.proj, permission_mode: 'write', trusted_dirs: trusted },
    { rules, dataDir: tree.data, homeDir: tree.home },
  );
}
const cmd = (command: string, rules?: RuleSet): Decision => run('Bash', { command }, rules);

function expectVerdict(d: Decision, decision: DecisionKind, rule: string | null): void {
  assert.equal(d.decision, decision, JSON.stringify(d));
  assert.equal(d.rule, rule, JSON.stringify(d));
}

describe('evaluation order', () => {
  const specificAllow = bash('allow-push-main', String.raw`^git push origin main$`, 'allow');
  const ask = bash('ask-push', String.raw`\bgit\s+push\b`, 'ask');
  const broadDeny = bash('deny-git', String.raw`\bgit\b`, 'deny');

  test('deny beats ask beats allow, whatever the specificity and file order', () => {
    expectVerdict(
      cmd('git push origin main', set(specificAllow, ask, broadDeny)),
      'deny',
      'deny-git',
    );
    expectVerdict(cmd('git push origin main', set(specificAllow, ask)), 'ask', 'ask-push');
    expectVerdict(cmd('git push origin main', set(specificAllow)), 'allow', 'allow-push-main');
    assert.equal(cmd('git push origin main', set(specificAllow)).step, 'rule');
  });

  test('within one action, the first matching rule in file order decides', () => {
    const a = bash('first', 'npm', 'deny');
    const b = bash('second', 'npm publish', 'deny');
    expectVerdict(cmd('npm publish', set(a, b)), 'deny', 'first');
    expectVerdict(cmd('npm publish', set(b, a)), 'deny', 'second');
  });

  test('an allow rule allows a chain only when it covers every command', () => {
    const rules = set(bash('allow-tests', String.raw`^npm (?:test|run lint)$`, 'allow'));
    expectVerdict(cmd('npm test && npm run lint', rules), 'allow', 'allow-tests');
    expectVerdict(cmd('npm test && rm notes.txt', rules), 'ask', null);
    expectVerdict(cmd('npm test $(cat src/a.ts)', rules), 'ask', null);
  });

  test('an allow rule never overrides the path step', () => {
    const rules = set(bash('allow-cat', '^cat ', 'allow'));
    expectVerdict(cmd('cat ../outside/secret.txt', rules), 'deny', null);
    expectVerdict(cmd('cat src/a.ts', rules), 'allow', 'allow-cat');
    expectVerdict(cmd('cat hard.txt', rules), 'deny', null);
  });

  test('the lookahead: --force refused, --force-with-lease not refused by that rule', () => {
    expectVerdict(cmd('git push --force origin feat/LCT-42500'), 'deny', 'git-push-force');
    expectVerdict(cmd('git push --force-with-lease origin feat/LCT-42500'), 'ask', 'git-push');
    const onlyForce = set(DEFAULT_RULES.rules.find((r) => r.id === 'git-push-force') as Rule);
    expectVerdict(cmd('git push --force', onlyForce), 'deny', 'git-push-force');
    expectVerdict(cmd('git push --force-with-lease', onlyForce), 'ask', null);
    expectVerdict(cmd('git push --force-with-lease --force-if-includes', onlyForce), 'ask', null);
  });
});

/** [command, decision, rule] with DEFAULT_RULES in a write session. */
const DEFAULT_BASH_CASES: [string, DecisionKind, string | null][] = [
  ['rm -rf build', 'deny', 'rm-recursive-or-forced'],
  ['rm -r dist', 'deny', 'rm-recursive-or-forced'],
  ['rm -f notes.txt', 'deny', 'rm-recursive-or-forced'],
  ['rm -v -rf build', 'deny', 'rm-recursive-or-forced'],
  ['rm --recursive build', 'deny', 'rm-recursive-or-forced'],
  ['/bin/rm -Rf build', 'deny', 'rm-recursive-or-forced'],
  ['rm notes.txt', 'ask', null],
  ['git rm -r --cached dist', 'ask', null],
  ['git reset --hard origin/main', 'deny', 'git-reset-hard'],
  ['git reset HEAD~1 --hard', 'deny', 'git-reset-hard'],
  ['git reset --soft HEAD~1', 'ask', null],
  ['git push --force origin feat/LCT-42500', 'deny', 'git-push-force'],
  ['git push origin main --force', 'deny', 'git-push-force'],
  ['git push -f', 'deny', 'git-push-f'],
  ['git push -uf origin topic', 'deny', 'git-push-f'],
  ['git push origin +main', 'deny', 'git-push-plus-refspec'],
  ['git push --force-with-lease origin feat/LCT-42500', 'ask', 'git-push'],
  ['git push origin feature-fix', 'ask', 'git-push'],
  ['git clean -fd', 'deny', 'git-clean-force'],
  ['git clean -n', 'ask', null],
  ['git stash drop', 'deny', 'git-stash-drop'],
  ['git stash clear', 'deny', 'git-stash-drop'],
  ['git stash list', 'ask', null],
  ['git checkout -- .', 'ask', 'git-checkout-discard'],
  ['git checkout main', 'ask', null],
  ['git restore .', 'ask', 'git-restore-discard'],
  ['git branch -D old-topic', 'ask', 'git-branch-force-delete'],
  ['sudo apt-get install jq', 'deny', 'sudo'],
  ['chmod 777 run.sh', 'deny', 'chmod-777'],
  ['chmod -R 777 src', 'deny', 'chmod-777'],
  ['chmod 755 run.sh', 'ask', null],
  ['psql -c "DROP TABLE users"', 'deny', 'sql-drop-table'],
  ['psql -c "drop table users"', 'deny', 'sql-drop-table'],
  ['sqlite3 app.db "DELETE FROM users;"', 'deny', 'sql-delete-without-where'],
  ['sqlite3 app.db "DELETE FROM users"', 'deny', 'sql-delete-without-where'],
  ['sqlite3 app.db "DELETE FROM users WHERE id = 1;"', 'ask', null],
  ['git push origin main', 'ask', 'git-push'],
  ['npm publish', 'ask', 'package-publish'],
  ['dotnet ef database drop --project src/Infra', 'ask', 'database-drop'],
  // Splitting: each sub-command is checked, and `.*` never spans two of them.
  ['npm test && git push --force', 'deny', 'git-push-force'],
  ['npm test; git reset --hard', 'deny', 'git-reset-hard'],
  ['git log | head -n 5 || git stash clear', 'deny', 'git-stash-drop'],
  ['echo $(git reset --hard)', 'deny', 'git-reset-hard'],
  ['echo `git stash drop`', 'deny', 'git-stash-drop'],
  ["bash -c 'rm -rf build'", 'deny', 'rm-recursive-or-forced'],
  ['rm build.log && make -f Makefile', 'ask', null],
  ['bun test', 'ask', null],
  // The command word, however it is spelt or wrapped.
  ['/usr/bin/sudo apt-get install jq', 'deny', 'sudo'],
  ['env sudo ls', 'deny', 'sudo'],
  ['env -i PATH=/usr/bin /usr/bin/sudo ls', 'deny', 'sudo'],
  ['command /usr/bin/sudo ls', 'deny', 'sudo'],
  ['\\sudo ls', 'deny', 'sudo'],
  ['exec /usr/bin/doas ls', 'deny', 'sudo'],
  ['"sudo" ls', 'deny', 'sudo'],
  ["s'u'do ls", 'deny', 'sudo'],
  ['nohup nice -n 5 ./sudo ls', 'deny', 'sudo'],
  ['FOO=1 /usr/bin/sudo ls', 'deny', 'sudo'],
  ['echo x | xargs /usr/bin/sudo rm', 'deny', 'sudo'],
  ['\\rm -rf build', 'deny', 'rm-recursive-or-forced'],
  ['"rm" -rf build', 'deny', 'rm-recursive-or-forced'],
  ["r''m -r build", 'deny', 'rm-recursive-or-forced'],
  ['env rm -rf build', 'deny', 'rm-recursive-or-forced'],
  ['time /bin/rm "-rf" build', 'deny', 'rm-recursive-or-forced'],
  ['busybox rm -rf build', 'deny', 'rm-recursive-or-forced'],
  ['find . -name x -exec /bin/rm -rf {} +', 'deny', 'rm-recursive-or-forced'],
  ['git commit -m "push --force"', 'ask', null],
  ['git commit -m "sudo: no"', 'deny', 'sudo'],
  // SQL reads comments as blanks.
  ['psql -c "DROP/**/TABLE users"', 'deny', 'sql-drop-table'],
  ['psql -c "drop/* gone */table users"', 'deny', 'sql-drop-table'],
  ["psql -c $'DROP -- gone\\nTABLE users'", 'deny', 'sql-drop-table'],
  ['psql -c "DROP /*a*//*b*/ TABLE users"', 'deny', 'sql-drop-table'],
  ['sqlite3 app.db "DELETE/**/FROM users"', 'deny', 'sql-delete-without-where'],
  ['sqlite3 app.db "delete from users where id = 1"', 'ask', null],
  ['sqlite3 app.db "DELETE FROM users WHEREVER"', 'deny', 'sql-delete-without-where'],
];

describe('default rules: bash patterns', () => {
  for (const [command, decision, rule] of DEFAULT_BASH_CASES) {
    test(`${command} → ${decision}${rule === null ? '' : ` (${rule})`}`, () =>
      expectVerdict(cmd(command), decision, rule));
  }
});

describe('default rules: zero-access circles', () => {
  test('.env: read, cat, write, redirect', () => {
    expectVerdict(run('Read', { file_path: '.env' }), 'deny', 'secrets-env-files');
    expectVerdict(cmd('cat .env'), 'deny', 'secrets-env-files');
    expectVerdict(run('Write', { file_path: '.env', content: '' }), 'deny', 'secrets-env-files');
    expectVerdict(cmd('echo TOKEN=x >> .env'), 'deny', 'secrets-env-files');
    expectVerdict(run('Read', { file_path: 'config/.env.local' }), 'deny', 'secrets-env-files');
    expectVerdict(run('Grep', { pattern: 'TOKEN', path: '.env' }), 'deny', 'secrets-env-files');
  });
  test('*.pem and *.key', () => {
    expectVerdict(run('Read', { file_path: 'keys/api.key' }), 'deny', 'secrets-key-files');
    expectVerdict(cmd('cat keys/server.pem'), 'deny', 'secrets-key-files');
    expectVerdict(cmd('cp keys/server.pem /dev/null'), 'deny', 'secrets-key-files');
    expectVerdict(cmd('cat keys/*.pem'), 'deny', 'secrets-key-files');
  });
  test('~/.ssh and ~/.aws even when the home folder is trusted', () => {
    const trusted = [tree.proj, tree.home];
    expectVerdict(
      run('Read', { file_path: `${tree.home}/.ssh/id_rsa` }, DEFAULT_RULES, trusted),
      'deny',
      'secrets-ssh',
    );
    expectVerdict(
      run('Read', { file_path: '~/.aws/credentials' }, DEFAULT_RULES, trusted),
      'deny',
      'secrets-aws',
    );
    expectVerdict(
      run('Bash', { command: 'cat ~/.ssh/id_rsa' }, DEFAULT_RULES, trusted),
      'deny',
      'secrets-ssh',
    );
    expectVerdict(
      run('LS', { path: `${tree.home}/.ssh` }, DEFAULT_RULES, trusted),
      'deny',
      'secrets-ssh',
    );
  });
});

/** The seeds' project circles (plume-factory), added to the defaults. */
const SEED_RULES: RuleSet = {
  version: 1,
  rules: [
    ...DEFAULT_RULES.rules,
    {
      id: 'factory-machinery',
      kind: 'read_only',
      paths: ['adws/adw_modules/', 'adws/adw_*.py', 'PLAN.md', '.pi/'],
      reason: 'the factory machinery is read-only',
    },
    {
      id: 'factory-survivors',
      kind: 'no_delete',
      paths: ['adws/adw_data/', 'specs/', 'justfile', '.git/'],
      reason: 'must survive a run',
    },
  ],
};

describe("the seeds' gate cases", () => {
  const seed = (tool: string, input: Record<string, unknown>): Decision =>
    run(tool, input, SEED_RULES);
  test('read PLAN.md passes', () =>
    expectVerdict(seed('Read', { file_path: 'PLAN.md' }), 'allow', null));
  test('read .env is zero-access', () =>
    expectVerdict(seed('Read', { file_path: '.env' }), 'deny', 'secrets-env-files'));
  test('edit the machinery is read-only', () =>
    expectVerdict(
      seed('Edit', { file_path: 'adws/adw_modules/runner.py', old_string: 'x', new_string: 'y' }),
      'deny',
      'factory-machinery',
    ));
  test('write the payload is not refused (a person is asked)', () => {
    const d = seed('Write', { file_path: 'src/editor.ts', content: '' });
    assert.deepEqual([d.decision, d.step, d.rule], ['ask', 'default', null]);
  });
  test('bun test is not refused', () =>
    expectVerdict(seed('Bash', { command: 'bun test' }), 'ask', null));
  test('git checkout -- . is an ask rule', () =>
    expectVerdict(seed('Bash', { command: 'git checkout -- .' }), 'ask', 'git-checkout-discard'));
  test('rm -rf is refused', () =>
    expectVerdict(
      seed('Bash', { command: 'rm -rf adws/adw_data/sessions' }),
      'deny',
      'rm-recursive-or-forced',
    ));
  test('redirecting into PLAN.md is read-only', () =>
    expectVerdict(seed('Bash', { command: 'echo ok > PLAN.md' }), 'deny', 'factory-machinery'));
  test('the circles table', () => {
    expectVerdict(seed('Bash', { command: 'ls adws/adw_data' }), 'ask', null);
    expectVerdict(seed('Bash', { command: 'cat PLAN.md' }), 'ask', null);
    expectVerdict(seed('Bash', { command: 'grep gate adws/' }), 'ask', null);
    expectVerdict(
      seed('Bash', { command: "sed -i 's/a/b/' adws/adw_modules/runner.py" }),
      'deny',
      'factory-machinery',
    );
    expectVerdict(
      seed('Bash', { command: 'tee PLAN.md < README.md' }),
      'deny',
      'factory-machinery',
    );
    expectVerdict(seed('Bash', { command: 'touch adws/adw_main.py' }), 'deny', 'factory-machinery');
    expectVerdict(seed('Write', { file_path: 'specs/nouvelle.md', content: '' }), 'ask', null);
    expectVerdict(
      seed('Edit', { file_path: 'justfile', old_string: 'x', new_string: 'y' }),
      'ask',
      null,
    );
    expectVerdict(
      seed('Bash', { command: 'rm -r adws/adw_data' }),
      'deny',
      'rm-recursive-or-forced',
    );
    expectVerdict(seed('Bash', { command: 'mv justfile old' }), 'deny', 'factory-survivors');
    expectVerdict(seed('Bash', { command: 'rm specs/one.md' }), 'deny', 'factory-survivors');
    expectVerdict(seed('Bash', { command: 'unlink justfile' }), 'deny', 'factory-survivors');
  });
  test('moving a folder takes its protected contents with it', () => {
    expectVerdict(seed('Bash', { command: 'mv adws adws-old' }), 'deny', 'factory-machinery');
    expectVerdict(seed('Bash', { command: 'rmdir specs' }), 'deny', 'factory-survivors');
  });
  test('the RTK audit log: --force blocked, --force-with-lease not', () => {
    expectVerdict(
      seed('Bash', { command: 'git push --force origin feat/LCT-42500' }),
      'deny',
      'git-push-force',
    );
    assert.notEqual(
      seed('Bash', { command: 'git push --force-with-lease origin feat/LCT-42500' }).decision,
      'deny',
    );
  });
});

describe('path globs', () => {
  test('[!…] is a negated class, a leading ! a plain character, braces alternate', () => {
    const rules = set(
      { id: 'not-a', kind: 'zero_access', paths: ['[!a]pi.key.txt'], reason: 'r' },
      { id: 'bang', kind: 'zero_access', paths: ['!x'], reason: 'r' },
      { id: 'alt', kind: 'read_only', paths: ['{specs,docs}/*.md'], reason: 'r' },
    );
    expectVerdict(run('Read', { file_path: 'bpi.key.txt' }, rules), 'deny', 'not-a');
    expectVerdict(run('Read', { file_path: 'api.key.txt' }, rules), 'allow', null);
    expectVerdict(run('Read', { file_path: '!x' }, rules), 'deny', 'bang');
    expectVerdict(run('Read', { file_path: 'y' }, rules), 'allow', null);
    expectVerdict(run('Write', { file_path: 'specs/one.md', content: '' }, rules), 'deny', 'alt');
  });

  test('** and * anchored at the cwd', () => {
    const rules = set({
      id: 'docs',
      kind: 'read_only',
      paths: ['docs/**/*.md'],
      reason: 'docs are frozen',
    });
    expectVerdict(run('Write', { file_path: 'docs/a/b/c.md', content: '' }, rules), 'deny', 'docs');
    expectVerdict(run('Write', { file_path: 'docs/top.md', content: '' }, rules), 'deny', 'docs');
    expectVerdict(run('Write', { file_path: 'docs/a/b/c.txt', content: '' }, rules), 'ask', null);
    expectVerdict(run('Read', { file_path: 'docs/top.md' }, rules), 'allow', null);
  });
  test('a circle may ask instead of refusing', () => {
    const rules = set({
      id: 'lock',
      kind: 'read_only',
      paths: ['package-lock.json'],
      action: 'ask',
      reason: 'lockfile',
    });
    expectVerdict(
      run('Edit', { file_path: 'package-lock.json', old_string: 'a', new_string: 'b' }, rules),
      'ask',
      'lock',
    );
  });
  test('no_delete lets a file change but not go', () => {
    const rules = set({ id: 'keep-src', kind: 'no_delete', paths: ['src/'], reason: 'keep' });
    expectVerdict(
      run('Edit', { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' }, rules),
      'ask',
      null,
    );
    expectVerdict(cmd('rm src/a.ts', rules), 'deny', 'keep-src');
    expectVerdict(cmd('mv src/a.ts src/b.ts', rules), 'deny', 'keep-src');
    expectVerdict(cmd('find src -name "*.ts" -delete', rules), 'deny', 'keep-src');
    expectVerdict(cmd('find . -name "*.ts" -exec rm {} \\;', rules), 'deny', 'keep-src');
  });
  test('a name glob matches any segment, a real path through a link too', () => {
    const rules = set({ id: 'no-ts', kind: 'zero_access', paths: ['*.ts'], reason: 'no ts' });
    expectVerdict(run('Read', { file_path: 'link-in' }, rules), 'deny', 'no-ts');
    const folder = set({ id: 'no-keys', kind: 'zero_access', paths: ['keys'], reason: 'no keys' });
    expectVerdict(run('Read', { file_path: 'keys/api.key' }, folder), 'deny', 'no-keys');
  });
});

describe('no input stalls the engine', () => {
  test('a command longer than the engine analyses goes to a person, never to allow', () => {
    const allowAll = set(bash('allow-all', '.*', 'allow'));
    const long = `ls ${'a'.repeat(MAX_ANALYSED_CHARS)}`;
    for (const rules of [DEFAULT_RULES, allowAll]) {
      const d = cmd(long, rules);
      assert.deepEqual([d.decision, d.step], ['ask', 'path'], JSON.stringify(d).slice(0, 300));
      assert.match(d.reason, /more than the \d+ the permission engine analyses/);
    }
    const path = run('Read', { file_path: 'a/'.repeat(MAX_ANALYSED_CHARS) }, allowAll);
    assert.equal(path.decision, 'ask');
  });

  test('the quadratic bait of the old rm pattern is decided, and by the rule', () => {
    const tooLong = cmd(`rm ${'r'.repeat(4_000)}!`);
    assert.deepEqual([tooLong.decision, tooLong.step], ['deny', 'path']);
    assert.match(tooLong.reason, /cannot be resolved \(.*ENAMETOOLONG\)/);
    expectVerdict(cmd(`rm ${'-r '.repeat(1_300)}x`), 'deny', 'rm-recursive-or-forced');
    expectVerdict(cmd(`rm -rrr${'r'.repeat(4_000)}!`), 'ask', null);
    const huge = cmd(`rm -rrr${'r'.repeat(60_000)}!`);
    assert.deepEqual([huge.decision, huge.step], ['ask', 'path']);
  });
});

describe('searches are decided by the files they can reach', () => {
  const globOf = (d: Decision): string => String(d.updatedInput?.['glob'] ?? '');

  test('a project search runs without a question, narrowed so zero-access names stay out', () => {
    const d = run('Grep', { pattern: 'TOKEN', output_mode: 'content' });
    expectVerdict(d, 'allow', null);
    const words = globOf(d).split(' ');
    for (const name of ['!.env', '!.env.local', '!*.pem', '!*.key'])
      assert.ok(words.includes(name), globOf(d));
    assert.equal(d.updatedInput?.['pattern'], 'TOKEN');
    assert.equal(d.updatedInput?.['output_mode'], 'content');
    const typed = run('Grep', { pattern: 'a', glob: '*.ts', path: 'src' });
    expectVerdict(typed, 'allow', null);
    assert.match(globOf(typed), /^\*\.ts !\.env /);
  });

  test('a filter that targets a zero-access name is refused', () => {
    expectVerdict(run('Grep', { pattern: 'x', glob: '.env' }), 'deny', 'secrets-env-files');
    expectVerdict(run('Grep', { pattern: 'x', glob: '**/.env*' }), 'deny', 'secrets-env-files');
    expectVerdict(run('Grep', { pattern: 'x', glob: '*.pem' }), 'deny', 'secrets-key-files');
    expectVerdict(run('Grep', { pattern: 'x', glob: '*.{ts,key}' }), 'deny', 'secrets-key-files');
    expectVerdict(run('Grep', { pattern: 'x', glob: '*.ts,*.pem' }), 'deny', 'secrets-key-files');
    expectVerdict(run('Glob', { pattern: '**/.env' }), 'deny', 'secrets-env-files');
    expectVerdict(run('Glob', { pattern: 'keys/*.pem' }), 'deny', 'secrets-key-files');
    expectVerdict(run('Glob', { pattern: '**/.ssh/*' }), 'deny', 'secrets-ssh');
  });

  test('broad filters are not taken for targets', () => {
    for (const glob of ['*', '**/*', '.*', '*.ts', '*.{ts,tsx}', '.env.example', 'src/**'])
      assert.equal(run('Grep', { pattern: 'x', glob }).decision, 'allow', glob);
    const names = run('Glob', { pattern: '**/*' });
    expectVerdict(names, 'allow', null);
    assert.equal(names.updatedInput, undefined, 'a names-only search is not narrowed');
  });

  test('over the home folder, ~/.ssh and ~/.aws are excluded', () => {
    const d = run('Grep', { pattern: 'x', path: tree.home }, DEFAULT_RULES, [tree.proj, tree.home]);
    expectVerdict(d, 'allow', null);
    assert.ok(globOf(d).split(' ').includes('!**/.ssh'), globOf(d));
    assert.ok(globOf(d).split(' ').includes('!**/.aws'), globOf(d));
  });

  test("over the data folder's parent, the data folder is excluded", () => {
    const d = run('Grep', { pattern: 'x', path: tree.root }, DEFAULT_RULES, [tree.root]);
    expectVerdict(d, 'allow', null);
    assert.ok(globOf(d).split(' ').includes('!**/data'), globOf(d));
    const inside = run('Grep', { pattern: 'x', path: tree.data }, DEFAULT_RULES, [tree.root]);
    assert.equal(inside.decision, 'deny');
  });

  test('a search that would need a person is refused (the agent may run it unasked)', () => {
    const rules = set({ id: 'spaced', kind: 'zero_access', paths: ['my secrets'], reason: 'r' });
    const d = run('Grep', { pattern: 'x' }, rules);
    assert.deepEqual([d.decision, d.step], ['deny', 'path'], JSON.stringify(d));
    assert.match(
      d.reason,
      /cannot be excluded through its filter; a search is not left to a person/,
    );
    const asking = set({
      id: 'ask-env',
      kind: 'zero_access',
      paths: ['.env'],
      action: 'ask',
      reason: 'r',
    });
    expectVerdict(run('Grep', { pattern: 'x', glob: '.env' }, asking), 'deny', 'ask-env');
  });
});
