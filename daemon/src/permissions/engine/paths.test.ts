import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_RULES } from './default-rules.js';
import { decide } from './decide.js';
import { makeFixtureTree, type FixtureTree } from './fixture-tree.js';
import type { DecisionKind, DecisionStep, EngineContext } from './types.js';

type Input = Record<string, unknown>;

interface PathCase {
  name: string;
  tool: string;
  input: (t: FixtureTree) => Input;
  expect: DecisionKind;
  step: DecisionStep;
  rule?: string;
  /** Trusted folders other than [cwd]. */
  trusted?: (t: FixtureTree) => string[];
  /** The daemon's data folder inside the trusted folder (proj/.relais) instead of <root>/data. */
  dataInside?: boolean;
}

const read =
  (file: string | ((t: FixtureTree) => string)) =>
  (t: FixtureTree): Input => ({
    file_path: typeof file === 'string' ? file : file(t),
  });
const sh =
  (command: string | ((t: FixtureTree) => string)) =>
  (t: FixtureTree): Input => ({
    command: typeof command === 'string' ? command : command(t),
    description: 'test',
  });
const put =
  (file: string | ((t: FixtureTree) => string)) =>
  (t: FixtureTree): Input => ({
    file_path: typeof file === 'string' ? file : file(t),
    content: 'new\n',
  });

const ALLOW = { expect: 'allow', step: 'default' } as const;
const ASK = { expect: 'ask', step: 'default' } as const;
const REFUSED = { expect: 'deny', step: 'path' } as const;
const CAUTION = { expect: 'ask', step: 'path' } as const;

