import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { rawRequest, startTestDaemon, type TestDaemon } from '../testing/harness.js';
import { chooseLocale, preferredLocale } from './console-locale.js';

describe('the language a page is served in', () => {
  it('follows the browser by its weights, else English', () => {
    assert.equal(preferredLocale('fr-FR,fr;q=0.9,en-US;q=0.8,en;q=0.7'), 'fr');
    assert.equal(preferredLocale('en-US,en;q=0.9,fr;q=0.8'), 'en');
    assert.equal(preferredLocale('de-DE,de;q=0.9,fr;q=0.5,en;q=0.4'), 'fr');
    assert.equal(preferredLocale('en;q=0.2, fr-CA'), 'fr');
    assert.equal(preferredLocale('fr;q=0, en'), 'en');
    assert.equal(preferredLocale('de, *;q=0.1'), null);
    assert.equal(preferredLocale('FR'), 'fr');
    assert.equal(preferredLocale(''), null);
    assert.equal(preferredLocale(undefined), null);
    assert.equal(preferredLocale('fr;q=abc'), null);
    assert.equal(preferredLocale(`${'x,'.repeat(100_000)}fr`), null);
    assert.equal(chooseLocale(undefined, 'de'), 'en');
  });

  it("takes the person's choice (the cookie) over the browser's, and only a known one", () => {
    assert.equal(chooseLocale('relais-locale=fr', 'en-US'), 'fr');
    assert.equal(chooseLocale('theme=dark; relais-locale=en', 'fr-FR'), 'en');
    assert.equal(chooseLocale('relais-locale=de', 'fr-FR'), 'fr');
    assert.equal(chooseLocale('relais-locale=../fr', 'en'), 'en');
    assert.equal(chooseLocale('xrelais-locale=fr', 'en'), 'en');
    assert.equal(chooseLocale('relais-locale=', undefined), 'en');
  });
});

describe('a console built per locale', () => {
  let consoleDir: string;
  let daemon: TestDaemon;
  const get = (path: string, headers: Record<string, string> = {}) =>
    rawRequest(daemon.base, 'GET', path, undefined, headers);

  before(async () => {
    consoleDir = mkdtempSync(join(tmpdir(), 'relais-locales-'));
    for (const locale of ['en', 'fr']) {
      const dir = join(consoleDir, locale);
      mkdirSync(dir);
      const page = (name: string) =>
        `<!doctype html><html lang="${locale}"><title>${name}</title><script src="/${locale}/main-AAAA0000.js" type="module"></script></html>`;
      writeFileSync(join(dir, 'index.html'), page('plain'));
      writeFileSync(join(dir, 'index.conversation.html'), page('conversation'));
      const pages = [
        { pattern: '^/sessions/(?!new/?$)[^/]+/?$', index: 'index.conversation.html' },
      ];
      writeFileSync(join(dir, 'pages.json'), JSON.stringify(pages));
      writeFileSync(join(dir, 'main-AAAA0000.js'), `console.log(${JSON.stringify(locale)});\n`);
      writeFileSync(join(dir, 'favicon.ico'), 'icon');
    }
    daemon = await startTestDaemon({ config: { consoleDir } });
  });

  after(async () => {
    await daemon.close();
    rmSync(consoleDir, { recursive: true, force: true });
  });

  it('serves a deep link in the chosen language at the same address, varying by what chose it', async () => {
    const cases: [Record<string, string>, string][] = [
      [{}, 'en'],
      [{ 'accept-language': 'fr-FR,fr;q=0.9' }, 'fr'],
      [{ 'accept-language': 'de' }, 'en'],
      [{ 'accept-language': 'fr', cookie: 'relais-locale=en' }, 'en'],
      [{ 'accept-language': 'en', cookie: 'relais-locale=fr' }, 'fr'],
    ];
    for (const [headers, locale] of cases) {
      const answer = await get('/sessions/ses_1', headers);
      assert.equal(answer.status, 200);
      assert.match(
        answer.text,
        new RegExp(`lang="${locale}"><title>conversation<`),
        JSON.stringify(headers),
      );
      assert.equal(answer.headers['vary'], 'Accept-Encoding, Accept-Language, Cookie');
      assert.equal(answer.headers['cache-control'], 'no-cache');
      assert.match(String(answer.headers['etag']), new RegExp(`-${locale}"$`));
      const plain = await get('/inbox', headers);
      assert.match(plain.text, new RegExp(`lang="${locale}"><title>plain<`));
    }
  });

  it("serves each language's files under its own folder, cached for good; top-level ones from the chosen folder", async () => {
    for (const locale of ['en', 'fr']) {
      const answer = await get(`/${locale}/main-AAAA0000.js`, { cookie: 'relais-locale=fr' });
      assert.equal(answer.status, 200);
      assert.equal(answer.text, `console.log("${locale}");\n`);
      assert.equal(answer.headers['cache-control'], 'public, max-age=31536000, immutable');
      assert.equal(answer.headers['vary'], 'Accept-Encoding');
    }
    const icon = await get('/favicon.ico', { 'accept-language': 'fr' });
    assert.equal(icon.status, 200);
    assert.equal(icon.headers['vary'], 'Accept-Encoding, Accept-Language, Cookie');
    assert.equal((await get('/main-AAAA0000.js')).text, 'console.log("en");\n');
  });

  it('never leaves the console folder, whatever the language or the path', async () => {
    for (const path of [
      '/fr/../../etc/passwd',
      '/fr/%2e%2e/%2e%2e/etc/passwd',
      '/pages.json/x.js',
    ]) {
      const answer = await get(path, { cookie: 'relais-locale=fr' });
      assert.equal(answer.status, 404, path);
    }
    const hostile = await get('/sessions/ses_1', { cookie: 'relais-locale=../../etc' });
    assert.match(hostile.text, /lang="en"/);
  });
});
