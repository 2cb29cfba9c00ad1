import Database from 'better-sqlite3';
import type { FastifyReply } from 'fastify';
import type { AnalyticsFilter } from '../../../contract/usage.js';
import { AnalyticsRepo } from './analytics-repo.js';
import { csvField, csvLine, csvRecord, IsoTimes, jsonKeys, jsonLine } from './export-lines.js';

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
  'reasoning_tokens',
] as const;

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8; header=present',
  json: 'application/json; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
};

export { csvField, csvRecord };

const CHUNK = 64 * 1024;

/** One row's text: a CSV record, an NDJSON line, or a JSON array item with its separator. */
function lineEncoder(format: ExportFormat): (row: unknown[], first: boolean) => string {
  const times = new IsoTimes();
  if (format === 'csv') return (row) => csvLine(row, times);
  const keys = jsonKeys(EXPORT_COLUMNS);
  if (format === 'ndjson') return (row) => `${jsonLine(row, keys, times)}\n`;
  return (row, first) => `${first ? '' : ','}\n${jsonLine(row, keys, times)}`;
}

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
    const rows = new AnalyticsRepo(db).iterateTurnValues(filter);
    const encode = lineEncoder(format);
    let buffer = format === 'csv' ? csvRecord(EXPORT_COLUMNS) : format === 'json' ? '[' : '';
    let first = true;
    for (const row of rows) {
      buffer += encode(row, first);
      first = false;
      if (buffer.length < CHUNK) continue;
      if (closed) break;
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