const CASES: PathCase[] = [
  // Plain paths, `..`, absolute, sibling prefix.
  { name: 'read a file inside', tool: 'Read', input: read('src/a.ts'), ...ALLOW },
  {
    name: 'read an absolute path inside',
    tool: 'Read',
    input: read((t) => `${t.proj}/src/a.ts`),
    ...ALLOW,
  },
  {
    name: 'read through ./ and .. staying inside',
    tool: 'Read',
    input: read('./src/../src/a.ts'),
    ...ALLOW,
  },
  {
    name: 'read climbing out with ..',
    tool: 'Read',
    input: read('../outside/secret.txt'),
    ...REFUSED,
  },
  {
    name: 'read an absolute path outside',
    tool: 'Read',
    input: read((t) => `${t.outside}/secret.txt`),
    ...REFUSED,
  },
  { name: 'read a system file', tool: 'Read', input: read('/etc/hostname'), ...REFUSED },
  {
    name: 'read the sibling-prefix folder (relative)',
    tool: 'Read',
    input: read('../proj-evil/x.txt'),
    ...REFUSED,
  },
  {
    name: 'read the sibling-prefix folder (absolute)',
    tool: 'Read',
    input: read((t) => `${t.evil}/x.txt`),
    ...REFUSED,
  },
  {
    name: 'write into the sibling-prefix folder',
    tool: 'Write',
    input: put((t) => `${t.evil}/new.txt`),
    ...REFUSED,
  },
  {
    name: 'sibling-prefix folder allowed when trusted too',
    tool: 'Read',
    input: read((t) => `${t.evil}/x.txt`),
    ...ALLOW,
    trusted: (t) => [t.proj, t.evil],
  },
  { name: 'write the parent folder', tool: 'Write', input: put('..'), ...REFUSED },
  { name: 'write a new file inside', tool: 'Write', input: put('src/new.ts'), ...ASK },
  {
    name: 'write a new file in new folders inside',
    tool: 'Write',
    input: put('new-dir/deep/file.ts'),
    ...ASK,
  },
  {
    name: 'write through a missing folder and .. out',
    tool: 'Write',
    input: put('nonexist/../../outside/x'),
    ...REFUSED,
  },
  {
    name: 'read ~/ expands to the home folder (untrusted)',
    tool: 'Read',
    input: read('~/.ssh/id_rsa'),
    ...REFUSED,
  },
  // Symbolic links.
  { name: 'relative link inside', tool: 'Read', input: read('link-in'), ...ALLOW },
  { name: 'folder link inside', tool: 'Read', input: read('link-in-dir/a.ts'), ...ALLOW },
  { name: 'relative link leading out', tool: 'Read', input: read('link-out'), ...REFUSED },
  {
    name: 'absolute folder link leading out',
    tool: 'Read',
    input: read('link-out-abs/secret.txt'),
    ...REFUSED,
  },
  {
    name: 'link into the sibling-prefix folder',
    tool: 'Read',
    input: read('evil-link/x.txt'),
    ...REFUSED,
  },
  { name: 'chained links leading out', tool: 'Read', input: read('chain1'), ...REFUSED },
  { name: 'chained links staying inside', tool: 'Read', input: read('chain-in1'), ...ALLOW },
  {
    name: 'write a dangling link whose target is outside',
    tool: 'Write',
    input: put('dangling-out'),
    ...REFUSED,
  },
  {
    name: 'edit a dangling link whose target is outside',
    tool: 'Edit',
    input: (t) => ({ ...read('dangling-out')(t), old_string: 'a', new_string: 'b' }),
    ...REFUSED,
  },
  {
    name: 'read a dangling link whose target is outside',
    tool: 'Read',
    input: read('dangling-out'),
    ...REFUSED,
  },
  {
    name: 'write a dangling link whose target is inside',
    tool: 'Write',
    input: put('dangling-in'),
    ...ASK,
  },
  { name: 'link loop', tool: 'Read', input: read('loop1'), ...REFUSED },
  {
    name: '.. after a folder link climbs from its target (stays inside)',
    tool: 'Read',
    input: read('link-in-dir/../README.md'),
    ...ALLOW,
  },
  {
    name: '.. after an outside link climbs outside (lexically inside)',
    tool: 'Read',
    input: read('link-out-abs/../outside/secret.txt'),
    ...REFUSED,
  },
  // Hard links.
  {
    name: 'write a file hard-linked to an outside file',
    tool: 'Write',
    input: put('hard.txt'),
    ...REFUSED,
  },
  {
    name: 'read a hard-linked file is refused',
    tool: 'Read',
    input: read('hard.txt'),
    ...REFUSED,
  },
  {
    name: 'read a file with two links inside is refused',
    tool: 'Read',
    input: read('hard-in-b.txt'),
    ...REFUSED,
  },
  {
    name: 'edit a file with two links inside',
    tool: 'Edit',
    input: (t) => ({ ...read('hard-in-a.txt')(t), old_string: 'x', new_string: 'y' }),
    ...REFUSED,
  },
  {
    name: 'multi-edit the other name of that file',
    tool: 'MultiEdit',
    input: (t) => ({ ...read('hard-in-b.txt')(t), edits: [] }),
    ...REFUSED,
  },
  // Empty, NUL, missing.
  { name: 'empty path', tool: 'Read', input: read(''), ...REFUSED },
  { name: 'NUL byte in a path', tool: 'Read', input: read('src/a\0.ts'), ...REFUSED },
  { name: 'missing file_path', tool: 'Read', input: () => ({}), ...REFUSED },
  { name: 'NUL byte in a command', tool: 'Bash', input: sh('cat src/a.ts\0'), ...REFUSED },
  // The daemon's data folder and key file.
  {
    name: 'read the key file (absolute)',
    tool: 'Read',
    input: read((t) => `${t.data}/key`),
    ...REFUSED,
  },
  {
    name: 'read the key file through a link',
    tool: 'Read',
    input: read('data-link/key'),
    ...REFUSED,
  },
  {
    name: 'glob the data folder',
    tool: 'Glob',
    input: (t) => ({ pattern: '*', path: t.data }),
    ...REFUSED,
  },
  {
    name: 'data folder inside the trusted folder: read the key',
    tool: 'Read',
    input: read('.relais/key'),
    ...REFUSED,
    dataInside: true,
  },
  {
    name: 'data folder inside the trusted folder: through a link',
    tool: 'Read',
    input: read('relais-link/key'),
    ...REFUSED,
    dataInside: true,
  },
  {
    name: 'data folder inside the trusted folder: write',
    tool: 'Write',
    input: put('.relais/new.json'),
    ...REFUSED,
    dataInside: true,
  },
  {
    name: 'data folder inside the trusted folder: cat the key',
    tool: 'Bash',
    input: sh('cat .relais/key'),
    ...REFUSED,
    dataInside: true,
  },
  {
    name: 'data folder inside the trusted folder: grep it',
    tool: 'Grep',
    input: () => ({ pattern: 'k', path: '.relais' }),
    ...REFUSED,
    dataInside: true,
  },
  {
    name: 'data folder inside the trusted folder: list it',
    tool: 'LS',
    input: () => ({ path: '.relais' }),
    ...REFUSED,
    dataInside: true,
  },
  {
    name: 'data folder inside the trusted folder: copy the key',
    tool: 'Bash',
    input: sh('cp .relais/key stolen.txt'),
    ...REFUSED,
    dataInside: true,
  },
  // Search tools.
  {
    name: 'grep outside',
    tool: 'Grep',
    input: () => ({ pattern: 'x', path: '../outside' }),
    ...REFUSED,
  },
  { name: 'grep the cwd', tool: 'Grep', input: () => ({ pattern: 'x' }), ...ALLOW },
  {
    name: 'glob pattern climbing out',
    tool: 'Glob',
    input: () => ({ pattern: '../../**' }),
    ...REFUSED,
  },
  {
    name: 'glob pattern absolute outside',
    tool: 'Glob',
    input: () => ({ pattern: '/etc/*.conf' }),
    ...REFUSED,
  },
  {
    name: 'glob pattern .. after a wildcard',
    tool: 'Glob',
    input: () => ({ pattern: 'src/**/../../../x' }),
    ...REFUSED,
  },
  {
    name: 'glob pattern inside',
    tool: 'Glob',
    input: () => ({ pattern: 'src/**/*.ts' }),
    ...ALLOW,
  },
  { name: 'list the trusted folder', tool: 'LS', input: (t) => ({ path: t.proj }), ...ALLOW },
  {
    name: 'notebook edit outside',
    tool: 'NotebookEdit',
    input: () => ({ notebook_path: '../outside/n.ipynb', new_source: '' }),
    ...REFUSED,
  },
  // Circles meet real paths.
  {
    name: 'read .env',
    tool: 'Read',
    input: read('.env'),
    expect: 'deny',
    step: 'rule',
    rule: 'secrets-env-files',
  },
  {
    name: 'read a .pem',
    tool: 'Read',
    input: read('keys/server.pem'),
    expect: 'deny',
    step: 'rule',
    rule: 'secrets-key-files',
  },
  { name: 'read .env.example (not a secret)', tool: 'Read', input: read('.env.example'), ...ALLOW },
  {
    name: '~/.ssh when home is trusted: the circle refuses',
    tool: 'Read',
    input: read((t) => `${t.home}/.ssh/id_rsa`),
    expect: 'deny',
    step: 'rule',
    rule: 'secrets-ssh',
    trusted: (t) => [t.proj, t.home],
  },
  // Bash: what commands name.
  { name: 'bash: cat inside', tool: 'Bash', input: sh('cat src/a.ts'), ...ASK },
  { name: 'bash: cat outside', tool: 'Bash', input: sh('cat ../outside/secret.txt'), ...REFUSED },
  { name: 'bash: redirect out', tool: 'Bash', input: sh('echo x > ../outside/f'), ...REFUSED },
  {
    name: 'bash: append to an absolute path out',
    tool: 'Bash',
    input: sh((t) => `echo x >> ${t.outside}/log`),
    ...REFUSED,
  },
  {
    name: 'bash: redirect with no space',
    tool: 'Bash',
    input: sh('echo x>../outside/f'),
    ...REFUSED,
  },
  {
    name: 'bash: input redirection from outside',
    tool: 'Bash',
    input: sh('wc -l < ../outside/secret.txt'),
    ...REFUSED,
  },
  { name: 'bash: cp onto outside', tool: 'Bash', input: sh('cp src/a.ts ../outside/'), ...REFUSED },
  {
    name: 'bash: cp from outside',
    tool: 'Bash',
    input: sh('cp ../outside/secret.txt .'),
    ...REFUSED,
  },
  {
    name: 'bash: mv into the sibling-prefix folder',
    tool: 'Bash',
    input: sh('mv src/a.ts ../proj-evil/'),
    ...REFUSED,
  },
  {
    name: 'bash: touch in the sibling-prefix folder',
    tool: 'Bash',
    input: sh('touch ../proj-evil/y'),
    ...REFUSED,
  },
  {
    name: 'bash: tee outside',
    tool: 'Bash',
    input: sh('tee ../outside/log < src/a.ts'),
    ...REFUSED,
  },
  {
    name: 'bash: sed -i outside',
    tool: 'Bash',
    input: sh("sed -i 's/a/b/' ../outside/secret.txt"),
    ...REFUSED,
  },
  {
    name: 'bash: chmod outside',
    tool: 'Bash',
    input: sh('chmod 644 ../outside/secret.txt'),
    ...REFUSED,
  },
  {
    name: 'bash: ln (hard link) from outside',
    tool: 'Bash',
    input: sh('ln ../outside/secret.txt grab.txt'),
    ...REFUSED,
  },
  { name: 'bash: cat a link leading out', tool: 'Bash', input: sh('cat link-out'), ...REFUSED },
  {
    name: 'bash: write a dangling link leading out',
    tool: 'Bash',
    input: sh('echo x > dangling-out'),
    ...REFUSED,
  },
  {
    name: 'bash: write a hard-linked file',
    tool: 'Bash',
    input: sh('echo x > hard.txt'),
    ...REFUSED,
  },
  {
    name: 'bash: cat a hard-linked file',
    tool: 'Bash',
    input: sh('cat hard.txt'),
    ...REFUSED,
  },
  {
    name: 'bash: cp from a file with two links',
    tool: 'Bash',
    input: sh('cp hard-in-a.txt copy.txt'),
    ...REFUSED,
  },
  {
    name: 'bash: sed -i a file with two links',
    tool: 'Bash',
    input: sh("sed -i 's/x/y/' hard-in-a.txt"),
    ...REFUSED,
  },
  {
    name: 'bash: rm a link leading out removes only the link',
    tool: 'Bash',
    input: sh('rm link-out'),
    ...ASK,
  },
  {
    name: 'bash: write through a link inside',
    tool: 'Bash',
    input: sh('echo x > link-in'),
    ...ASK,
  },
  {
    name: 'bash: cat the key through a link',
    tool: 'Bash',
    input: sh('cat data-link/key'),
    ...REFUSED,
  },
  {
    name: 'bash: cd .. then read',
    tool: 'Bash',
    input: sh('cd .. && cat outside/secret.txt'),
    ...REFUSED,
  },
  {
    name: 'bash: cd into a subfolder then ..',
    tool: 'Bash',
    input: sh('cd src && cat ../README.md'),
    ...ASK,
  },
  {
    name: 'bash: cd in a subshell does not carry',
    tool: 'Bash',
    input: sh('(cd src) && cat ../README.md'),
    ...REFUSED,
  },
  {
    name: 'bash: cd then climb twice',
    tool: 'Bash',
    input: sh('cd src; cat ../../outside/secret.txt'),
    ...REFUSED,
  },
  {
    name: 'bash: $(…) substitution',
    tool: 'Bash',
    input: sh('ls $(cat ../outside/secret.txt)'),
    ...REFUSED,
  },
  {
    name: 'bash: backtick substitution',
    tool: 'Bash',
    input: sh('echo `cat ../outside/secret.txt`'),
    ...REFUSED,
  },
  {
    name: 'bash: bash -c script',
    tool: 'Bash',
    input: sh('bash -c "cat ../outside/secret.txt"'),
    ...REFUSED,
  },
  {
    name: 'bash: second command of a chain',
    tool: 'Bash',
    input: sh('git status && rm ../outside/secret.txt'),
    ...REFUSED,
  },
  {
    name: 'bash: pipe then redirect to /dev/null',
    tool: 'Bash',
    input: sh('cat src/a.ts | grep x > /dev/null 2>&1'),
    ...ASK,
  },
  { name: 'bash: ~ is the home folder', tool: 'Bash', input: sh('cat ~/.ssh/id_rsa'), ...REFUSED },
  {
    name: 'bash: $HOME is the home folder',
    tool: 'Bash',
    input: sh('cat "$HOME/.aws/credentials"'),
    ...REFUSED,
  },
  {
    name: 'bash: variable path cannot be told: a person',
    tool: 'Bash',
    input: sh('rm "$DIR"'),
    ...CAUTION,
  },
  {
    name: 'bash: variable under an outside folder',
    tool: 'Bash',
    input: sh('rm /etc/$X'),
    ...REFUSED,
  },
  {
    name: 'bash: wildcard expanded against the folder',
    tool: 'Bash',
    input: sh('cat .en*'),
    expect: 'deny',
    step: 'rule',
    rule: 'secrets-env-files',
  },
  { name: 'bash: find outside', tool: 'Bash', input: sh('find ../outside -name x'), ...REFUSED },
  {
    name: 'bash: generic command with an outside path',
    tool: 'Bash',
    input: sh('python3 ../outside/evil.py'),
    ...REFUSED,
  },
  {
    name: 'bash: git -C outside',
    tool: 'Bash',
    input: sh((t) => `git -C ${t.outside} status`),
    ...REFUSED,
  },
  {
    name: 'bash: quoted text is not a path',
    tool: 'Bash',
    input: sh("echo 'cat ../outside/secret.txt'"),
    ...ASK,
  },
  { name: 'bash: empty path operand', tool: 'Bash', input: sh("cat ''"), ...REFUSED },
  {
    name: 'bash: a working folder outside the trusted ones',
    tool: 'Bash',
    input: sh('npm test'),
    ...REFUSED,
    trusted: (t) => [t.evil],
  },
  {
    name: 'bash: xargs arguments cannot be told',
    tool: 'Bash',
    input: sh('xargs rm < list.txt'),
    ...CAUTION,
  },
];

