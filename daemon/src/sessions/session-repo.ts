import type {
  AgentKind,
  EndReason,
  PermissionMode,
  Session,
  SessionOrigin,
  SessionState,
  Effort,
} from '../../../contract/api.js';
import type { Db } from '../db/database.js';
import { whereClause } from '../db/where.js';

interface SessionRow {
  id: string;
  origin: SessionOrigin;
  subscription_id: string;
  agent: AgentKind;
  model: string;
  cwd: string;
  effort: Effort | null;
  permission_mode: PermissionMode;
  app: string;
  title: string | null;
  state: SessionState;
  end_reason: EndReason | null;
  end_detail: string | null;
  agent_session_id: string | null;
  pid: number | null;
  created_at: string;
  ended_at: string | null;
  deadline_at: string;
  max_deadline_at: string;
  last_seq: number;
  turns: number;
  queue_length: number;
  pending_permissions: number;
  transcript_bytes: number | null;
  isolated: number | null;
  confined_without_asking: number;
  key_id: string | null;
  key_name: string | null;
}

export type NewSession = Omit<
  SessionRow,
  | 'state'
  | 'end_reason'
  | 'end_detail'
  | 'agent_session_id'
  | 'pid'
  | 'ended_at'
  | 'last_seq'
  | 'turns'
  | 'queue_length'
  | 'pending_permissions'
  | 'origin'
  | 'transcript_bytes'
  | 'isolated'
  | 'confined_without_asking'
  | 'key_id'
  | 'key_name'
> & { isolated?: boolean; confined_without_asking?: boolean; key_id?: string | null };

const SELECT = `
  SELECT s.*,
    (SELECT COUNT(*) FROM queue_entries q WHERE q.session_id = s.id) AS queue_length,
    (SELECT COUNT(*) FROM permission_requests p WHERE p.session_id = s.id AND p.state = 'pending') AS pending_permissions,
    CASE WHEN s.origin = 'imported'
      THEN (SELECT COALESCE(SUM(h.offset), 0) FROM history_files h WHERE h.session_id = s.id) END AS transcript_bytes,
    (SELECT k.name FROM api_keys k WHERE k.id = s.key_id) AS key_name
  FROM sessions s`;

export interface SessionFilter {
  state?: SessionState;
  subscription?: string;
  app?: string;
  origin?: SessionOrigin;
  /** The id of the key that launched them. */
  caller?: string;
  limit: number;
  cursor?: string;
}

/** Reads and writes session rows; `last_seq` comes from the live event counter when it is ahead. */
export class SessionRepo {
  private byId: ReturnType<Db['prepare']> | undefined;

  constructor(
    private readonly db: Db,
    private readonly liveSeq: (sessionId: string) => number,
  ) {}

  insert(session: NewSession): void {
    this.db
      .prepare(
        `INSERT INTO sessions (id, subscription_id, agent, model, cwd, effort, permission_mode, app, title,
           state, created_at, deadline_at, max_deadline_at, isolated, confined_without_asking, key_id)
         VALUES (@id, @subscription_id, @agent, @model, @cwd, @effort, @permission_mode, @app, @title,
           'starting', @created_at, @deadline_at, @max_deadline_at, @isolated, @confined_without_asking, @key_id)`,
      )
      .run({
        ...session,
        isolated: session.isolated === undefined ? null : +session.isolated,
        confined_without_asking: +(session.confined_without_asking ?? false),
        key_id: session.key_id ?? null,
      });
  }

  get(id: string): Session | null {
    // Prepared once: the live announcer reads every changed session, often (1–3% of an import).
    this.byId ??= this.db.prepare(`${SELECT} WHERE s.id = ?`);
    const row = this.byId.get(id) as SessionRow | undefined;
    return row ? this.toSession(row) : null;
  }

  /** How many sessions are in each state (the diagnostics' counts). */
  countByState(): Record<string, number> {
    const rows = this.db
      .prepare('SELECT state, COUNT(*) AS n FROM sessions GROUP BY state')
      .all() as { state: string; n: number }[];
    return Object.fromEntries(rows.map((row) => [row.state, row.n]));
  }

  /** A session's state and where its conversation is kept (hot, archived, deleted), or null. */
  conversationState(id: string): { state: string; conversation: string } | null {
    const row = this.db.prepare('SELECT state, conversation FROM sessions WHERE id = ?').get(id) as
      { state: string; conversation: string } | undefined;
    return row ?? null;
  }

  /** Newest first; the cursor is the last id of the previous page (ids sort by creation time). */
  list(filter: SessionFilter): { items: Session[]; next_cursor: string | null } {
    const { clause, args } = whereClause([
      ['s.state = ?', filter.state],
      ['s.subscription_id = ?', filter.subscription],
      ['s.app = ?', filter.app],
      ['s.origin = ?', filter.origin],
      ['s.key_id = ?', filter.caller],
      ['s.id < ?', filter.cursor],
    ]);
    const rows = this.db
      .prepare(`${SELECT} ${clause} ORDER BY s.id DESC LIMIT ?`)
      .all(...args, filter.limit + 1) as SessionRow[];
    const more = rows.length > filter.limit;
    const items = rows.slice(0, filter.limit).map((row) => this.toSession(row));
    return { items, next_cursor: more ? items[items.length - 1]!.id : null };
  }

  idsInState(states: SessionState[]): string[] {
    const marks = states.map(() => '?').join(',');
    return (
      this.db.prepare(`SELECT id FROM sessions WHERE state IN (${marks})`).all(...states) as {
        id: string;
      }[]
    ).map((row) => row.id);
  }

  /** Relais' own sessions ended before `before` whose conversation is kept as one of `conversations`. */
  endedBefore(before: string, conversations: string[]): string[] {
    const marks = conversations.map(() => '?').join(',');
    return this.db
      .prepare(
        `SELECT id FROM sessions WHERE state = 'ended' AND origin = 'relais' AND ended_at < ? AND conversation IN (${marks})`,
      )
      .pluck()
      .all(before, ...conversations) as string[];
  }

  update(
    id: string,
    fields: Partial<
      Omit<
        SessionRow,
        'id' | 'queue_length' | 'pending_permissions' | 'transcript_bytes' | 'key_id' | 'key_name'
      >
    >,
  ): void {
    const names = Object.keys(fields);
    if (names.length === 0) return;
    const sets = names.map((name) => `${name} = @${name}`).join(', ');
    this.db.prepare(`UPDATE sessions SET ${sets} WHERE id = @id`).run({ ...fields, id });
  }

  incrementTurns(id: string): void {
    this.db.prepare('UPDATE sessions SET turns = turns + 1 WHERE id = ?').run(id);
  }

  private toSession(row: SessionRow): Session {
    const { key_id, key_name, ...rest } = row;
    return {
      ...rest,
      caller: key_id === null ? null : { id: key_id, name: key_name ?? key_id },
      last_seq: Math.max(row.last_seq, this.liveSeq(row.id)),
      isolated: row.isolated === null ? null : row.isolated === 1,
      confined_without_asking: row.confined_without_asking === 1,
    };
  }
}
