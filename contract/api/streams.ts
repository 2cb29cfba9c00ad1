/** The lines of the live streams (NDJSON), per session and global. */
import * as z from 'zod';
import { isoTime } from './fields.js';
import { Session } from './sessions.js';
import { SessionEvent } from './events.js';
import { PermissionRequest } from './permissions.js';
import { ImportProgress } from './history-import.js';

/** One line of the per-session live stream (NDJSON). */
export const SessionStreamLine = z.discriminatedUnion('type', [
  z.object({ type: z.literal('event'), event: SessionEvent }),
  z.object({ type: z.literal('session'), session: Session }),
  z.object({ type: z.literal('keepalive'), at: isoTime }),
]);
export type SessionStreamLine = z.infer<typeof SessionStreamLine>;

/** One line of the global live stream (NDJSON). */
export const GlobalStreamLine = z.discriminatedUnion('type', [
  z.object({ type: z.literal('session'), session: Session }),
  z.object({ type: z.literal('permission'), permission: PermissionRequest }),
  z.object({ type: z.literal('import'), import: ImportProgress }),
  z.object({ type: z.literal('keepalive'), at: isoTime }),
  z
    .object({ type: z.literal('snapshot_end') })
    .describe(
      'Sent once after the open sessions and pending prompts the stream starts with: every line after it is a change',
    ),
]);
export type GlobalStreamLine = z.infer<typeof GlobalStreamLine>;
