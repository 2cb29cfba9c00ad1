/**
 * Text compared as a person means it, and as a browser's find does: compatibility-decomposed
 * (NFKD: "ﬁ" is "fi", a composed "é" and a decomposed one the same), the accents of the Latin,
 * Greek and Cyrillic letters taken off ("cafe" finds "café", and "café" "cafe"; the marks of
 * other scripts, which make other letters, stay), lower-cased, and the few case pairs
 * lower-casing leaves apart folded too (German ß is "ss", a final sigma a sigma).
 */
export function fold(text: string): string {
  const lower = text.normalize('NFKD').replace(ACCENTS, '').toLowerCase();
  return SPECIAL.test(lower) ? lower.replace(SPECIAL_ALL, (c) => FOLDS[c]!) : lower;
}

/** Combining Diacritical Marks: the accents NFKD takes out of Latin, Greek and Cyrillic letters. */
const ACCENTS = /[\u0300-\u036f]/g;

const FOLDS: Record<string, string> = { ß: 'ss', ẞ: 'ss', ς: 'σ' };
const SPECIAL = /[ßẞς]/;
const SPECIAL_ALL = /[ßẞς]/g;

/** One base character with its combining marks (or stray marks): the unit that folds alone. */
const CLUSTER = /\P{M}\p{M}*|\p{M}+/gsu;
const SLACK = 64;

/** A long text is looked through in pieces of this many units, so a hit is mapped within one. */
const PIECE = 65_536;

/**
 * Where the folded needle first occurs in `text`, in `text`'s own offsets (UTF-16 units,
 * end exclusive); null when it does not. A long text is taken in overlapping pieces cut between
 * clusters: only the piece holding the hit is mapped back, a unit at a time.
 */
export function findFolded(text: string, needle: string): { start: number; end: number } | null {
  if (text.length <= PIECE) return findIn(text, needle, 0);
  // Folding may shorten a text (a decomposed "é" composes): a hit spans at most a few times its length.
  const overlap = needle.length * 4 + 16;
  for (let from = 0; from < text.length; from += PIECE) {
    const start = clusterStart(text, from);
    const piece = text.slice(start, clusterStart(text, from + PIECE + overlap));
    const hit = findIn(piece, needle, start);
    if (hit) return hit;
  }
  return null;
}

/** `at`, or the start of the cluster it falls in (never between a base and its marks or a pair). */
function clusterStart(text: string, at: number): number {
  if (at >= text.length) return text.length;
  let start = at;
  while (
    start > 0 &&
    (isLowSurrogate(text.charCodeAt(start)) || MARK.test(text.slice(start, start + 2)))
  )
    start--;
  return start;
}

const MARK = /^\p{M}/u;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/** The first hit in `text` (a piece at `offset` of the whole), mapped cluster by cluster. */
function findIn(
  text: string,
  needle: string,
  offset: number,
): { start: number; end: number } | null {
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
  return { start: offset + from[at]!, end: offset + to[at + needle.length - 1]! };
}
