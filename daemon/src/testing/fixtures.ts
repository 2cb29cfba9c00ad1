import type { Db } from '../db/database.js';
import { newId, nowIso } from '../ids.js';

/** Inserts an ended session row directly, for tests about events that need no agent. */
export function insertSessionRow(
  db: Db,
  fields: { id?: string; app?: string; state?: string; agent?: string } = {},
): string {
  const id = fields.id ?? newId('ses');
  const now = nowIso();
  db.prepare(
    `INSERT INTO sessions (id, subscription_id, agent, model, cwd, permission_mode, app, state, created_at, deadline_at, max_deadline_at)
     VALUES (?, 'demo', ?, 'demo-sonnet', '/tmp', 'write', ?, ?, ?, ?, ?)`,
  ).run(
    id,
    fields.agent ?? 'claude',
    fields.app ?? 'tests',
    fields.state ?? 'ended',
    now,
    now,
    now,
  );
  return id;
}
