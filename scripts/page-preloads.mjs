// After `ng build` (with its stats file): writes, for each page people open by its address, a copy
// of index.html that lists every chunk of that page as a module preload, and `pages.json` telling
// the daemon which copy serves which path. Without it the browser learns a page's chunks one hop at
// a time, each hop waiting for Angular's start on the main thread (a conversation opened by link
// fetched its 20 chunks after bootstrap). A build per locale (`localize`) has one folder per locale
// (en/, fr/) with the same chunk names: each folder's pages name their files under its prefix
// (`/fr/main-….js`), so a chunk cached in one language is never taken for the other's.
// Usage: node scripts/page-preloads.mjs [dist/console]
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildFirstPaint, withFirstPaint } from './first-paint.mjs';

/** Pages opened by link or on start; `pattern` matches the path, `entries` are their lazy modules. */
const PAGES = [
  {
    name: 'conversation',
    pattern: '^/sessions/(?!new/?$)[^/]+/?$',
    entries: ['src/app/conversation/conversation-page.ts'],
    // Its last rows painted before Angular has started (src/first-paint).
    firstPaint: true,
  },
  {
    name: 'sessions',
    pattern: '^/(sessions/?)?$',
    entries: ['src/app/sessions/session-list-page.ts'],
  },
  { name: 'inbox', pattern: '^/inbox/?$', entries: ['src/app/permissions/inbox-page.ts'] },
];

const root = new URL('..', import.meta.url).pathname;
const dist = process.argv[2] ?? join(root, 'dist/console');
const browser = join(dist, 'browser');
const { outputs } = JSON.parse(readFileSync(join(dist, 'stats.json'), 'utf8'));
const byEntry = new Map(
  Object.entries(outputs)
    .filter(([, output]) => output.entryPoint)
    .map(([file, output]) => [output.entryPoint, file]),
);

const dynamicTargets = new Set(
  Object.values(outputs).flatMap((output) =>
    (output.imports ?? []).filter((i) => i.kind === 'dynamic-import').map((i) => i.path),
  ),
);

/**
 * The chunk a lazy module starts: esbuild names it its entry point; after Angular's chunk
 * optimization (NG_BUILD_OPTIMIZE_CHUNKS) it is the dynamically imported chunk that holds it.
 */
function chunkOf(entry) {
  return (
    byEntry.get(entry) ??
    [...dynamicTargets].find((file) => Object.hasOwn(outputs[file]?.inputs ?? {}, entry))
  );
}

/** Every chunk `file` needs before it runs: its static imports, transitively. */
function staticClosure(file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const imported of outputs[file]?.imports ?? [])
    if (imported.kind === 'import-statement') staticClosure(imported.path, seen);
  return seen;
}

const main = [...byEntry].find(([entry]) => entry.endsWith('src/main.ts'))?.[1];
if (!main) throw new Error('no main chunk in the stats: was `ng build` run with statsJson?');
const initial = staticClosure(main);
const bySize = (a, b) => (outputs[b]?.bytes ?? 0) - (outputs[a]?.bytes ?? 0);
/** The site path of a locale's folder: `/fr/`, or `/` for a build without locales. */
let prefix = '/';
const preloads = (chunks) =>
  [...chunks].map((chunk) => `<link rel="modulepreload" href="${prefix}${chunk}">`).join('');

/**
 * index.html with its module preloads in the order the page needs them: the shell's chunks first
 * (nothing runs before all of them are in), then the page's; the largest first in each, as it takes
 * the longest to arrive and compile. Chromium asks for them in document order over six connections,
 * so a page's chunks listed first used to hold back Angular's core.
 */
function withPreloads(html, pageChunks) {
  const stripped = html.replace(/<link rel="modulepreload" href="[^"]*">/g, '');
  const script = stripped.indexOf(`<script src="${prefix}${main}"`);
  if (script < 0) throw new Error(`no script ${main} in index.html`);
  const shell = [...initial].filter((chunk) => chunk !== main);
  const links = preloads(shell.sort(bySize)) + preloads([...pageChunks].sort(bySize));
  return stripped.slice(0, script) + links + stripped.slice(script);
}

/** The build's locale folders (each with its index.html), or the build's own folder without locales. */
const locales = readdirSync(browser, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(browser, entry.name, 'index.html')))
  .map((entry) => entry.name);

/** Angular writes root paths (`deployUrl` is `/`, no `<base>`: the CSP forbids it); add the locale's. */
const underPrefix = (html) => html.replace(/(src|href)="\/(?!\/)/g, `$1="${prefix}`);

/**
 * The first paint's styles, which angular.json builds apart (not injected: only the conversation's
 * page draws it, and they are out of every page's `styles`); read to be inlined, then removed.
 */
function takeFirstPaintStyles(folder) {
  const file = join(folder, 'first-paint.css');
  if (!existsSync(file))
    throw new Error(`no first-paint.css in ${folder}: see angular.json's styles`);
  const styles = readFileSync(file, 'utf8')
    .replace(/\/\*# sourceMappingURL=.*\*\/\s*$/, '')
    .trim();
  rmSync(file);
  rmSync(`${file}.map`, { force: true });
  return styles;
}

async function writePages(folder, locale) {
  const index = underPrefix(readFileSync(join(folder, 'index.html'), 'utf8'));
  writeFileSync(join(folder, 'index.html'), withPreloads(index, []));
  const manifest = [];
  const firstPaint = await buildFirstPaint(folder, prefix, locale);
  const firstPaintStyles = takeFirstPaintStyles(folder);
  for (const page of PAGES) {
    const chunks = new Set();
    for (const entry of page.entries) {
      const file = chunkOf(entry);
      if (!file) throw new Error(`${entry} is not a lazy chunk of this build`);
      for (const chunk of staticClosure(file)) if (!initial.has(chunk)) chunks.add(chunk);
    }
    const name = `index.${page.name}.html`;
    const html = withPreloads(index, chunks);
    writeFileSync(
      join(folder, name),
      page.firstPaint ? withFirstPaint(html, firstPaint, prefix + main, firstPaintStyles) : html,
    );
    manifest.push({ pattern: page.pattern, index: name });
    console.log(`${locale ?? ''}/${name}: ${chunks.size} chunks preloaded`);
  }
  writeFileSync(join(folder, 'pages.json'), JSON.stringify(manifest, null, 2) + '\n');
}

if (!locales.length) await writePages(browser, null);
for (const locale of locales) {
  prefix = `/${locale}/`;
  await writePages(join(browser, locale), locale);
}
