/**
 * The query of a search in a conversation (the daemon's only: the console builds the URL). Apart
 * from its answer (search.ts), which the conversation page parses.
 */
import * as z from 'zod';

/** The longest text a search takes (characters): a longer one is refused, never cut. */
export const SEARCH_Q_MAX = 200;
/** The most hits one answer carries. */
export const SEARCH_LIMIT_MAX = 200;

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
