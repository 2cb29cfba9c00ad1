/** Messages to a session and the queue they wait in. */
import * as z from 'zod';
import { isoTime, id } from './fields.js';

export const MessageSend = z.object({ text: z.string().min(1).max(100_000) }).strict();

export const QueueEntry = z.object({
  id,
  session_id: z.string(),
  text: z.string(),
  position: z.number().int(),
  created_at: isoTime,
});
export type QueueEntry = z.infer<typeof QueueEntry>;

export const QUEUE_MAX = 10;

export const MessageResult = z.object({
  delivery: z
    .enum(['sent', 'queued', 'steered'])
    .describe(
      'steered: added to the running turn now (Codex), or the turn interrupted and this sent next (Claude)',
    ),
  entry: QueueEntry.nullable(),
});
export type MessageResult = z.infer<typeof MessageResult>;

export const QueueOrder = z.object({ ids: z.array(id).max(QUEUE_MAX) }).strict();
