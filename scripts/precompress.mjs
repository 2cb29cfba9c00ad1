// After `ng build`: writes a brotli (.br) and a gzip (.gz) twin of every compressible file of the
// built console, once, at the highest levels, so the daemon serves them without compressing per
// request. A twin is skipped only when it would not be smaller: even a chunk of a few hundred
// bytes shrinks by a third, and no file of a page goes uncompressed.
// Recurses into the per-locale folders (en/, fr/). Usage: node scripts/precompress.mjs [dir]
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = new URL('..', import.meta.url).pathname;
const dir = process.argv[2] ?? join(root, 'dist/console/browser');
const COMPRESSIBLE = /\.(?:js|mjs|css|html|json|svg|txt|ico|map|webmanifest)$/;

function* files(folder) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (COMPRESSIBLE.test(entry.name)) yield path;
  }
}

let before = 0;
let after = 0;
for (const file of files(dir)) {
  const body = readFileSync(file);
  for (const suffix of ['.br', '.gz']) rmSync(file + suffix, { force: true });
  const br = brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  });
  const gz = gzipSync(body, { level: constants.Z_BEST_COMPRESSION });
  if (br.length < body.length) writeFileSync(file + '.br', br);
  if (gz.length < body.length) writeFileSync(file + '.gz', gz);
  before += body.length;
  after += Math.min(br.length, body.length);
}
console.log(
  `precompressed ${dir}: ${(before / 1000).toFixed(0)} kB → ${(after / 1000).toFixed(0)} kB (brotli)`,
);
