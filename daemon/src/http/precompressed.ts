import { existsSync, statSync } from 'node:fs';

/** Encodings written next to the built console's files, best first (scripts/precompress.mjs). */
export const PRECOMPRESSED = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;

/**
 * The codings an Accept-Encoding header allows, by name, each with its weight (RFC 9110 §12.5.3):
 * `br;q=0` refuses brotli, `*` stands for any coding not named. Malformed parts are ignored.
 */
export function acceptedEncodings(header: string | undefined): Map<string, number> {
  const weights = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    if (!name || !/^[a-z0-9*!#$%&'+.^_`|~-]+$/.test(name)) continue;
    let weight = 1;
    for (const param of params) {
      const match = /^q=([01](?:\.\d{0,3})?)$/.exec(param);
      if (match) weight = Math.min(1, Number(match[1]));
    }
    weights.set(name, weight);
  }
  return weights;
}

/** True when the header allows `encoding` (named with a weight above 0, or through `*`). */
export function allows(weights: Map<string, number>, encoding: string): boolean {
  const weight = weights.get(encoding) ?? weights.get('*') ?? 0;
  return weight > 0;
}

export interface Variant {
  path: string;
  encoding: string | null;
  size: number;
  mtimeMs: number;
}

/**
 * The file to send for `file`: its brotli or gzip twin when the client takes that coding and the
 * twin is at least as fresh as the file (a stale twin from an older build is never served).
 */
export function pickVariant(file: string, acceptEncoding: string | undefined): Variant {
  const original = statSync(file);
  const weights = acceptedEncodings(acceptEncoding);
  for (const { encoding, suffix } of PRECOMPRESSED) {
    if (!allows(weights, encoding) || !existsSync(file + suffix)) continue;
    const twin = statSync(file + suffix);
    if (twin.isFile() && twin.mtimeMs >= original.mtimeMs)
      return { path: file + suffix, encoding, size: twin.size, mtimeMs: original.mtimeMs };
  }
  return { path: file, encoding: null, size: original.size, mtimeMs: original.mtimeMs };
}
