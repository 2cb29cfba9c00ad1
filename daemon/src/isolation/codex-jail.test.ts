import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_RULES } from '../permissions/engine/index.js';
import { sessionCircles } from './circles.js';
import { spawnSync } from 'node:child_process';
import { codexJailArguments, codexJailLaunch } from './codex-jail.js';
import { JAIL_SH, runsWrappedShell } from './codex-shell.js';
import { onPath } from './detect.js';
import { maskFinder } from './name-masks.js';

describe('the bubblewrap arguments of a Codex session', () => {
  const root = mkdtempSync(join(tmpdir(), 'relais-jail-'));
  const cwd = join(root, 'project');
  const data = join(root, 'data');
  mkdirSync(join(cwd, 'deep', 'er'), { recursive: true });
  mkdirSync(join(data, 'subscriptions', 'codex'), { recursive: true });
  writeFileSync(join(cwd, '.env'), 'x');
  writeFileSync(join(cwd, 'deep', 'er', 'id.pem'), 'x');
  mkdirSync(join(cwd, 'deep', 'certs.key'));
  symlinkSync('/etc/hostname', join(cwd, 'link.key'));
  const circles = sessionCircles({
    rules: DEFAULT_RULES,
    dataDir: data,
    homeDir: join(root, 'home'),
    agentHomeDir: join(root, 'home'),
    cwd,
    permissionMode: 'write',
    tempDir: join(root, 'tmp'),
    path: '/usr/bin',
  });
  const args = codexJailArguments({
    circles,
    codexHome: join(data, 'subscriptions', 'codex'),
    binaryFolder: '/usr/bin',
    cwd,
    wrapperFolder: join(root, 'tmp', '.relais-shell'),
    bwrap: '/usr/bin/bwrap',
    find: '/usr/bin/find',
  });
  const pairs = (flag: string): string[] =>
    args.flatMap((arg, i) => (arg === flag ? [args[i + 1] ?? ''] : []));

  it('masks protected names at any depth: files with an empty file, folders with a tmpfs', () => {
    // What find prints as the jail starts, read by bubblewrap with --args.
    const found = spawnSync('find', maskFinder(circles.masked, circles.names), {
      encoding: 'utf8',
    });
    const args = found.stdout.split('\0');
    const files = args.flatMap((arg, i) =>
      arg === '--ro-bind' && args[i + 1] === '/dev/null' ? [args[i + 2]] : [],
    );
    assert.ok(files.includes(join(cwd, '.env')));
    assert.ok(files.includes(join(cwd, 'deep', 'er', 'id.pem')));
    assert.ok(args.includes(join(cwd, 'deep', 'certs.key')));
    assert.equal(args[args.indexOf(join(cwd, 'deep', 'certs.key')) - 1], '--tmpfs');
  });

  it('never mounts over a link (bubblewrap would follow it)', () => {
    const found = spawnSync('find', maskFinder(circles.masked, circles.names), {
      encoding: 'utf8',
    });
    assert.ok(found.stdout.includes(join(cwd, 'deep', 'certs.key')));
    assert.ok(!found.stdout.includes(join(cwd, 'link.key')));
  });

  it('exposes the working folder read-write, the subscription folder alone of the data folder', () => {
    assert.ok(pairs('--bind').includes(cwd));
    assert.ok(pairs('--bind').includes(join(data, 'subscriptions', 'codex')));
    assert.ok(!args.includes(data));
    assert.equal(args[args.indexOf('--chdir') + 1], cwd);
  });

  it('read-only mode: nothing writable but the subscription folder', () => {
    const readOnly = codexJailArguments({
      circles: sessionCircles({
        rules: DEFAULT_RULES,
        dataDir: data,
        homeDir: join(root, 'home'),
        agentHomeDir: join(root, 'home'),
        cwd,
        permissionMode: 'read_only',
        tempDir: join(root, 'tmp'),
        path: '/usr/bin',
      }),
      codexHome: join(data, 'subscriptions', 'codex'),
      binaryFolder: '/usr/bin',
      cwd,
      wrapperFolder: join(root, 'tmp-ro', '.relais-shell'),
      bwrap: '/usr/bin/bwrap',
      find: '/usr/bin/find',
    });
    const binds = readOnly.flatMap((arg, i) => (arg === '--bind' ? [readOnly[i + 1]] : []));
    assert.deepEqual(binds, [join(data, 'subscriptions', 'codex')]);
  });
});

