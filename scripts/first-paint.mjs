// The first paint's script (src/first-paint): bundled on its own as a classic script, since it
// must run before any of the console's modules has arrived. Its name carries a hash of its content
// as Angular's files do, so the daemon serves it as immutable. Its words are `$localize` messages
// like the console's (extracted with them, as the conversation page imports them): each locale's
// copy has them translated here, with Angular's own translator, failing on a missing translation.
import { transformAsync } from '@babel/core';
import {
  Diagnostics,
  makeEs2015TranslatePlugin,
  Xliff1TranslationParser,
} from '@angular/localize/tools';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, transform } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;

/** The locale's translations from angular.json's i18n settings; none for the source locale. */
function translationsOf(locale) {
  const { i18n } = JSON.parse(readFileSync(join(root, 'angular.json'), 'utf8')).projects.relais;
  const file = locale && i18n.locales[locale]?.translation;
  if (!file) return {};
  const path = join(root, file);
  const contents = readFileSync(path, 'utf8');
  const parser = new Xliff1TranslationParser();
  const { hint } = parser.analyze(path, contents);
  return parser.parse(path, contents, hint).translations;
}

/** The bundle's `$localize` messages replaced by the locale's text (the source's for `en`). */
async function translated(code, locale) {
  const diagnostics = new Diagnostics();
  const translations = translationsOf(locale);
  const missing = Object.keys(translations).length ? 'error' : 'ignore';
  const plugin = makeEs2015TranslatePlugin(diagnostics, translations, {
    missingTranslation: missing,
  });
  const result = await transformAsync(code, {
    plugins: [plugin],
    configFile: false,
    babelrc: false,
  });
  if (diagnostics.hasErrors)
    throw new Error(`first paint, ${locale}: ${diagnostics.formatDiagnostics('')}`);
  return result.code;
}

/**
 * Writes the script into a built console's folder (a locale's, whose site path is `prefix`);
 * resolves with its path on the site.
 */
export async function buildFirstPaint(browserDir, prefix = '/', locale = null) {
  const { outputFiles } = await build({
    entryPoints: [join(root, 'src/first-paint/first-paint.ts')],
    bundle: true,
    format: 'iife',
    target: 'es2022',
    legalComments: 'none',
    write: false,
  });
  const { code } = await transform(await translated(outputFiles[0].text, locale), {
    minify: true,
    target: 'es2022',
    legalComments: 'none',
  });
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 8).toUpperCase();
  const name = `first-paint-${hash}.js`;
  writeFileSync(join(browserDir, name), code);
  return `${prefix}${name}`;
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
 * file asked), so its reads leave before anything else. `styles` (the build's `first-paint.css`) go
 * inline just before it.
 */
export function withFirstPaint(html, script, main, styles = '') {
  const tag = `<script src="${main}" type="module"></script>`;
  if (!html.includes(tag)) throw new Error(`no ${tag} in index.html`);
  // The date formats' warm-up: the first paint starts its worker itself, with its reads
  // (data-warm-up). As an async script among the console's files, its worker's own file waited
  // behind theirs and it ran after the page's first format (traced).
  const warmUpTag = /<script src="([^"]*date-format-warm-up\.js)" async[^>]*><\/script>/.exec(html);
  const warmUp = warmUpTag?.[0];
  const later = [
    ...html.matchAll(
      /<link rel="modulepreload" href="[^"]*">|<script src="[^"]*" async[^>]*><\/script>/g,
    ),
  ]
    .map((match) => match[0])
    .filter((piece) => piece !== warmUp);
  if (!later.some((piece) => piece.includes('modulepreload')))
    throw new Error('no module preloads in index.html');
  let rest = html.replace(tag, '');
  for (const piece of later) rest = rest.replace(piece, '');
  const head = rest.indexOf('<head>');
  if (head < 0) throw new Error('no <head> in index.html');
  const at = head + '<head>'.length;
  const template = `<template id="${CONSOLE_START_ID}">${later.join('')}</template>`;
  const warmUpData = warmUpTag ? ` data-warm-up="${warmUpTag[1]}"` : '';
  // Its styles inline, before it: only this page draws it, so they are not in every page's styles.
  if (styles.includes('</')) throw new Error("the first paint's styles cannot be inlined");
  const style = styles ? `<style>${styles}</style>` : '';
  const first = `${style}<script src="${script}" data-main="${main}"${warmUpData}></script>`;
  if (warmUp) rest = rest.replace(warmUp, '');
  return rest.slice(0, at) + template + first + rest.slice(at);
}
