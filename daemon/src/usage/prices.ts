/**
 * List prices used to ESTIMATE cost, in US dollars per million tokens. Not an invoice: the
 * provider's bill is the reference. Edit `checked` whenever a row is re-verified.
 *
 * Cache writes: `cache_write` is the 5-minute ephemeral rate (1.25 × input); writes to the 1-hour
 * cache cost 2 × input and are priced separately when the usage line says how many there were.
 */
export interface ModelPrice {
  /** Matched against the model id: exact id, or a prefix (dated ids such as claude-sonnet-4-5-20250929). */
  match: string;
  family: string;
  input: number;
  output: number;
  cache_write: number;
  cache_write_1h: number;
  cache_read: number;
  /** When and how the figures were checked. */
  checked: string;
}

const LAB = '2026 (PROTOCOLS §1.4: CLI total_cost_usd matched these exactly)';
const KNOWN = "2025-10 (Anthropic pricing page, from the author's knowledge; re-check)";

/** Longest matching prefix wins, so the more specific rows can come in any order. */
export const PRICES: readonly ModelPrice[] = [
  {
    match: 'claude-sonnet-4-5',
    family: 'sonnet',
    input: 3,
    output: 15,
    cache_write: 3.75,
    cache_write_1h: 6,
    cache_read: 0.3,
    checked: LAB,
  },
  {
    match: 'claude-sonnet-4',
    family: 'sonnet',
    input: 3,
    output: 15,
    cache_write: 3.75,
    cache_write_1h: 6,
    cache_read: 0.3,
    checked: KNOWN,
  },
  {
    match: 'claude-3-7-sonnet',
    family: 'sonnet',
    input: 3,
    output: 15,
    cache_write: 3.75,
    cache_write_1h: 6,
    cache_read: 0.3,
    checked: KNOWN,
  },
  {
    match: 'sonnet',
    family: 'sonnet',
    input: 3,
    output: 15,
    cache_write: 3.75,
    cache_write_1h: 6,
    cache_read: 0.3,
    checked: KNOWN,
  },
  {
    match: 'claude-opus-4-5',
    family: 'opus',
    input: 5,
    output: 25,
    cache_write: 6.25,
    cache_write_1h: 10,
    cache_read: 0.5,
    checked: KNOWN,
  },
  {
    match: 'claude-opus-4-1',
    family: 'opus',
    input: 15,
    output: 75,
    cache_write: 18.75,
    cache_write_1h: 30,
    cache_read: 1.5,
    checked: KNOWN,
  },
  {
    match: 'claude-opus-4',
    family: 'opus',
    input: 15,
    output: 75,
    cache_write: 18.75,
    cache_write_1h: 30,
    cache_read: 1.5,
    checked: KNOWN,
  },
  {
    match: 'opus',
    family: 'opus',
    input: 5,
    output: 25,
    cache_write: 6.25,
    cache_write_1h: 10,
    cache_read: 0.5,
    checked: KNOWN,
  },
  {
    match: 'claude-haiku-4-5',
    family: 'haiku',
    input: 1,
    output: 5,
    cache_write: 1.25,
    cache_write_1h: 2,
    cache_read: 0.1,
    checked: KNOWN,
  },
  {
    match: 'claude-3-5-haiku',
    family: 'haiku',
    input: 0.8,
    output: 4,
    cache_write: 1,
    cache_write_1h: 1.6,
    cache_read: 0.08,
    checked: KNOWN,
  },
  {
    match: 'haiku',
    family: 'haiku',
    input: 1,
    output: 5,
    cache_write: 1.25,
    cache_write_1h: 2,
    cache_read: 0.1,
    checked: KNOWN,
  },
];

export interface TokenCounts {
  input: number;
  output: number;
  cache_read: number;
  cache_creation: number;
  /** Part of cache_creation written to the 1-hour cache, when known. */
  cache_creation_1h?: number;
}

/**
 * The price row of a model id: exact match, else the longest row that is a prefix followed by
 * `-` or the end (so `claude-opus-4` does not catch `claude-opus-4-5`), else null (unknown).
 * Bare aliases (`sonnet`, `opus`, `haiku`) only match exactly.
 */
export function priceOf(model: string): ModelPrice | null {
  const id = model.toLowerCase();
  let best: ModelPrice | null = null;
  for (const row of PRICES) {
    const isAlias = !row.match.includes('-');
    const hit = id === row.match || (!isAlias && id.startsWith(`${row.match}-`));
    if (hit && (!best || row.match.length > best.match.length)) best = row;
  }
  return best;
}

/** Estimated cost in USD, or null when the model is not in the table (unknown, never 0). */
export function estimateCost(model: string, tokens: TokenCounts): number | null {
  const price = priceOf(model);
  if (!price) return null;
  const oneHour = Math.min(tokens.cache_creation_1h ?? 0, tokens.cache_creation);
  const fiveMinutes = tokens.cache_creation - oneHour;
  const micro =
    tokens.input * price.input +
    tokens.output * price.output +
    fiveMinutes * price.cache_write +
    oneHour * price.cache_write_1h +
    tokens.cache_read * price.cache_read;
  return micro / 1_000_000;
}
