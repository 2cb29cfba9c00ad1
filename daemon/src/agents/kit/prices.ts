/**
 * List prices used to ESTIMATE cost, in US dollars per million tokens. Not an invoice: the
 * provider's bill is the reference. Edit `checked` whenever a row is re-verified.
 *
 * Cache writes: `cache_write` is the 5-minute ephemeral rate (1.25 × input); writes to the 1-hour
 * cache cost 2 × input and are priced separately when the usage line says how many there were.
 */
export interface ModelPrice {
  /** The model id; its dated ids (claude-sonnet-4-5-20250929) match too. */
  match: string;
  input: number;
  output: number;
  cache_write: number;
  cache_write_1h: number;
  cache_read: number;
  /** When and how the figures were checked. */
  checked: string;
}

const LAB = '2026 (PROTOCOLS §1.4: CLI total_cost_usd matched these exactly)';
const PAGE = "2026-11-30 (Anthropic's pricing and model pages)";
const PAGE_IO =
  "2026-11-30 (input/output from Anthropic's model pages; cache rates at the usual 1.25× / 2× / 0.1×)";
const OPUS_5_5 =
  "2026-11-30 (input/output from Anthropic's model pages; cache rates from two price lists of other tools, not yet seen on Anthropic's page)";
const SONNET_5_5 =
  "2026-11-30 (Anthropic's model page; other tools report cache reads cut to 0.10 on 2026-10-07: re-check)";

type Rates = Omit<ModelPrice, 'match' | 'checked'>;
const rates = (
  input: number,
  output: number,
  cache_write: number,
  cache_write_1h: number,
  cache_read: number,
): Rates => ({ input, output, cache_write, cache_write_1h, cache_read });

const OPUS_LEGACY = rates(15, 75, 18.75, 30, 1.5);
const OPUS_4_5_ON = rates(5, 25, 6.25, 10, 0.5);
const SONNET_3_7_TO_4_6 = rates(3, 15, 3.75, 6, 0.3);
const SONNET_5 = rates(2, 10, 2.5, 4, 0.2);
const FABLE = (cacheRead: number): Rates => rates(10, 50, 12.5, 20, cacheRead);

const row = (match: string, price: Rates, checked: string): ModelPrice => ({
  match,
  ...price,
  checked,
});

/**
 * One row per model id (dated ids match their row too). A version missing here is "unknown": never
 * the price of a neighbour. Haiku 5.5 is left out on purpose: it is priced per request by prompt
 * length, which a turn total cannot tell.
 */
export const PRICES: readonly ModelPrice[] = [
  row('claude-fable-5-1', FABLE(0.25), PAGE),
  row('claude-fable-5', FABLE(1), PAGE),
  row('claude-mythos-5-1', FABLE(0.25), PAGE),
  row('claude-mythos-5', FABLE(1), PAGE),
  row('claude-opus-5-5', rates(4, 20, 5, 8, 0.2), OPUS_5_5),
  row('claude-opus-5', OPUS_4_5_ON, PAGE),
  row('claude-opus-4-8', OPUS_4_5_ON, PAGE),
  row('claude-opus-4-7', OPUS_4_5_ON, PAGE),
  row('claude-opus-4-6', OPUS_4_5_ON, PAGE),
  row('claude-opus-4-5', OPUS_4_5_ON, PAGE),
  row('claude-opus-4-1', OPUS_LEGACY, PAGE),
  row('claude-opus-4', OPUS_LEGACY, PAGE),
  row('claude-opus-4-0', OPUS_LEGACY, PAGE),
  row('claude-sonnet-5-5', SONNET_5, SONNET_5_5),
  row('claude-sonnet-5', SONNET_5, PAGE),
  row('claude-sonnet-4-6', SONNET_3_7_TO_4_6, PAGE_IO),
  row('claude-sonnet-4-5', SONNET_3_7_TO_4_6, LAB),
  row('claude-sonnet-4', SONNET_3_7_TO_4_6, PAGE),
  row('claude-sonnet-4-0', SONNET_3_7_TO_4_6, PAGE),
  row('claude-3-7-sonnet', SONNET_3_7_TO_4_6, PAGE),
  row('claude-haiku-4-5', rates(1, 5, 1.25, 2, 0.1), PAGE_IO),
  row('claude-3-5-haiku', rates(0.8, 4, 1, 1.6, 0.08), PAGE),
];

export interface TokenCounts {
  input: number;
  output: number;
  cache_read: number;
  cache_creation: number;
  /** Part of cache_creation written to the 1-hour cache, when known. */
  cache_creation_1h?: number;
}

/** A dated id (`claude-sonnet-4-5-20250929`) is its row's id plus the release date. */
const DATED = /^(.*)-\d{8}$/;

/**
 * The price row of a model id, exact or dated, else null (unknown). Aliases (`sonnet`, `opus`) are
 * unknown: what they name changes with the agent's version.
 */
export function priceOf(model: string): ModelPrice | null {
  const id = model.toLowerCase();
  const undated = DATED.exec(id)?.[1] ?? id;
  return PRICES.find((row) => row.match === undated) ?? null;
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
