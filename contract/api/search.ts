/** Finding text in a session's conversation: the query and its page of hits. */
import * as z from 'zod';

/** The longest text a search takes (characters): a longer one is refused, never cut. */
export const SEARCH_Q_MAX = 200;
/** The most hits one answer carries. */
export const SEARCH_LIMIT_MAX = 200;
/** The longest snippet of a hit (UTF-16 units). */
export const SEARCH_SNIPPET_MAX = 160;

export const SearchQuery = z
  .object({
    q: z
      .string()
      .max(SEARCH_Q_MAX)
      .refine((q) => q.trim() !== '', 'The text to find is empty.')
      .describe(
        'The text to find: case-insensitive, Unicode-normalized (NFKC), literal (no patterns)',
      ),
    after: z.coerce
      .number()
      .int()
      .min(0)
      .optional()
      .describe('Scan forwards from the event after this seq'),
    before: z.coerce
      .number()
      .int()
      .min(1)
      .optional()
      .describe('Scan backwards from the event before this seq (neither: from the newest)'),
    limit: z.coerce.number().int().min(1).max(SEARCH_LIMIT_MAX).default(50),
  })
  .strict()
  .refine((query) => query.after === undefined || query.before === undefined, {
    message: 'Give after or before, not both.',
  });
export type SearchQuery = z.infer<typeof SearchQuery>;

export const SearchHit = z.object({
  seq: z.number().int().describe('The event holding the text'),
  snippet: z
    .string()
    .describe(`Its text around the first hit, at most ${SEARCH_SNIPPET_MAX} characters`),
  hit_start: z.number().int().describe('Where the hit starts in the snippet (UTF-16 units)'),
  hit_end: z.number().int().describe('Where it ends in the snippet (exclusive)'),
});
export type SearchHit = z.infer<typeof SearchHit>;

export const SearchPage = z.object({
  items: z.array(SearchHit).describe('Nearest the cursor first, in the direction scanned'),
  scanned_to: z
    .number()
    .int()
    .nullable()
    .describe('The last seq looked at: ask again from it (after= or before=) when `more`'),
  more: z
    .boolean()
    .describe('The scan stopped early (its budget or the limit): the range may hold more hits'),
  scanned: z.number().int().describe('Events looked at by this answer'),
});
export type SearchPage = z.infer<typeof SearchPage>;