describe('real paths', () => {
  let tree: FixtureTree;
  before(() => {
    tree = makeFixtureTree();
    fs.mkdirSync(path.join(tree.proj, '.relais'));
    fs.writeFileSync(path.join(tree.proj, '.relais', 'key'), 'daemon key\n');
    fs.symlinkSync('.relais', path.join(tree.proj, 'relais-link'));
  });
  after(() => tree.remove());

  test('the table holds at least 60 cases', () => {
    assert.ok(CASES.length >= 60, `${CASES.length} cases`);
  });

  for (const c of CASES) {
    test(c.name, () => {
      const ctx: EngineContext = {
        rules: DEFAULT_RULES,
        dataDir: c.dataInside === true ? path.join(tree.proj, '.relais') : tree.data,
        homeDir: tree.home,
      };
      const decision = decide(
        {
          tool_name: c.tool,
          input: c.input(tree),
          cwd: tree.proj,
          permission_mode: 'write',
          trusted_dirs: c.trusted?.(tree),
        },
        ctx,
      );
      const seen = JSON.stringify(decision);
      assert.equal(decision.decision, c.expect, seen);
      assert.equal(decision.step, c.step, seen);
      if (c.rule !== undefined) assert.equal(decision.rule, c.rule, seen);
    });
  }
});

