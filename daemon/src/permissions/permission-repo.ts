import type { PermissionRequest, PermissionState } from '../../../contract/api.js';

export type PermissionScope = NonNullable<PermissionRequest['scope']>;
import type { Db } from '../db/database.js';
import { whereClause } from '../db/where.js';

interface PermissionRow extends Omit<PermissionRequest, 'input' | 'is_question'> {
  control_request_id: string;
  input_json: string;
  is_question: number;
}

export interface StoredPermission extends PermissionRequest {
  control_request_id: string;
}

export class PermissionRepo {
  constructor(private readonly db: Db) {}

  insert(p: StoredPermission): void {
    this.db
      .prepare(
        `INSERT INTO permission_requests (id, session_id, control_request_id, tool_name, tool_use_id, input_json,
           description, blocked_path, is_question, state, created_at, expires_at)
         VALUES (@id, @session_id, @control_request_id, @tool_name, @tool_use_id, @input_json, @description,
           @blocked_path, @is_question, @state, @created_at, @expires_at)`,
      )
      .run({ ...p, input_json: JSON.stringify(p.input), is_question: p.is_question ? 1 : 0 });
  }

  get(id: string): StoredPermission | null {
    const row = this.db.prepare('SELECT * FROM permission_requests WHERE id = ?').get(id) as
      PermissionRow | undefined;
    return row ? toPermission(row) : null;
  }

  /** The session a prompt belongs to (the key guard's question), undefined for no such prompt. */
  sessionOf(id: string): string | undefined {
    return this.db
      .prepare('SELECT session_id FROM permission_requests WHERE id = ?')
      .pluck()
      .get(id) as string | undefined;
  }

  list(filter: {
    state?: PermissionState;
    session?: string;
    /** Only prompts of sessions this key launched. */
    caller?: string;
    limit: number;
  }): StoredPermission[] {
    const { clause, args } = whereClause([
      ['state = ?', filter.state],
      ['session_id = ?', filter.session],
      ['session_id IN (SELECT id FROM sessions WHERE key_id = ?)', filter.caller],
    ]);
    return (
      this.db
        .prepare(`SELECT * FROM permission_requests ${clause} ORDER BY created_at, id LIMIT ?`)
        .all(...args, filter.limit) as PermissionRow[]
    ).map(toPermission);
  }

  pendingIds(sessionId?: string): string[] {
    const rows = sessionId
      ? this.db
          .prepare("SELECT id FROM permission_requests WHERE state = 'pending' AND session_id = ?")
          .all(sessionId)
      : this.db.prepare("SELECT id FROM permission_requests WHERE state = 'pending'").all();
    return (rows as { id: string }[]).map((row) => row.id);
  }

  settle(
    id: string,
    fields: {
      state: PermissionState;
      decided_at: string;
      decided_by: string;
      scope: PermissionScope | null;
      message: string | null;
    },
  ): boolean {
    return (
      this.db
        .prepare(
          `UPDATE permission_requests SET state = @state, decided_at = @decided_at, decided_by = @decided_by,
             scope = @scope, message = @message WHERE id = @id AND state = 'pending'`,
        )
        .run({ ...fields, id }).changes > 0
    );
  }

  addSessionRule(sessionId: string, toolName: string, match: string, at: string): void {
    this.db
      .prepare(
        'INSERT OR IGNORE INTO session_rules (session_id, tool_name, match, created_at) VALUES (?, ?, ?, ?)',
      )
      .run(sessionId, toolName, match, at);
  }

  hasSessionRule(sessionId: string, toolName: string, match: string): boolean {
    return (
      this.db
        .prepare(
          'SELECT 1 FROM session_rules WHERE session_id = ? AND tool_name = ? AND match IN (?, ?)',
        )
        .get(sessionId, toolName, match, '*') !== undefined
    );
  }
}

function toPermission(row: PermissionRow): StoredPermission {
  const { input_json, is_question, ...rest } = row;
  return {
    ...rest,
    input: JSON.parse(input_json) as Record<string, unknown>,
    is_question: is_question === 1,
  };
}

export function publicPermission(p: StoredPermission): PermissionRequest {
  const { control_request_id: _hidden, ...visible } = p;
  return visible;
}
