/** A match of a query in a text: its score (higher is better) and the matched character positions. */
export interface FuzzyMatch {
  score: number;
  positions: number[];
}

const isWordStart = (text: string, index: number): boolean =>
  index === 0 ||
  /[\s/_\-.:#]/.test(text[index - 1] ?? '') ||
  (text[index - 1] === (text[index - 1] ?? '').toLowerCase() &&
    text[index] !== (text[index] ?? '').toLowerCase());

/**
 * Matches the query's characters in order anywhere in the text (case-insensitive). Consecutive
 * characters, word starts and an early first match score higher. Null when a character is missing.
 */
export function fuzzyMatch(query: string, text: string): FuzzyMatch | null {
  const needle = query.trim().toLowerCase().replace(/\s+/g, ' ');
  if (!needle) return { score: 0, positions: [] };
  const haystack = text.toLowerCase();
  const positions: number[] = [];
  let score = 0;
  let from = 0;
  let previous = -2;
  for (const char of needle) {
    if (char === ' ') continue;
    const index = haystack.indexOf(char, from);
    if (index < 0) return null;
    positions.push(index);
    score += 1;
    if (index === previous + 1) score += 5;
    if (isWordStart(text, index)) score += 3;
    previous = index;
    from = index + 1;
  }
  const exact = haystack.indexOf(needle);
  if (exact >= 0) score += 10 + (exact === 0 ? 5 : 0);
  score -= (positions[0] ?? 0) * 0.1;
  score -= (text.length - needle.length) * 0.01;
  return { score, positions };
}

/** Filters and sorts items by their best fuzzy score; an empty query keeps the original order. */
export function fuzzyFilter<T>(query: string, items: readonly T[], text: (item: T) => string): T[] {
  if (!query.trim()) return [...items];
  const scored: { item: T; score: number; index: number }[] = [];
  items.forEach((item, index) => {
    const match = fuzzyMatch(query, text(item));
    if (match) scored.push({ item, score: match.score, index });
  });
  return scored.sort((a, b) => b.score - a.score || a.index - b.index).map((entry) => entry.item);
}
