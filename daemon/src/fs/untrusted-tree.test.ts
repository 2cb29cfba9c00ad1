import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { readConfined, writeConfined } from './confined-files.js';
import { fenceOf, type Fence } from './fence.js';
import { openInside, readInside } from './untrusted-file.js';
import { walkInside } from './untrusted-tree.js';

const roots: string[] = [];
const tree = (): string => {
  const root = mkdtempSync(join(tmpdir(), 'relais-untrusted-'));
  roots.push(root);
  return root;
};
const jsonl = (path: string): boolean => path.endsWith('.jsonl');
const limits = { maxDepth: 12, maxEntries: 10_000 };

describe('walking and opening a tree Relais does not own', () => {
  after(() => {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });

  test('depth and entry caps end the walk and say so', async () => {
    const root = tree();
    let deep = root;
    for (let i = 0; i < 20; i++) mkdirSync((deep = join(deep, `d${i}`)));
    writeFileSync(join(deep, 'far.jsonl'), '{}\n');
    for (let i = 0; i < 50; i++) writeFileSync(join(root, `f${i}.jsonl`), '{}\n');
    const fence = await fenceOf(root, { closed: [] });
    const capped = await walkInside(fence, root, jsonl, { maxDepth: 5, maxEntries: 10_000 });
    assert.equal(capped.files.length, 50);
    assert.ok(capped.refused.some((r) => /deeper than 5/.test(r.error)));
    const few = await walkInside(fence, root, jsonl, { maxDepth: 30, maxEntries: 10 });
    assert.ok(few.files.length <= 10);
    assert.ok(few.refused.some((r) => /more than 10 entries/.test(r.error)));
  });

  test('links to "." and ".." inside the root are visited once; a file linked twice is listed once', async () => {
    const root = tree();
    mkdirSync(join(root, 'a'));
    writeFileSync(join(root, 'a', 'x.jsonl'), '{}\n');
    for (let i = 0; i < 8; i++) {
      symlinkSync('..', join(root, 'a', `up${i}`));
      symlinkSync('.', join(root, 'a', `here${i}`));
    }
    symlinkSync(join(root, 'a', 'x.jsonl'), join(root, 'y.jsonl'));
    const fence = await fenceOf(root, { closed: [] });
    const walk = await walkInside(fence, root, jsonl, limits);
    assert.deepEqual(
      walk.files.map((f) => f.path),
      [join(root, 'a', 'x.jsonl')],
    );
  });

  test('a FIFO, a link, a hard link and a closed folder are refused without hanging', async () => {
    const root = tree();
    const closed = tree();
    writeFileSync(join(closed, 'secret'), 'secret');
    execFileSync('mkfifo', [join(root, 'pipe.jsonl')]);
    symlinkSync(join(closed, 'secret'), join(root, 'link.jsonl'));
    linkSync(join(closed, 'secret'), join(root, 'hard.jsonl'));
    writeFileSync(join(root, 'fine.jsonl'), 'fine');
    const fence: Fence = await fenceOf(root, { closed: [closed] });
    await assert.rejects(openInside(fence, join(root, 'pipe.jsonl')), /FIFO/);
    await assert.rejects(openInside(fence, join(root, 'link.jsonl')), /symbolic link/);
    await assert.rejects(openInside(fence, join(root, 'hard.jsonl')), /hard link/);
    assert.equal(
      (await readInside(fence, join(root, 'fine.jsonl'), { maxBytes: 10 })).toString(),
      'fine',
    );
    await assert.rejects(readInside(fence, join(root, 'fine.jsonl'), { maxBytes: 2 }), /larger/);
    // A root inside the closed folder (a built-in subscription in the data folder) stays usable,
    // while a link from it to the rest of the closed folder does not.
    mkdirSync(join(closed, 'own'));
    writeFileSync(join(closed, 'own', 'a.jsonl'), 'a');
    symlinkSync(join(closed, 'secret'), join(closed, 'own', 'b.jsonl'));
    const inner = await fenceOf(join(closed, 'own'), { closed: [closed] });
    const walk = await walkInside(inner, join(closed, 'own'), jsonl, limits);
    assert.deepEqual(
      walk.files.map((f) => f.path),
      [join(closed, 'own', 'a.jsonl')],
    );
    assert.match(walk.refused[0]?.error ?? '', /leads out/);
  });

  const why = (read: ReturnType<typeof readConfined>): string =>
    'why' in read ? String(read.why) : 'read';

  test('confined files: read without following a link or waiting on a FIFO, written through an exclusive name', () => {
    const base = tree();
    const away = tree();
    writeFileSync(join(away, 'secret'), 'secret');
    execFileSync('mkfifo', [join(base, '.credentials.json')]);
    assert.match(why(readConfined(base, '.credentials.json', 100)), /not a regular/);
    symlinkSync(join(away, 'secret'), join(base, 'link.json'));
    assert.match(why(readConfined(base, 'link.json', 100)), /not a regular/);
    symlinkSync(away, join(base, 'linked'));
    assert.match(why(readConfined(base, 'linked/secret', 100)), /a link/);
    assert.equal(writeConfined(base, 'linked/new.md', 'x'), false);
    assert.equal(writeConfined(base, 'link.json', 'x'), false);
    assert.equal(readFileSync(join(away, 'secret'), 'utf8'), 'secret');
    assert.equal(writeConfined(base, 'deep/er/file.md', 'text'), true);
    const read = readConfined(base, 'deep/er/file.md', 100);
    assert.ok('bytes' in read);
    assert.equal(read.bytes.toString(), 'text');
    assert.deepEqual(readConfined(base, 'nothing.json', 100), { why: null });
  });
});
