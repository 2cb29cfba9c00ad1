/** The import of the agents' own transcripts: its report and progress. */
import * as z from 'zod';
import { isoTime } from './fields.js';

export const ImportError = z.object({
  path: z.string(),
  error: z.string().describe('Why the file could not be read, or what was wrong in it'),
});

export const ImportReport = z.object({
  subscription_id: z.string(),
  files: z.number().int().describe('Transcript files found'),
  files_read: z.number().int().describe('Files that had new bytes (an unchanged file is not read)'),
  bytes: z.number().int().describe('Bytes read'),
  lines: z.number().int().describe('Lines stored as events'),
  malformed: z.number().int().describe('Lines that were not JSON (kept as raw events)'),
  turns: z.number().int().describe('Model responses newly counted into the analytics'),
  sessions: z.number().int().describe('Imported conversations created'),
  clamped: z
    .number()
    .int()
    .describe(
      'Values of the new turns out of plausible ranges (tokens, cost, times, names) brought within them',
    ),
  errors: z.array(ImportError),
  duration_ms: z.number().int(),
});
export type ImportReport = z.infer<typeof ImportReport>;

export const ImportProgress = z.object({
  subscription_id: z.string(),
  state: z.enum(['running', 'done']),
  files_total: z.number().int(),
  files_done: z.number().int(),
  bytes_total: z.number().int().describe('Bytes to read in this import'),
  bytes_done: z.number().int(),
  bytes_per_second: z.number(),
  turns: z.number().int(),
  errors: z.number().int(),
  started_at: isoTime,
});
export type ImportProgress = z.infer<typeof ImportProgress>;
