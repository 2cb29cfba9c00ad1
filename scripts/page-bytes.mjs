// Brotli bytes a page costs on first open: its index copy and every file it names (module
// preloads, scripts, styles, the first paint), as the daemon serves them (their .br twins).
// Usage: node scripts/page-bytes.mjs [dist/console/browser] [--check]; prints one line per locale
// and page; with --check, fails when a language's conversation costs more than it did before the
// console spoke two (issue 39: 214,301 bytes in English alone).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const browser = args.find((arg) => !arg.startsWith('--')) ?? join(root, 'dist/console/browser');
const CONVERSATION_BUDGET = 214_301;

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
const over = [];
for (const locale of locales.length ? locales : ['.']) {
  const folder = join(browser, locale);
  for (const page of readdirSync(folder).filter((name) => /^index(\.[a-z-]+)?\.html$/.test(name))) {
    const bytes = pageBytes(folder, page);
    console.log(`${locale}\t${page}\t${bytes}`);
    if (page === 'index.conversation.html' && bytes > CONVERSATION_BUDGET) over.push(locale);
  }
}
if (args.includes('--check') && over.length) {
  console.error(
    `a conversation costs more than ${CONVERSATION_BUDGET} bytes in: ${over.join(', ')}`,
  );
  process.exit(1);
}
