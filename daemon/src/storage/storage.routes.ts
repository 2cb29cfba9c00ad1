import { z } from 'zod';
import {
  ConversationStorage,
  RecycleResult,
  StorageQuery,
  StorageReport,
} from '../../../contract/operations.js';
import type { Db } from '../db/database.js';
import type { EventArchive } from '../events/event-archive.js';
import type { EventStore } from '../events/event-store.js';
import { apiError } from '../http/errors.js';
import { IdParams, type RouteTable } from '../http/route.js';
import type { SessionRepo } from '../sessions/session-repo.js';
import type { Recycler } from './recycler.js';
import { conversationStorage, storageReport } from './storage-report.js';

export interface StorageDeps {
  db: Db;
  sessions: Pick<SessionRepo, 'conversationState'>;
  databaseFile: string;
  events: EventStore;
  archive: EventArchive;
  recycler: Recycler;
}

const tag = 'storage';

/** The storage report, and compressing, deleting and recycling conversations on demand. */
export function storageRoutes(table: RouteTable, deps: StorageDeps): void {
  table.add({
    method: 'GET',
    url: '/api/storage',
    tag,
    summary: 'Storage by category, subscription and conversation; recycling dates',
    query: StorageQuery,
    response: StorageReport,
    handler: ({ query }) => {
      deps.events.flush();
      return storageReport(deps.db, deps.databaseFile, deps.recycler, query.limit);
    },
  });
  conversationRoutes(table, deps);
  table.add({
    method: 'POST',
    url: '/api/storage/recycle',
    tag,
    summary: 'Run the recycling job now',
    response: RecycleResult,
    handler: () => {
      deps.events.flush();
      return deps.recycler.run();
    },
  });
}

/** Throws unless the session exists, has ended and still has its conversation. */
function assertEnded(deps: StorageDeps, id: string): void {
  const row = deps.sessions.conversationState(id);
  if (!row) throw apiError('not_found', 'No such session.');
  if (row.state !== 'ended')
    throw apiError(
      'session_not_ready',
      'Only a finished conversation can be compressed or deleted; stop the session first.',
    );
  if (row.conversation === 'deleted') throw apiError('not_found', 'This conversation was deleted.');
}

function storageEntry(deps: StorageDeps, id: string): z.infer<typeof ConversationStorage> {
  const found = conversationStorage(deps.db, deps.recycler, id);
  if (!found) throw apiError('not_found', 'No such conversation.');
  return found;
}

function conversationRoutes(table: RouteTable, deps: StorageDeps): void {
  table.add({
    method: 'POST',
    url: '/api/storage/conversations/:id/compress',
    tag,
    summary: 'Compress a finished conversation now',
    errors: [404, 409],
    params: IdParams,
    response: ConversationStorage,
    handler: async ({ params }) => {
      assertEnded(deps, params.id);
      deps.events.flush();
      await deps.archive.compress(params.id);
      return storageEntry(deps, params.id);
    },
  });
  table.add({
    method: 'DELETE',
    url: '/api/storage/conversations/:id',
    tag,
    summary: 'Delete a finished conversation now (metrics stay)',
    status: 204,
    errors: [404, 409],
    params: IdParams,
    handler: ({ params }) => {
      assertEnded(deps, params.id);
      deps.events.flush();
      deps.archive.delete(params.id);
    },
  });
}
