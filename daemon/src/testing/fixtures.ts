import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/** A fresh empty folder under the system's temporary one, for a session's working folder. */
export function workdir(prefix = 'relais-cwd-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}
