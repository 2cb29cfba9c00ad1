/** A match of a query in a text: its score (higher is better) and the matched character positions. */
export interface FuzzyMatch {
  score: number;
  positions: number[];
}

interface Word {
  start: number;
  text: string;
}

/** Shortest query word that may match inside a word rather than at its start ("ion" in "session"). */
const MIN_INNER_SUBSTRING = 3;

/** Words of a text: runs of letters and digits, camelCase humps split ("openApi" → open, Api). */
function wordsOf(text: string): Word[] {
  const words: Word[] = [];
  for (const match of text.matchAll(
    /\p{Lu}?[\p{Ll}\p{M}]+|\p{Lu}+(?![\p{Ll}])|\p{N}+|[\p{L}\p{M}]+/gu,
  )) {
    words.push({ start: match.index, text: match[0].toLowerCase() });
  }
  return words;
}

const range = (start: number, length: number): number[] =>
  Array.from({ length }, (_, i) => start + i);

/**
 * The query word as a run of word prefixes, in order ("ldt" → Light / dark theme,
 * "togth" → Toggle theme). Each piece starts a word; a text where the letters only
 * appear scattered inside words does not match.
 */
function matchWordPrefixes(token: string, words: Word[]): FuzzyMatch | null {
  const memo = new Map<string, FuzzyMatch | null>();
  const from = (offset: number, wordIndex: number): FuzzyMatch | null => {
    if (offset === token.length) return { score: 0, positions: [] };
    const key = `${offset}:${wordIndex}`;
    if (memo.has(key)) return memo.get(key) ?? null;
    let best: FuzzyMatch | null = null;
    for (let w = wordIndex; w < words.length; w++) {
      const word = words[w];
      let common = 0;
      while (common < word.text.length && word.text[common] === token[offset + common]) common++;
      for (let take = common; take >= 1; take--) {
        const rest = from(offset + take, w + 1);
        if (!rest) continue;
        // Longer pieces, fewer skipped words and starting at the first word score higher.
        const first = offset === 0 && w === 0 ? 3 : 0;
        const score = rest.score + take * 5 + 2 + first - (w - wordIndex) * 0.5;
        if (!best || score > best.score) {
          best = { score, positions: [...range(word.start, take), ...rest.positions] };
        }
      }
    }
    memo.set(key, best);
    return best;
  };
  return from(0, 0);
}

/** The query word as one contiguous piece of the text: at a word start, or inside a word if long enough. */
function matchSubstring(token: string, text: string, words: Word[]): FuzzyMatch | null {
  const lower = text.toLowerCase();
  const starts = new Set(words.map((word) => word.start));
  let inner = -1;
  for (let at = lower.indexOf(token); at >= 0; at = lower.indexOf(token, at + 1)) {
    if (starts.has(at)) {
      const wholeWord = words.some((word) => word.start === at && word.text === token);
      const score = 10 * token.length + 8 + (at === 0 ? 6 : 0) + (wholeWord ? 4 : 0);
      return { score, positions: range(at, token.length) };
    }
    if (inner < 0) inner = at;
  }
  if (inner >= 0 && token.length >= MIN_INNER_SUBSTRING) {
    return { score: 6 * token.length, positions: range(inner, token.length) };
  }
  return null;
}

function matchToken(token: string, text: string, words: Word[]): FuzzyMatch | null {
  const whole = matchSubstring(token, text, words);
  const pieces = matchWordPrefixes(token, words);
  if (whole && (!pieces || whole.score >= pieces.score)) return whole;
  return pieces;
}

/**
 * Matches every word of the query in the text, in any order. A query word matches a contiguous
 * piece of the text or a run of word prefixes; letters scattered inside words do not match, so
 * "version" does not find "Stop this session". Null when a word of the query does not match.
 */
export function fuzzyMatch(query: string, text: string): FuzzyMatch | null {
  const tokens = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!tokens.length) return { score: 0, positions: [] };
  const words = wordsOf(text);
  let score = 0;
  const positions = new Set<number>();
  for (const token of tokens) {
    const match = matchToken(token, text, words);
    if (!match) return null;
    score += match.score;
    match.positions.forEach((position) => positions.add(position));
  }
  // Among equals, the shorter text is the more specific one.
  score -= text.length * 0.01;
  return { score, positions: [...positions].sort((a, b) => a - b) };
}

/** How much a match in a secondary field (group, keywords) counts, against one in the label. */
const SECONDARY_WEIGHT = 0.5;

/**
 * Filters and sorts items by their best score; `fields` gives the label first, then the secondary
 * texts. Each query word may be found in any of them. An empty query keeps the original order.
 */
export function fuzzyFilter<T>(
  query: string,
  items: readonly T[],
  fields: (item: T) => string | readonly string[],
): T[] {
  const tokens = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!tokens.length) return [...items];
  const scored: { item: T; score: number; index: number }[] = [];
  items.forEach((item, index) => {
    const score = scoreItem(tokens, fields(item));
    if (score !== null) scored.push({ item, score, index });
  });
  return scored.sort((a, b) => b.score - a.score || a.index - b.index).map((entry) => entry.item);
}

function scoreItem(tokens: string[], fields: string | readonly string[]): number | null {
  const [label = '', ...rest] = typeof fields === 'string' ? [fields] : fields;
  const secondary = rest.filter(Boolean).join(' · ');
  const labelMatch = fuzzyMatch(tokens.join(' '), label);
  if (labelMatch) return labelMatch.score;
  let total = 0;
  for (const token of tokens) {
    const inLabel = fuzzyMatch(token, label);
    const inSecondary = secondary ? fuzzyMatch(token, secondary) : null;
    const best = Math.max(
      inLabel?.score ?? -Infinity,
      (inSecondary?.score ?? -Infinity) * SECONDARY_WEIGHT,
    );
    if (best === -Infinity) return null;
    total += best;
  }
  return total;
}
