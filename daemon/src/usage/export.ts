import type { FastifyReply } from 'fastify';
import type { AnalyticsFilter } from '../../../contract/usage.js';
import { openReader } from '../db/database.js';
import { AnalyticsRepo } from './analytics-repo.js';
import { csvField, csvRecord, EXPORT_COLUMNS } from './export-lines.js';
import { ExportLines, exportSelect } from './export-sql.js';

export type ExportFormat = 'csv' | 'json' | 'ndjson';

export { EXPORT_COLUMNS };

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8; header=present',
  json: 'application/json; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
};

export { csvField, csvRecord };

const CHUNK = 64 * 1024;

/** One row's text: a CSV record, an NDJSON line, or a JSON array item with its separator. */
function lineEncoder(
  lines: ExportLines,
  format: ExportFormat,
): (row: unknown[], first: boolean) => string {
  if (format === 'csv') return (row) => lines.line(row);
  if (format === 'ndjson') return (row) => `${lines.line(row)}\n`;
  return (row, first) => `${first ? '' : ','}\n${lines.line(row)}`;
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
  const db = openReader(dbFile);
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
    const lineFormat = format === 'csv' ? 'csv' : 'json';
    const rows = new AnalyticsRepo(db).iterateTurnValues(filter, exportSelect(lineFormat));
    const encode = lineEncoder(new ExportLines(db, lineFormat), format);
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