describe("the agent's HOME differs from the user's", () => {
  // The agent runs with HOME=<root>/proj (RELAIS_AGENT_HOME); the user's home is <root>/home.
  let tree: FixtureTree;
  before(() => {
    tree = makeFixtureTree();
  });
  after(() => tree.remove());

  const pick = (d: { decision: DecisionKind; step: DecisionStep }) => ({
    decision: d.decision,
    step: d.step,
  });
  const check = (tool: string, input: Input): { decision: DecisionKind; step: DecisionStep } =>
    decide(
      { tool_name: tool, input, cwd: tree.proj, permission_mode: 'write' },
      { rules: DEFAULT_RULES, dataDir: tree.data, homeDir: tree.home, agentHomeDir: tree.proj },
    );

  test('~ in a command is the agent HOME, as its shell reads it', () => {
    // Inside the session's folder: a command goes to a person (Bash's default), it is not refused.
    for (const command of ['cat ~/src/a.ts', 'cat $HOME/src/a.ts', 'cat src/a.ts'])
      assert.deepEqual(
        pick(check('Bash', { command })),
        { decision: 'ask', step: 'default' },
        command,
      );
  });

  test('~ in a file tool path is the agent HOME too', () => {
    assert.equal(check('Read', { file_path: '~/src/a.ts' }).decision, 'allow');
  });

  test("the user's own secrets stay out of reach by their real path", () => {
    const ssh = path.join(tree.home, '.ssh/id_rsa');
    assert.equal(check('Bash', { command: `cat ${ssh}` }).decision, 'deny');
    assert.equal(check('Read', { file_path: ssh }).decision, 'deny');
  });
});
