import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestDaemon, type TestDaemon } from '../testing/harness.js';

const PAGE = '<!doctype html><html><head><title>Relais</title></head><body></body></html>';
const statics = (...paths: string[]) => paths.map((path) => ({ path, kind: 'import-statement' }));

/** The build's stats as esbuild writes them: chunk → its entry module and imports. */
const STATS = {
  outputs: {
    'main-AAAA0000.js': { entryPoint: 'src/main.ts', imports: statics('chunk-CORE0000.js') },
    'chunk-CORE0000.js': { imports: [] },
    'chunk-ROUT0000.js': {
      entryPoint: 'src/app/sessions/sessions.routes.ts',
      imports: [
        ...statics('chunk-CORE0000.js'),
        { path: 'chunk-LIST0000.js', kind: 'dynamic-import' },
        { path: 'chunk-CONV0000.js', kind: 'dynamic-import' },
      ],
    },
    'chunk-CONV0000.js': {
      entryPoint: 'src/app/conversation/conversation-page.ts',
      imports: statics('chunk-SHAR0000.js', 'chunk-CORE0000.js'),
    },
    'chunk-SHAR0000.js': { imports: statics('chunk-DEEP0000.js') },
    'chunk-DEEP0000.js': { imports: [] },
    'chunk-LIST0000.js': {
      entryPoint: 'src/app/sessions/session-list-page.ts',
      imports: statics('chunk-SHAR0000.js'),
    },
    'chunk-INBX0000.js': { entryPoint: 'src/app/permissions/permissions.routes.ts', imports: [] },
  },
};

describe('pages preloaded with the shell', () => {
  let dist: string;
  let browser: string;
  let daemon: TestDaemon;

  before(async () => {
    dist = mkdtempSync(join(tmpdir(), 'relais-preloads-'));
    browser = join(dist, 'browser');
    mkdirSync(browser);
    writeFileSync(join(browser, 'index.html'), PAGE);
    writeFileSync(join(dist, 'stats.json'), JSON.stringify(STATS));
    execFileSync(process.execPath, [join(process.cwd(), 'scripts/page-preloads.mjs'), dist]);
    daemon = await startTestDaemon({ config: { consoleDir: browser } });
  });

  after(async () => {
    await daemon.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const preloads = (html: string): string[] =>
    [...html.matchAll(/rel="modulepreload" href="\/([^"]+)"/g)].map((match) => match[1]!).sort();
  const page = async (path: string): Promise<string> => {
    const response = await fetch(daemon.base + path);
    assert.equal(response.status, 200, path);
    return response.text();
  };

  it('a conversation opened by its address preloads every chunk it imports, and only those', async () => {
    assert.deepEqual(preloads(await page('/sessions/ses_0123abcd')), [
      'chunk-CONV0000.js',
      'chunk-DEEP0000.js',
      'chunk-ROUT0000.js',
      'chunk-SHAR0000.js',
    ]);
    assert.deepEqual(preloads(await page('/')), [
      'chunk-DEEP0000.js',
      'chunk-LIST0000.js',
      'chunk-ROUT0000.js',
      'chunk-SHAR0000.js',
    ]);
    assert.deepEqual(preloads(await page('/inbox')), ['chunk-INBX0000.js']);
  });

  it('any other route gets the plain index', async () => {
    for (const path of ['/sessions/new', '/sessions/a/b', '/analytics', '/key'])
      assert.deepEqual(preloads(await page(path)), [], path);
  });

  it('a copy removed by a rebuild under way falls back to the plain index', async () => {
    rmSync(join(browser, 'index.conversation.html'));
    assert.equal(await page('/sessions/ses_0123abcd'), PAGE);
    assert.match(readFileSync(join(browser, 'pages.json'), 'utf8'), /index\.conversation\.html/);
  });
});
