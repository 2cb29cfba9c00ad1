import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join, normalize, posix, sep } from 'node:path';
import type { FastifyInstance } from 'fastify';
import * as z from 'zod';
import { chooseLocale, localeFolders } from './console-locale.js';
import { apiError } from './errors.js';
import { pickVariant } from './precompressed.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** The decoded path of a URL, or null when its percent-encoding is malformed. */
function decodedPath(url: string): string | null {
  try {
    return decodeURIComponent(url.split('?')[0] ?? '/');
  } catch {
    return null;
  }
}

/**
 * Whether a path names the API (or the keyed /metrics) in any spelling a server or a proxy might read it: any case, dot
 * segments, doubled or back slashes, or encoded once more.
 */
export function isApiLike(path: string): boolean {
  let current = path;
  for (let round = 0; round < 3; round++) {
    const normalized = posix.normalize(current.replace(/\\/g, '/')).toLowerCase();
    if (/^\/+(api|metrics)(\/|$)/.test(normalized)) return true;
    const again = decodedPath(current);
    if (again === null || again === current) return false;
    current = again;
  }
  return true; // Encoded three times over: not a console path either.
}

const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Angular's output names carry an 8-character content hash: esbuild's in capitals and digits
 * (`main-ABCD1234.js`, media `font-ABCD1234.woff2`), the chunk optimizer's (NG_BUILD_OPTIMIZE_CHUNKS)
 * in base64url, on the chunks it writes (`chunk-Ab_d-12x.js`). Files copied from `public/` keep
 * their own names, so they are never taken for hashed ones.
 */
const HASHED = [
  /-[A-Z0-9]{8}\.(?:js|css|woff2|svg|png)$/,
  /^(?:main|chunk|polyfills|styles)-[\w-]{8}\.(?:js|css)$/,
];

/** Hashed files never change under their name; anything else (index.html first) is revalidated. */
function cacheControl(served: string): string {
  const name = basename(served);
  return HASHED.some((pattern) => pattern.test(name))
    ? 'public, max-age=31536000, immutable'
    : 'no-cache';
}

/** Written by scripts/page-preloads.mjs: which copy of index.html preloads the page at a path. */
const PageIndexes = z.array(
  z.object({ pattern: z.string(), index: z.string().regex(/^index\.[a-z-]+\.html$/) }),
);

/**
 * The index.html for a client-side route: the build's copy that preloads that page's chunks when
 * there is one (so the browser fetches them with the shell, not after Angular has started), else
 * the plain one. A build without the manifest (or a broken one) serves the plain one everywhere.
 */
function pageIndexes(consoleDir: string): (path: string) => string {
  const index = join(consoleDir, 'index.html');
  let pages: { pattern: RegExp; file: string }[] = [];
  try {
    const manifest = PageIndexes.parse(
      JSON.parse(readFileSync(join(consoleDir, 'pages.json'), 'utf8')),
    );
    pages = manifest.map((page) => ({
      pattern: new RegExp(page.pattern),
      file: join(consoleDir, page.index),
    }));
  } catch {
    pages = [];
  }
  return (path) => {
    const file = pages.find((page) => page.pattern.test(path))?.file;
    // A rebuild under way may have removed the copy: the plain index always works.
    return file && existsSync(file) ? file : index;
  };
}

/** A file of `dir` at the site path `path`, or null (not there, outside it, or a folder). */
function fileIn(dir: string, path: string): string | null {
  const candidate = normalize(join(dir, path));
  const inside = candidate === dir || candidate.startsWith(dir + sep);
  return inside && existsSync(candidate) && statSync(candidate).isFile() ? candidate : null;
}

/**
 * Serves the built console: a known file as is (or its precompressed twin when the client takes
 * brotli or gzip), any other path without an extension as index.html (client-side routes). HEAD
 * answers as GET without the body (the console asks it before reloading a page whose chunk failed).
 * Nothing that reads as /api is ever answered with the console.
 *
 * A build per locale has a folder each (`en/`, `fr/`): its files are asked under their folder
 * (`/fr/main-….js`, so caches never mix the languages), while a page keeps one address in both and
 * is served from the folder of the person's language (console-locale.ts); a file asked at the top
 * (`/favicon.ico`) is that folder's too.
 */
export function installConsole(app: FastifyInstance, consoleDir: string | null): void {
  const indexes = new Map<string, (path: string) => string>();
  const indexFor = (dir: string, path: string): string => {
    if (!indexes.has(dir)) indexes.set(dir, pageIndexes(dir));
    return indexes.get(dir)!(path);
  };
  app.setNotFoundHandler((request, reply) => {
    const path = decodedPath(request.url);
    if (path === null)
      throw apiError('malformed_request', 'The path is not valid percent-encoding.');
    const odd = CONTROL.test(path) || posix.normalize(path) !== path || path.includes('\\');
    const reads = request.method === 'GET' || request.method === 'HEAD';
    if (isApiLike(path) || odd || !reads || !consoleDir) {
      throw apiError('route_not_found');
    }
    const locales = localeFolders(consoleDir);
    const wanted = chooseLocale(request.headers.cookie, request.headers['accept-language']);
    const locale = locales.includes(wanted) ? wanted : locales[0];
    const pageDir = locale ? join(consoleDir, locale) : consoleDir;
    if (!existsSync(join(pageDir, 'index.html')))
      throw apiError('route_not_found', 'The console is not built; run `npm run build:console`.');
    const shared = fileIn(consoleDir, path);
    const ofLocale = !shared && locale ? fileIn(pageDir, path) : null;
    if (!shared && !ofLocale && extname(path) !== '') throw apiError('not_found');
    const served = shared ?? ofLocale ?? indexFor(pageDir, path);
    const variant = pickVariant(served, request.headers['accept-encoding']);
    reply.headers(PAGE_HEADERS);
    reply.header('cache-control', cacheControl(served));
    // What the language was chosen by, for a page or a file found in the language's folder.
    const byLocale = locale !== undefined && !shared;
    reply.header('vary', byLocale ? 'Accept-Encoding, Accept-Language, Cookie' : 'Accept-Encoding');
    if (variant.encoding) reply.header('content-encoding', variant.encoding);
    const tag = `${variant.size.toString(36)}-${Math.floor(variant.mtimeMs).toString(36)}${variant.encoding ?? ''}`;
    const etag = `W/"${tag}${byLocale ? `-${locale}` : ''}"`;
    reply.header('etag', etag);
    reply.type(TYPES[extname(served)] ?? 'application/octet-stream');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.header('content-length', variant.size).send(readFileSync(variant.path));
  });
}
