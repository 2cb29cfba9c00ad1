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

/** The id of the template that holds what the console's start fetches and runs (first-paint.ts). */
export const CONSOLE_START_ID = 'console-start';

/**
 * A page's index.html that starts with the first paint: its script first in the head, naming the
 * console's entry, and everything the console's start fetches (its module preloads, the async
 * scripts) kept in an inert template before it. The first paint asks its reads and paints its rows
 * with the browser to itself, then puts the template's content in the page and starts the console
 * (measured: the preloads arriving and compiling meanwhile held that paint back 0.1–0.2 s, for the
 * console 50–75 ms more). The script is not async: the parser waits for it (a few kB, the first
 * file asked), so its reads leave before anything else.
 */
export function withFirstPaint(html, script, main) {
  const tag = `<script src="/${main}" type="module"></script>`;
  if (!html.includes(tag)) throw new Error(`no ${tag} in index.html`);
  const later = [
    ...html.matchAll(
      /<link rel="modulepreload" href="[^"]*">|<script src="[^"]*" async[^>]*><\/script>/g,
    ),
  ].map((match) => match[0]);
  if (!later.some((piece) => piece.includes('modulepreload')))
    throw new Error('no module preloads in index.html');
  let rest = html.replace(tag, '');
  for (const piece of later) rest = rest.replace(piece, '');
  const head = rest.indexOf('<head>');
  if (head < 0) throw new Error('no <head> in index.html');
  const at = head + '<head>'.length;
  const template = `<template id="${CONSOLE_START_ID}">${later.join('')}</template>`;
  const first = `<script src="${script}" data-main="/${main}"></script>`;
  return rest.slice(0, at) + template + first + rest.slice(at);
}
