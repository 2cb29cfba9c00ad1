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
  'reasoning_tokens',
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

/**
 * One CSV line straight from a row of TURN_COLUMNS values, without the row object of the JSON
 * formats: the same text as csvRecord over toTurnRow (export.test checks it), several times faster.
 * Columns 8 and 9 are the times in ms (ISO text in the export), 16 the cost, 17 the error flag.
 */
function csvLine(values: unknown[]): string {
  let line = '';
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (i > 0) line += ',';
    if (i === 8 || i === 9) line += new Date(value as number).toISOString();
    else if (i === 17) line += value === 1 ? 'true' : 'false';
    else if (typeof value === 'number') line += String(value);
    else if (typeof value === 'string') line += csvField(value);
  }
  return `${line}\r\n`;
}

function encode(format: Exclude<ExportFormat, 'csv'>, row: TurnDbRow, first: boolean): string {
  const turn = toTurnRow(row);
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
    const repo = new AnalyticsRepo(db);
    const lines: Iterable<string> =
      format === 'csv'
        ? mapIterable(repo.iterateTurnValues(filter), csvLine)
        : mapIterable(repo.iterateTurns(filter), (row) => {
            const text = encode(format, row, first);
            first = false;
            return text;
          });
    for (const line of lines) {
      if (closed) break;
      buffer += line;
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

function* mapIterable<T, U>(items: Iterable<T>, map: (item: T) => U): Generator<U> {
  for (const item of items) yield map(item);
}
