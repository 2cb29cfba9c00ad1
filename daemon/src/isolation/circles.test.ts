import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_RULES } from '../permissions/engine/index.js';
import { sessionCircles, type CirclesInput } from './circles.js';
import { claudeSandboxSettings } from './claude-sandbox.js';

const input = (over: Partial<CirclesInput> = {}): CirclesInput => ({
  rules: DEFAULT_RULES,
  dataDir: '/home/ann/.relais',
  homeDir: '/home/ann',
  agentHomeDir: '/srv/agent-home',
  cwd: '/projects/app',
  permissionMode: 'write',
  tempDir: '/tmp/relais-session-tmp-x',
  path: '/usr/bin:/home/ann/.nvm/versions/node/v20/bin:/home/ann:/:.:relative/bin:/home/ann/.relais/bin',
  ...over,
});

describe('circles derived from the rules', () => {
  it('hides the data folder and the home circles in both homes', () => {
    const { hidden } = sessionCircles(input());
    for (const path of [
      '/home/ann/.relais',
      '/home/ann/.ssh',
      '/srv/agent-home/.ssh',
      '/home/ann/.aws',
      '/srv/agent-home/.aws',
    ])
      assert.ok(hidden.includes(path), path);
  });

  it('masks zero-access names at any depth of the folders the session owns', () => {
    const { hidden } = sessionCircles(input());
    for (const root of ['/projects/app', '/tmp/relais-session-tmp-x'])
      for (const name of ['.env', '.env.local', '.env.*.local', '*.pem', '*.key'])
        assert.ok(hidden.includes(`${root}/**/${name}`), `${root} ${name}`);
  });

  it('reads anchored to the working folder and absolute circles of custom rules', () => {
    const rules = {
      version: 2,
      rules: [
        { id: 'a', kind: 'zero_access' as const, paths: ['secrets/', '/etc/shadow'], reason: 'r' },
        { id: 'b', kind: 'read_only' as const, paths: ['docs/'], reason: 'r' },
      ],
    };
    const { hidden } = sessionCircles(input({ rules }));
    assert.ok(hidden.includes('/projects/app/secrets'));
    assert.ok(hidden.includes('/etc/shadow'));
    assert.ok(!hidden.some((p) => p.includes('docs')), 'only zero-access circles are hidden');
  });

  it('writes in the working and private folders only, none in read-only mode', () => {
    assert.deepEqual(sessionCircles(input()).writable, [
      '/projects/app',
      '/tmp/relais-session-tmp-x',
    ]);
    assert.deepEqual(sessionCircles(input({ permissionMode: 'read_only' })).writable, []);
  });

  it('exposes a toolchain of PATH, never a home, the root or the data folder', () => {
    const home = mkdtempSync(join(tmpdir(), 'relais-circles-'));
    const node = join(home, '.nvm', 'versions', 'node', 'v20');
    for (const folder of [join(node, 'bin'), join(home, '.relais', 'bin'), join(home, 'bin')])
      mkdirSync(folder, { recursive: true });
    const { readable } = sessionCircles(
      input({
        homeDir: home,
        agentHomeDir: home,
        dataDir: join(home, '.relais'),
        path: [
          join(node, 'bin'),
          home,
          '/',
          join(home, '.relais', 'bin'),
          join(home, 'bin'),
          '.',
        ].join(':'),
      }),
    );
    assert.ok(readable.includes(node), 'a bin folder brings its toolchain');
    const { hidden } = sessionCircles(
      input({
        homeDir: home,
        agentHomeDir: home,
        dataDir: join(home, '.relais'),
        path: join(node, 'bin'),
      }),
    );
    assert.ok(hidden.includes(`${node}/**/.env`), 'names are masked in a toolchain of a home');
    assert.ok(!hidden.some((p) => p.startsWith('/usr/')), 'not in the system folders');
    assert.ok(readable.includes(join(home, 'bin')), 'a bin folder right under a home alone');
    for (const path of [
      '/',
      home,
      join(home, '.relais'),
      join(home, '.relais', 'bin'),
      dirname(home),
    ])
      assert.ok(!readable.includes(path), path);
  });

  it('Claude settings: everything denied, then the circles opened, and no way around them', () => {
    const circles = sessionCircles(input());
    const sandbox = claudeSandboxSettings(circles)['sandbox'] as Record<string, any>;
    assert.equal(sandbox['enabled'], true);
    assert.equal(sandbox['failIfUnavailable'], true);
    assert.equal(sandbox['allowUnsandboxedCommands'], false);
    assert.equal(sandbox['autoAllowBashIfSandboxed'], false);
    assert.equal(sandbox['filesystem']['denyRead'][0], '/');
    assert.deepEqual(sandbox['filesystem']['allowWrite'], circles.writable);
  });

  it('Claude settings in read-only mode deny writes in the working and temporary folders by name', () => {
    const circles = sessionCircles(input({ permissionMode: 'read_only' }));
    const sandbox = claudeSandboxSettings(circles)['sandbox'] as Record<string, any>;
    assert.deepEqual(sandbox['filesystem']['allowWrite'], []);
    for (const folder of ['/projects/app', '/tmp/relais-session-tmp-x'])
      assert.ok(sandbox['filesystem']['denyWrite'].includes(folder), folder);
    const writing = claudeSandboxSettings(sessionCircles(input()))['sandbox'] as Record<
      string,
      any
    >;
    assert.ok(!writing['filesystem']['denyWrite'].includes('/projects/app'));
  });
});
