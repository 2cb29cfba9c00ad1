import type { LogEntry, LogLevel } from '../../../contract/operations.js';
import type { Db } from '../db/database.js';
import { whereClause } from '../db/where.js';
import { LEVELS, toEntry } from './log-sink.js';

export interface LogFilter {
  level?: LogLevel;
  session?: string;
  q?: string;
  from?: string;
  to?: string;
  before?: number;
  limit: number;
}

export function matchesLog(
  entry: LogEntry,
  filter: Pick<LogFilter, 'level' | 'session' | 'q'>,
): boolean {
  if (filter.level && LEVELS[entry.level] < LEVELS[filter.level]) return false;
  if (filter.session && entry.session_id !== filter.session) return false;
  if (filter.q && !JSON.stringify(entry.data).toLowerCase().includes(filter.q.toLowerCase()))
    return false;
  return true;
}

/** Newest first, cursor = the last id of the page. */
export function queryLogs(
  db: Db,
  filter: LogFilter,
): { items: LogEntry[]; next_cursor: string | null } {
  const { clause, args } = whereClause([
    ['level >= ?', filter.level && LEVELS[filter.level]],
    ['session_id = ?', filter.session],
    ['instr(lower(line), lower(?)) > 0', filter.q],
    ['time_ms >= ?', filter.from && Date.parse(filter.from)],
    ['time_ms < ?', filter.to && Date.parse(filter.to)],
    ['id < ?', filter.before],
  ]);
  const rows = db
    .prepare(
      `SELECT id, time_ms, level, msg, session_id, line FROM logs ${clause} ORDER BY id DESC LIMIT ?`,
    )
    .all(...args, filter.limit + 1) as Parameters<typeof toEntry>[0][];
  const items = rows.slice(0, filter.limit).map(toEntry);
  return {
    items,
    next_cursor: rows.length > filter.limit ? String(items[items.length - 1]!.id) : null,
  };
}