describe('the shells a Codex command may run through', () => {
  it('are the wrapped system shells, not one the model names elsewhere', () => {
    assert.ok(runsWrappedShell("/bin/bash -lc 'ls'"));
    assert.ok(runsWrappedShell("/usr/bin/zsh -lc 'ls'"));
    for (const command of [
      "/tmp/bash -lc 'cat auth.json'",
      "/work/project/bin/bash -lc 'ls'",
      "/proc/self/root/bin/bash -lc 'ls'",
      "/bin/../tmp/bash -lc 'ls'",
      'bash -lc ls',
      "/bin/bash\t-lc 'ls'",
      '',
    ])
      assert.equal(runsWrappedShell(command), false, command);
  });
});

const bwrap = onPath('bwrap', process.env);
const find = onPath('find', process.env);
const setpriv = onPath('setpriv', process.env);
const asRoot = process.getuid?.() === 0;

/**
 * Both jails for real, as a user without privileges (through setpriv when the tests run as root):
 * `appServer` runs as the app server would, `$0` being the command it then runs through a shell.
 */
function jailed(mode: 'write' | 'read_only', appServer: string, command: string) {
  const base = mkdtempSync(join(tmpdir(), 'relais-nested-'));
  const cwd = join(base, 'project');
  // Outside /tmp (where the data folder of a real install is not): a command's /tmp is its own.
  const data = mkdtempSync(join(existsSync('/var/tmp') ? '/var/tmp' : base, 'relais-data-'));
  const codexHome = join(data, 'subscriptions', 'codex');
  const temp = join(base, 'tmp');
  for (const folder of [cwd, codexHome, temp]) mkdirSync(folder, { recursive: true });
  writeFileSync(join(codexHome, 'auth.json'), 'AUTH-SECRET');
  const circles = sessionCircles({
    rules: DEFAULT_RULES,
    dataDir: data,
    homeDir: join(base, 'home'),
    agentHomeDir: join(base, 'home'),
    cwd,
    permissionMode: mode,
    tempDir: temp,
    path: '/usr/bin:/bin',
  });
  const launch = codexJailLaunch(
    {
      circles,
      codexHome,
      binaryFolder: '/usr/bin',
      cwd,
      wrapperFolder: join(temp, '.relais-shell'),
      bwrap: bwrap!,
      find: find!,
    },
    [JAIL_SH, '-c', appServer, command],
  );
  for (const folder of [base, data, cwd, codexHome, temp]) chmodSync(folder, 0o777);
  chmodSync(join(temp, '.relais-shell'), 0o755);
  chmodSync(join(codexHome, 'auth.json'), 0o644);
  const user = asRoot ? ['--reuid=65534', '--regid=65534', '--clear-groups', '--', '/bin/sh'] : [];
  const run = spawnSync(asRoot ? setpriv! : '/bin/sh', [...user, ...launch], {
    cwd,
    encoding: 'utf8',
    env: { PATH: '/usr/bin:/bin', CODEX_HOME: codexHome, TMPDIR: temp },
  });
  return { run, cwd, codexHome, temp };
}

describe('the jails themselves, as a user without privileges', () => {
  const skip = !bwrap || !find || (asRoot && !setpriv);

  it(
    'a command sees no CODEX_HOME, no protected name made after the start, and holds no capability',
    { skip },
    () => {
      const reader = [
        'cat "$CODEX_HOME/auth.json" late.pem 2>&1',
        'grep CapEff /proc/self/status',
        'echo made-inside > made.txt && cat made.txt',
      ].join('; ');
      const { run } = jailed(
        'write',
        'cat "$CODEX_HOME/auth.json"; echo PEM-SECRET > late.pem; /bin/bash -lc "$0"',
        reader,
      );
      assert.equal(run.status, 0, run.stderr);
      assert.equal(run.stdout.split('AUTH-SECRET').length, 2, 'the app server reads it, once');
      assert.match(run.stdout, /CapEff:\s+0{16}/);
      assert.match(run.stdout, /made-inside/);
      assert.doesNotMatch(run.stdout, /PEM-SECRET/);
    },
  );

  it('read-only mode: the system refuses every write of a command', { skip }, () => {
    const writer = [
      'echo x > made.txt',
      'echo x > "$TMPDIR/made.txt"',
      'echo x > "$CODEX_HOME/made.txt"',
      'echo x > /tmp/scratch && echo scratch-ok',
    ].join('; ');
    const { run, cwd, codexHome, temp } = jailed('read_only', '/bin/bash -lc "$0"', writer);
    assert.equal(existsSync(join(temp, 'made.txt')), false);
    assert.match(run.stdout, /scratch-ok/, 'a command may still use its own /tmp');
    assert.equal(existsSync(join(cwd, 'made.txt')), false);
    assert.equal(existsSync(join(codexHome, 'made.txt')), false);
    assert.equal(
      (run.stderr.match(/Read-only file system|No such file or directory/g) ?? []).length,
      3,
      run.stderr,
    );
  });
});
