/**
 * Finding text in a session's conversation: the query and its page of hits. Imported by path, not
 * through contract/api.ts: the console's first bundle loads that index, and these are the
 * conversation page's only.
 */
import * as z from 'zod';

/** The longest snippet of a hit (UTF-16 units). */
export const SEARCH_SNIPPET_MAX = 160;

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
