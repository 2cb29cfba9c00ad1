import Database from 'better-sqlite3';
import type { FastifyReply } from 'fastify';
import type { AnalyticsFilter } from '../../../contract/usage.js';
import { AnalyticsRepo, toTurnRow, type TurnDbRow } from './analytics-repo.js';

export type ExportFormat = 'csv' | 'json' | 'ndjson';

export const EXPORT_COLUMNS = [
  'id',
  'session_id',
  'subscription_id',
  'agent',
  'model',
  'models',
  'app',
  'permission_mode',
  'started_at',
  'ended_at',
  'duration_ms',
  'model_calls',
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_creation_tokens',
  'cost_estimate_usd',
  'is_error',
  'error_kind',
  'error_message',
  'tool_calls',
] as const;

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8; header=present',
  json: 'application/json; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
};

/** One RFC 4180 field: quoted when it holds a comma, a quote, CR or LF; quotes doubled. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRecord(values: readonly unknown[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

function encode(format: ExportFormat, row: TurnDbRow, first: boolean): string {
  const turn = toTurnRow(row);
  if (format === 'csv') return csvRecord(EXPORT_COLUMNS.map((c) => turn[c]));
  if (format === 'ndjson') return `${JSON.stringify(turn)}\n`;
  return `${first ? '' : ','}\n${JSON.stringify(turn)}`;
}

const CHUNK = 64 * 1024;

/**
 * Streams the filtered turns. It reads through its own read-only connection: a better-sqlite3
 * iterator keeps its connection busy while the socket drains, and the ingest path must keep writing.
 */
export async function streamExport(
  dbFile: string,
  filter: AnalyticsFilter,
  format: ExportFormat,
  reply: FastifyReply,
): Promise<void> {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  reply.hijack();
  const raw = reply.raw;
  let closed = false;
  raw.on('close', () => (closed = true));
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  raw.writeHead(200, {
    'content-type': CONTENT_TYPES[format],
    'content-disposition': `attachment; filename="relais-turns-${stamp}.${format}"`,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  const write = (text: string): Promise<void> | null => {
    if (raw.write(text)) return null;
    return new Promise((resolve) => {
      const done = (): void => (raw.off('drain', done), raw.off('close', done), resolve());
      raw.once('drain', done);
      raw.once('close', done);
    });
  };
  try {
    let buffer = format === 'csv' ? csvRecord(EXPORT_COLUMNS) : format === 'json' ? '[' : '';
    let first = true;
    for (const row of new AnalyticsRepo(db).iterateTurns(filter)) {
      if (closed) break;
      buffer += encode(format, row, first);
      first = false;
      if (buffer.length < CHUNK) continue;
      const waiting = write(buffer);
      buffer = '';
      if (waiting) await waiting;
    }
    if (format === 'json') buffer += first ? ']' : '\n]';
    if (!closed) raw.end(buffer);
  } catch (error: unknown) {
    // Headers are gone already: the only honest signal left is cutting the answer short.
    raw.destroy(error instanceof Error ? error : new Error(String(error)));
  } finally {
    db.close();
  }
}
