import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_RULES } from '../permissions/engine/index.js';
import { sessionCircles, type CirclesInput } from './circles.js';
import { onPath } from './detect.js';
import { ToolchainMasks } from './toolchain-masks.js';

const FIND = onPath('find', process.env);
const NAMES = ['.env', '.env.*', '*.pem', '*.{key,p12}'];

/** A toolchain folder with protected names at several depths, a link and a folder among them. */
function toolchain(): string {
  const root = mkdtempSync(join(tmpdir(), 'relais-toolchain-'));
  mkdirSync(join(root, 'lib', 'python3', 'certifi'), { recursive: true });
  writeFileSync(join(root, 'lib', 'python3', 'certifi', 'cacert.pem'), 'x');
  writeFileSync(join(root, '.env.production'), 'SECRET=1');
  writeFileSync(join(root, 'lib', 'server.key'), 'x');
  mkdirSync(join(root, 'lib', '.env', 'inner'), { recursive: true });
  writeFileSync(join(root, 'lib', '.env', 'inner', 'deep.pem'), 'x');
  symlinkSync('/etc/hostname', join(root, 'lib', 'linked.pem'));
  writeFileSync(join(root, 'lib', 'plain.txt'), 'x');
  return root;
}

describe('the toolchains’ protected names, found once', () => {
  it('answers null until the search is done, then every match: a folder whole, a link by its name', async () => {
    const root = toolchain();
    const masks = new ToolchainMasks(FIND);
    assert.equal(masks.paths([root], NAMES), null, 'nothing known before the search');
    await masks.settled();
    assert.deepEqual(masks.paths([root], NAMES)?.sort(), [
      join(root, '.env.production'),
      join(root, 'lib', '.env'),
      join(root, 'lib', 'linked.pem'),
      join(root, 'lib', 'python3', 'certifi', 'cacert.pem'),
      join(root, 'lib', 'server.key'),
    ]);
  });

  it('keeps the patterns when a path would read as one, or when the search fails', async () => {
    const root = toolchain();
    writeFileSync(join(root, 'lib', 'odd[1].pem'), 'x');
    const masks = new ToolchainMasks(FIND);
    masks.paths([root], NAMES);
    await masks.settled();
    assert.equal(masks.paths([root], NAMES), null);
    const missing = new ToolchainMasks(FIND);
    missing.paths([join(root, 'not-there')], NAMES);
    await missing.settled();
    assert.equal(missing.paths([join(root, 'not-there')], NAMES), null);
    assert.equal(new ToolchainMasks(null).paths([root], NAMES), null, 'no find: patterns');
  });

  it('an old answer is not used: past its age, patterns until the next search is done', async () => {
    const root = toolchain();
    let now = 0;
    const masks = new ToolchainMasks(FIND, 500, 1000, () => now);
    masks.paths([root], NAMES);
    await masks.settled();
    writeFileSync(join(root, 'lib', 'new.pem'), 'x');
    now = 999;
    assert.ok(!masks.paths([root], NAMES)!.includes(join(root, 'lib', 'new.pem')));
    await masks.settled();
    now = 1500;
    assert.ok(masks.paths([root], NAMES)!.includes(join(root, 'lib', 'new.pem')), 'refreshed');
    now = 10_000;
    assert.equal(masks.paths([root], NAMES), null, 'too old');
  });

  it('circles: the toolchain’s names as found, the session’s own folders by pattern', async () => {
    const root = toolchain();
    const masks = new ToolchainMasks(FIND);
    const input: CirclesInput = {
      rules: DEFAULT_RULES,
      dataDir: '/home/ann/.relais',
      homeDir: '/home/ann',
      agentHomeDir: '/srv/agent-home',
      cwd: '/projects/app',
      permissionMode: 'write',
      tempDir: '/tmp/relais-session-tmp-x',
      path: `/usr/bin:${join(root, 'bin')}:${root}`,
      toolchainMasks: masks,
    };
    const before = sessionCircles(input).hidden;
    assert.ok(before.includes(`${root}/**/.env`), 'patterns until found');
    await masks.settled();
    const after = sessionCircles(input).hidden;
    assert.ok(!after.some((path) => path.startsWith(`${root}/**`)), 'no pattern in the toolchain');
    assert.ok(after.includes(join(root, '.env.production')));
    assert.ok(after.includes(join(root, 'lib', 'python3', 'certifi', 'cacert.pem')));
    assert.ok(after.includes('/projects/app/**/.env'), 'the working folder keeps its patterns');
    assert.ok(after.includes('/tmp/relais-session-tmp-x/**/*.pem'));
  });
});
