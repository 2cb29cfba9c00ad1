import { GlobalStreamLine } from '../../../contract/api.js';
import type { RouteTable } from '../http/route.js';
import { readerConfinedTo } from '../keys/caller.js';
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
    scope: 'read',
    tag: 'live',
    summary:
      'Global live stream (NDJSON over fetch): open sessions and pending prompts, a snapshot_end line, then every change',
    stream: { contentType: NDJSON, line: GlobalStreamLine },
    handler: async ({ request, reply }) => {
      const visible = visibleTo(readerConfinedTo(request), sessions);
      const stream = openNdjsonStream(request, reply);
      let writing: Promise<void> = Promise.resolve();
      const unsubscribe = hub.subscribe((line) => {
        if (visible(line)) writing = writing.then(() => stream.write(JSON.stringify(line)));
      });
      stream.onClose(unsubscribe);
      for (const state of ['starting', 'idle', 'working', 'waiting', 'stopping'] as const) {
        const caller = readerConfinedTo(request) ?? undefined;
        for (const session of sessions.list({ state, caller, limit: 500 }).items) {
          writing = writing.then(() => stream.write(JSON.stringify({ type: 'session', session })));
        }
      }
      const caller = readerConfinedTo(request) ?? undefined;
      for (const permission of permissions.list({ state: 'pending', caller, limit: 500 })) {
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

/**
 * What a caller key confined to its own sessions sees of the dashboard's changes: its sessions and
 * their prompts, never the imports; everyone else sees every line.
 */
function visibleTo(
  keyId: string | null,
  sessions: SessionRepo,
): (line: GlobalStreamLine) => boolean {
  if (keyId === null) return () => true;
  return (line) => {
    switch (line.type) {
      case 'session':
        return line.session.caller?.id === keyId;
      case 'permission':
        return sessions.get(line.permission.session_id)?.caller?.id === keyId;
      case 'import':
        return false;
      default:
        return true;
    }
  };
}
