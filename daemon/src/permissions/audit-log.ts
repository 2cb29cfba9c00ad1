import type { AuditEntry, AuditQuery } from '../../../contract/permissions.js';
import type { Db } from '../db/database.js';
import { whereClause } from '../db/where.js';
import { nowIso } from '../ids.js';

export interface AuditRecord {
  kind: 'decision' | 'rules_change' | 'access';
  session_id?: string | null;
  subscription_id?: string | null;
  tool_name?: string | null;
  input?: Record<string, unknown> | null;
  step?: string | null;
  rule?: string | null;
  decision: string;
  decided_by: string;
  detail?: string | null;
  /** The caller key that acted (decided_by holds its name); null: the owner or Relais. */
  key_id?: string | null;
}

interface AuditRow {
  id: number;
  time_ms: number;
  kind: 'decision' | 'rules_change' | 'access';
  session_id: string | null;
  subscription_id: string | null;
  tool_name: string | null;
  input_summary: string | null;
  step: string | null;
  rule: string | null;
  decision: string;
  decided_by: string;
  detail: string | null;
  key_id: string | null;
}

const SUMMARY_MAX = 300;

/** The command, the path, or the input as JSON: what a person reading the trail needs to see. */
export function summarizeInput(input: Record<string, unknown> | null | undefined): string | null {
  if (!input) return null;
  const pick = ['command', 'file_path', 'path', 'notebook_path', 'pattern', 'url'].find(
    (k) => typeof input[k] === 'string',
  );
  const text = pick ? `${pick}: ${String(input[pick])}` : JSON.stringify(input);
  return text.length > SUMMARY_MAX ? `${text.slice(0, SUMMARY_MAX - 1)}…` : text;
}

type AuditFilter = Omit<AuditQuery, 'limit' | 'before'> & { before?: number };

function where(filter: AuditFilter): { clause: string; args: unknown[] } {
  return whereClause([
    ['session_id = ?', filter.session],
    ['tool_name = ?', filter.tool],
    ['decision = ?', filter.decision],
    ['kind = ?', filter.kind],
    ['time_ms >= ?', filter.from && Date.parse(filter.from)],
    ['time_ms < ?', filter.to && Date.parse(filter.to)],
    ['id < ?', filter.before],
  ]);
}

export function toAuditEntry(row: AuditRow): AuditEntry {
  const { time_ms, ...rest } = row;
  return { ...rest, time: nowIso(time_ms) };
}

/** Every permission decision and every rules change, in SQLite; kept when conversations go. */
export class AuditLog {
  private readonly insert;

  constructor(private readonly db: Db) {
    this.insert = db.prepare(
      `INSERT INTO audit (time_ms, kind, session_id, subscription_id, tool_name, input_summary, step, rule, decision, decided_by, detail, key_id)
       VALUES (@time_ms, @kind, @session_id, @subscription_id, @tool_name, @input_summary, @step, @rule, @decision, @decided_by, @detail, @key_id)`,
    );
  }

  record(entry: AuditRecord): void {
    this.insert.run({
      time_ms: Date.now(),
      kind: entry.kind,
      session_id: entry.session_id ?? null,
      subscription_id: entry.subscription_id ?? null,
      tool_name: entry.tool_name ?? null,
      input_summary: summarizeInput(entry.input),
      step: entry.step ?? null,
      rule: entry.rule ?? null,
      decision: entry.decision,
      decided_by: entry.decided_by,
      detail: entry.detail ?? null,
      key_id: entry.key_id ?? null,
    });
  }

  /** Newest first; the cursor is the last id of the page. */
  query(filter: AuditQuery): { items: AuditEntry[]; next_cursor: string | null } {
    const { clause, args } = where(filter);
    const rows = this.db
      .prepare(`SELECT * FROM audit ${clause} ORDER BY id DESC LIMIT ?`)
      .all(...args, filter.limit + 1) as AuditRow[];
    const items = rows.slice(0, filter.limit).map(toAuditEntry);
    return {
      items,
      next_cursor: rows.length > filter.limit ? String(items[items.length - 1]!.id) : null,
    };
  }

  /** Oldest first, one row at a time (exports). */
  iterate(filter: AuditFilter): IterableIterator<AuditRow> {
    const { clause, args } = where(filter);
    return this.db
      .prepare(`SELECT * FROM audit ${clause} ORDER BY id`)
      .iterate(...args) as IterableIterator<AuditRow>;
  }
}
