/** Schemas of the operations API: storage, diagnostics, logs, versions. Pure zod. */
import { z } from 'zod';

const isoTime = z.string().describe('ISO 8601 UTC time with milliseconds');

export const ConversationStorage = z.object({
  session_id: z.string(),
  subscription_id: z.string(),
  app: z.string(),
  state: z.string(),
  ended_at: isoTime.nullable(),
  conversation: z.enum(['hot', 'compressed', 'deleted']),
  event_count: z.number().int(),
  bytes: z.number().int().describe('Bytes the conversation takes: event text when hot, the archive when compressed'),
  raw_bytes: z.number().int().describe('Bytes of the event text itself'),
  compress_at: isoTime.nullable().describe('When recycling will compress it'),
  delete_at: isoTime.nullable().describe('When recycling will delete it'),
});
export type ConversationStorage = z.infer<typeof ConversationStorage>;

export const StorageCategory = z.enum(['events', 'archives', 'metrics', 'audit', 'logs', 'sessions', 'overhead']);
export type StorageCategory = z.infer<typeof StorageCategory>;

export const StorageReport = z.object({
  total_bytes: z.number().int().describe('Pages in use by the database file (the categories add up to it)'),
  categories: z.array(z.object({ category: StorageCategory, bytes: z.number().int() })),
  files: z.object({ database_bytes: z.number().int(), wal_bytes: z.number().int() }),
  by_subscription: z.array(
    z.object({ subscription_id: z.string(), conversations: z.number().int(), bytes: z.number().int(), raw_bytes: z.number().int() }),
  ),
  conversations: z.array(ConversationStorage).describe('Largest first'),
  recycling: z.object({
    compress_after_days: z.number(),
    delete_after_days: z.number(),
    last_run_at: isoTime.nullable(),
    next_run_at: isoTime.nullable(),
    last_result: z.object({ compressed: z.number().int(), deleted: z.number().int() }).nullable(),
  }),
});
export type StorageReport = z.infer<typeof StorageReport>;

export const StorageQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) }).strict();

export const RecycleResult = z.object({ compressed: z.number().int(), deleted: z.number().int(), ran_at: isoTime });
export type RecycleResult = z.infer<typeof RecycleResult>;
