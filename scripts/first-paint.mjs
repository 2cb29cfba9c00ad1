// The first paint's script (src/first-paint): bundled on its own as a classic script, since it
// must run before any of the console's modules has arrived. Its name carries a hash of its content
// as Angular's files do, so the daemon serves it as immutable.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;

/** Writes the script into the built console's folder; resolves with its path on the site. */
export async function buildFirstPaint(browserDir) {
  const { outputFiles } = await build({
    entryPoints: [join(root, 'src/first-paint/first-paint.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2022',
    legalComments: 'none',
    write: false,
  });
  const code = outputFiles[0].contents;
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 8).toUpperCase();
  const name = `first-paint-${hash}.js`;
  writeFileSync(join(browserDir, name), code);
  return `/${name}`;
}

/**
 * A page's index.html that starts with the first paint: its script first in the head, naming the
 * console's entry, which it starts itself; the entry stays a module preload, so it downloads as
 * soon as before. The script is not async: the parser waits for it (a few kB, the first file
 * asked), so its reads leave before the browser is busy with the console's modules.
 */
export function withFirstPaint(html, script, main) {
  const tag = `<script src="/${main}" type="module"></script>`;
  if (!html.includes(tag)) throw new Error(`no ${tag} in index.html`);
  const head = html.indexOf('<head>');
  if (head < 0) throw new Error('no <head> in index.html');
  const first = `<script src="${script}" data-main="/${main}"></script>`;
  const at = head + '<head>'.length;
  return (
    html.slice(0, at) +
    first +
    html.slice(at).replace(tag, `<link rel="modulepreload" href="/${main}">`)
  );
}
