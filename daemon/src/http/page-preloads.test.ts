import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestDaemon, type TestDaemon } from '../testing/harness.js';

/** index.html as Angular writes it: the shell's chunks preloaded after the root, then main. */
const PAGE =
  '<!doctype html><html><head><title>Relais</title></head><body><app-root></app-root>' +
  '<link rel="modulepreload" href="/chunk-CORE0000.js"><link rel="modulepreload" href="/chunk-RXJS0000.js">' +
  '<script src="/main-AAAA0000.js" type="module"></script></body></html>';
/** The first paint's styles, which angular.json builds apart for the conversation's page alone. */
const FIRST_PAINT_CSS = '.first-paint-probe{color:#123456}';
const statics = (...paths: string[]) => paths.map((path) => ({ path, kind: 'import-statement' }));
/** The page table (`app.routes.ts`, in main) imports each page's chunk when it is first shown. */
const PAGE_IMPORTS = ['chunk-LIST0000.js', 'chunk-CONV0000.js', 'chunk-INBX0000.js'].map(
  (path) => ({ path, kind: 'dynamic-import' }),
);

/** The build's stats as esbuild writes them: chunk → its entry module and imports. */
const STATS = {
  outputs: {
    'main-AAAA0000.js': {
      entryPoint: 'src/main.ts',
      bytes: 10,
      imports: [...statics('chunk-RXJS0000.js', 'chunk-CORE0000.js'), ...PAGE_IMPORTS],
    },
    'chunk-CORE0000.js': { bytes: 900, imports: [] },
    'chunk-RXJS0000.js': { bytes: 200, imports: [] },
    'chunk-CONV0000.js': {
      entryPoint: 'src/app/conversation/conversation-page.ts',
      bytes: 300,
      imports: statics('chunk-SHAR0000.js', 'chunk-CORE0000.js'),
    },
    'chunk-SHAR0000.js': { bytes: 50, imports: statics('chunk-DEEP0000.js') },
    'chunk-DEEP0000.js': { bytes: 700, imports: [] },
    'chunk-LIST0000.js': {
      entryPoint: 'src/app/sessions/session-list-page.ts',
      imports: statics('chunk-SHAR0000.js'),
    },
    'chunk-INBX0000.js': { entryPoint: 'src/app/permissions/inbox-page.ts', imports: [] },
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
    writeFileSync(join(browser, 'first-paint.css'), FIRST_PAINT_CSS);
    writeFileSync(join(dist, 'stats.json'), JSON.stringify(STATS));
    execFileSync(process.execPath, [join(process.cwd(), 'scripts/page-preloads.mjs'), dist]);
    daemon = await startTestDaemon({ config: { consoleDir: browser } });
  });

  after(async () => {
    await daemon.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const SHELL = ['chunk-CORE0000.js', 'chunk-RXJS0000.js'];
  const inOrder = (html: string): string[] =>
    [...html.matchAll(/rel="modulepreload" href="\/([^"]+)"|<script src="\/([^"]+)"/g)].map(
      (match) => match[1] ?? `script ${match[2]!}`,
    );
  const preloads = (html: string): string[] =>
    inOrder(html)
      .filter((name) => !name.startsWith('script') && !SHELL.includes(name))
      .sort();
  const page = async (path: string): Promise<string> => {
    const response = await fetch(daemon.base + path);
    assert.equal(response.status, 200, path);
    return response.text();
  };

  it('a conversation opened by its address preloads every chunk it imports, and only those', async () => {
    assert.deepEqual(preloads(await page('/sessions/ses_0123abcd')), [
      'chunk-CONV0000.js',
      'chunk-DEEP0000.js',
      'chunk-SHAR0000.js',
    ]);
    assert.deepEqual(preloads(await page('/')), [
      'chunk-DEEP0000.js',
      'chunk-LIST0000.js',
      'chunk-SHAR0000.js',
    ]);
    assert.deepEqual(preloads(await page('/inbox')), ['chunk-INBX0000.js']);
  });

  it("inlines the first paint's styles in the conversation's page only, and serves no file of them", async () => {
    assert.ok((await page('/sessions/ses_0123abcd')).includes(FIRST_PAINT_CSS));
    for (const path of ['/', '/sessions', '/inbox'])
      assert.ok(!(await page(path)).includes(FIRST_PAINT_CSS), path);
    assert.notEqual(
      (await fetch(`${daemon.base}/first-paint.css`)).headers.get('content-type'),
      'text/css',
    );
  });

  it("preloads the shell first, largest first, then the page's chunks, largest first, then main", async () => {
    assert.deepEqual(inOrder(await page('/sessions')), [
      'chunk-CORE0000.js',
      'chunk-RXJS0000.js',
      'chunk-DEEP0000.js',
      'chunk-SHAR0000.js',
      'chunk-LIST0000.js',
      'script main-AAAA0000.js',
    ]);
    assert.deepEqual(inOrder(await page('/analytics')), [
      'chunk-CORE0000.js',
      'chunk-RXJS0000.js',
      'script main-AAAA0000.js',
    ]);
  });

  it("a conversation's page starts with its first paint, which holds the console's start until it has painted", async () => {
    const html = await page('/sessions/ses_0123abcd');
    const head =
      /<head>(<template id="console-start">(.*?)<\/template>)<style>(.*?)<\/style><script src="\/(first-paint-[0-9A-F]{8}\.js)" data-main="\/main-AAAA0000\.js"><\/script>/.exec(
        html,
      );
    assert.ok(head, html);
    // The first paint's own styles, inlined before it: no request stands between it and its paint.
    assert.equal(head[3], FIRST_PAINT_CSS);
    assert.deepEqual(inOrder(head[2]!), [
      'chunk-CORE0000.js',
      'chunk-RXJS0000.js',
      'chunk-DEEP0000.js',
      'chunk-CONV0000.js',
      'chunk-SHAR0000.js',
    ]);
    // Nothing of the console outside the template: the first paint starts it.
    assert.deepEqual(inOrder(html.replace(head[1]!, '')), [`script ${head[4]!}`]);
    const script = await fetch(`${daemon.base}/${head[4]!}`);
    assert.equal(script.status, 200);
    assert.match(script.headers.get('cache-control') ?? '', /immutable/);
    assert.match(await script.text(), /console-start/);
  });

  it('answers HEAD as GET, without the body', async () => {
    const response = await fetch(daemon.base + '/sessions/ses_0123abcd', { method: 'HEAD' });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /text\/html/);
    assert.equal(await response.text(), '');
    const api = await fetch(daemon.base + '/api/nope', { method: 'HEAD' });
    assert.equal(api.status, 404);
  });

  it('any other route gets the plain index', async () => {
    for (const path of ['/sessions/new', '/sessions/a/b', '/analytics', '/key'])
      assert.deepEqual(preloads(await page(path)), [], path);
  });

  it('a copy removed by a rebuild under way falls back to the plain index', async () => {
    rmSync(join(browser, 'index.conversation.html'));
    assert.equal(
      await page('/sessions/ses_0123abcd'),
      readFileSync(join(browser, 'index.html'), 'utf8'),
    );
    assert.match(readFileSync(join(browser, 'pages.json'), 'utf8'), /index\.conversation\.html/);
  });
});

