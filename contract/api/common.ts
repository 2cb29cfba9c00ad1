/** The error body, the list page and the health check every route shares. */
import * as z from 'zod';

export const ErrorBody = z.object({
  error_code: z.string(),
  message: z.string(),
  retry_after_seconds: z.number().int().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), next_cursor: z.string().nullable() });

// ---- health -------------------------------------------------------------------------------

export const Health = z.object({ status: z.literal('ok'), version: z.string() });
export type Health = z.infer<typeof Health>;
