// Brotli bytes a page costs on first open: its index copy and every file it names (module
// preloads, scripts, styles, the first paint), as the daemon serves them (their .br twins).
// Usage: node scripts/page-bytes.mjs [dist/console/browser]; prints one line per locale and page.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const browser = process.argv[2] ?? join(root, 'dist/console/browser');

const served = (file) => statSync(existsSync(file + '.br') ? file + '.br' : file).size;

/** The folder a file named by the page lives in: `/fr/main.js` in `fr/`, `/main.js` at the top. */
function pageBytes(folder, page) {
  const html = readFileSync(join(folder, page), 'utf8');
  const names = [...html.matchAll(/(?:src|href|data-main)="\/([^"#?]+\.(?:js|css))"/g)].map(
    (m) => m[1],
  );
  return [...new Set(names)].reduce(
    (sum, name) => sum + served(join(browser, name)),
    served(join(folder, page)),
  );
}

const locales = readdirSync(browser).filter((name) =>
  existsSync(join(browser, name, 'index.html')),
);
for (const locale of locales.length ? locales : ['.']) {
  const folder = join(browser, locale);
  for (const page of readdirSync(folder).filter((name) => /^index(\.[a-z-]+)?\.html$/.test(name)))
    console.log(`${locale}\t${page}\t${pageBytes(folder, page)}`);
}