describe('pages preloaded after chunk optimization', () => {
  it('finds a lazy module by the chunk holding it when the stats name no entry point', () => {
    const dist = mkdtempSync(join(tmpdir(), 'relais-preloads-optimized-'));
    try {
      const browser = join(dist, 'browser');
      mkdirSync(browser);
      writeFileSync(join(browser, 'index.html'), PAGE);
      writeFileSync(join(browser, 'first-paint.css'), FIRST_PAINT_CSS);
      const merged = structuredClone(STATS) as { outputs: Record<string, Record<string, unknown>> };
      for (const [file, output] of Object.entries(merged.outputs)) {
        const entry = output['entryPoint'];
        if (typeof entry !== 'string' || file.startsWith('main-')) continue;
        delete output['entryPoint'];
        output['inputs'] = { [entry]: { bytesInOutput: 1 }, 'src/app/shared/other.ts': {} };
      }
      writeFileSync(join(dist, 'stats.json'), JSON.stringify(merged));
      execFileSync(process.execPath, [join(process.cwd(), 'scripts/page-preloads.mjs'), dist]);
      const conversation = readFileSync(join(browser, 'index.conversation.html'), 'utf8');
      for (const chunk of ['chunk-CONV0000.js', 'chunk-SHAR0000.js', 'chunk-DEEP0000.js'])
        assert.match(conversation, new RegExp(`modulepreload" href="/${chunk}"`));
      assert.doesNotMatch(conversation, /chunk-LIST0000/);
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
