import { GlobalStreamLine } from '../../../contract/api.js';
import type { RouteTable } from '../http/route.js';
import type { PermissionRepo } from '../permissions/permission-repo.js';
import { publicPermission } from '../permissions/permission-repo.js';
import type { SessionRepo } from '../sessions/session-repo.js';
import type { GlobalHub } from '../events/global-hub.js';
import { NDJSON, openNdjsonStream } from '../http/ndjson-stream.js';

/**
 * The dashboard's live stream: a snapshot of open sessions and pending prompts, a line saying the
 * snapshot is complete, then changes.
 */
export function liveRoutes(
  table: RouteTable,
  hub: GlobalHub,
  sessions: SessionRepo,
  permissions: PermissionRepo,
): void {
  table.add({
    method: 'GET',
    url: '/api/stream',
    tag: 'live',
    summary:
      'Global live stream (NDJSON over fetch): open sessions and pending prompts, a snapshot_end line, then every change',
    stream: { contentType: NDJSON, line: GlobalStreamLine },
    handler: async ({ request, reply }) => {
      const stream = openNdjsonStream(request, reply);
      let writing: Promise<void> = Promise.resolve();
      const unsubscribe = hub.subscribe((line) => {
        writing = writing.then(() => stream.write(JSON.stringify(line)));
      });
      stream.onClose(unsubscribe);
      for (const state of ['starting', 'idle', 'working', 'waiting', 'stopping'] as const) {
        for (const session of sessions.list({ state, limit: 500 }).items) {
          writing = writing.then(() => stream.write(JSON.stringify({ type: 'session', session })));
        }
      }
      for (const permission of permissions.list({ state: 'pending', limit: 500 })) {
        writing = writing.then(() =>
          stream.write(
            JSON.stringify({ type: 'permission', permission: publicPermission(permission) }),
          ),
        );
      }
      // A reader tells what it knew that the snapshot left out (a session that ended meanwhile).
      writing = writing.then(() => stream.write(JSON.stringify({ type: 'snapshot_end' })));
      await writing;
    },
  });
}
