/**
 * Text compared as a person means it: compatibility-normalized (NFKC: "ﬁ" is "fi", a decomposed
 * "é" the composed one), lower-cased, and the few case pairs lower-casing leaves apart folded
 * too (German ß is "ss", a final sigma a sigma).
 */
export function fold(text: string): string {
  const lower = text.normalize('NFKC').toLowerCase();
  return SPECIAL.test(lower) ? lower.replace(SPECIAL_ALL, (c) => FOLDS[c]!) : lower;
}

const FOLDS: Record<string, string> = { ß: 'ss', ẞ: 'ss', ς: 'σ' };
const SPECIAL = /[ßẞς]/;
const SPECIAL_ALL = /[ßẞς]/g;

/** One base character with its combining marks (or stray marks): the unit that folds alone. */
const CLUSTER = /\P{M}\p{M}*|\p{M}+/gsu;
const SLACK = 64;

/**
 * Where the folded needle first occurs in `text`, in `text`'s own offsets (UTF-16 units,
 * end exclusive); null when it does not. Folded cluster by cluster, so each unit of the folded
 * text knows the stretch of the original it came from.
 */
export function findFolded(text: string, needle: string): { start: number; end: number } | null {
  const near = fold(text).indexOf(needle);
  if (near < 0) return null;
  // Folded alone, clusters fold as the whole does (bar rare scripts): mapping stops past the hit.
  let enough = near + needle.length + SLACK;
  let folded = '';
  const from: number[] = [];
  const to: number[] = [];
  for (const match of text.matchAll(CLUSTER)) {
    if (folded.length > enough) {
      if (folded.includes(needle)) break;
      enough = Infinity;
    }
    const part = fold(match[0]);
    for (let i = 0; i < part.length; i++) {
      from.push(match.index);
      to.push(match.index + match[0].length);
    }
    folded += part;
  }
  const at = folded.indexOf(needle);
  if (at < 0) return null;
  return { start: from[at]!, end: to[at + needle.length - 1]! };
}
