import type { FastifyReply } from 'fastify';
import type { ServerResponse } from 'node:http';
import { availableParallelism } from 'node:os';
import type { AnalyticsFilter } from '../../../contract/usage.js';
import { openReader } from '../db/database.js';
import { csvField, csvRecord, EXPORT_COLUMNS } from './export-lines.js';
import { RangeEncoder, RangeEnds, type ExportFormat, type ExportRange } from './export-range.js';
import { ExportWorkers, type Encoded } from './export-workers.js';

export type { ExportFormat };

export { EXPORT_COLUMNS };

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8; header=present',
  json: 'application/json; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
};

export { csvField, csvRecord };

export interface ExportOptions {
  /** Turns per range: about 1 MB of NDJSON at 2,048. */
  rangeRows: number;
  /** Threads encoding ranges when there is more than one range. */
  threads: number;
}

/**
 * One thread per core, three at most: on two cores a third thread made 1,000,000 turns slower
 * (210–218k against 254–271k NDJSON rows/s), and three leave room for the agents on larger machines.
 */
export const EXPORT_OPTIONS: ExportOptions = {
  rangeRows: 2048,
  threads: Math.min(3, availableParallelism()),
};

/** The answer's body: head, ranges in order (the JSON array's first comma dropped), tail. */
class ExportBody {
  closed = false;
  private empty = true;

  constructor(
    private readonly raw: ServerResponse,
    private readonly format: ExportFormat,
  ) {
    raw.on('close', () => (this.closed = true));
    if (format === 'csv') raw.write(csvRecord(EXPORT_COLUMNS));
    if (format === 'json') raw.write('[');
  }

  /**
   * True once the socket is done with `bytes` (they may then be written over), false when the
   * reader has gone.
   */
  write(bytes: Uint8Array): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    if (this.empty && this.format === 'json' && bytes.length > 0) bytes = bytes.subarray(1);
    if (bytes.length > 0) this.empty = false;
    return new Promise((resolve) => {
      const closed = (): void => resolve(false);
      this.raw.once('close', closed);
      this.raw.write(bytes, (error) => {
        this.raw.off('close', closed);
        resolve(!error);
      });
    });
  }

  end(): void {
    if (this.closed) return;
    this.raw.end(this.format === 'json' ? (this.empty ? ']' : '\n]') : undefined);
  }
}

/**
 * Streams the filtered turns. Ranges of `rangeRows` turns are cut on the time index and encoded
 * by `threads` worker threads, a few ranges ahead of the socket (memory stays bounded), then
 * written in order. A turn present for the whole export is written exactly once; each range is
 * read in one snapshot of its own. An export of one range is encoded here, as starting threads
 * would cost more than they save. Reads go through connections of their own: a better-sqlite3
 * iterator keeps its connection busy, and the ingest path must keep writing.
 */
export async function streamExport(
  dbFile: string,
  filter: AnalyticsFilter,
  format: ExportFormat,
  reply: FastifyReply,
  options: ExportOptions = EXPORT_OPTIONS,
): Promise<void> {
  const db = openReader(dbFile);
  reply.hijack();
  const raw = reply.raw;
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  raw.writeHead(200, {
    'content-type': CONTENT_TYPES[format],
    'content-disposition': `attachment; filename="relais-turns-${stamp}.${format}"`,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  const body = new ExportBody(raw, format);
  let workers: ExportWorkers | null = null;
  try {
    const ends = new RangeEnds(db, filter, options.rangeRows);
    const firstEnd = ends.after(null);
    if (firstEnd === null) {
      const { bytes } = new RangeEncoder(db, filter, format).encode({ after: null, through: null });
      await body.write(bytes);
    } else {
      workers = new ExportWorkers(options.threads, { file: dbFile, filter, format });
      await writeRanges(body, workers, ends, firstEnd, options.threads * 2);
    }
    body.end();
  } catch (error: unknown) {
    // Headers are gone already: the only honest signal left is cutting the answer short.
    raw.destroy(error instanceof Error ? error : new Error(String(error)));
  } finally {
    db.close();
    await workers?.close();
  }
}

/** Keeps `depth` ranges asked for ahead of the one being written. */
async function writeRanges(
  body: ExportBody,
  workers: ExportWorkers,
  ends: RangeEnds,
  firstEnd: ExportRange['through'],
  depth: number,
): Promise<void> {
  const queue: Promise<Encoded>[] = [];
  let next: ExportRange | null = { after: null, through: firstEnd };
  const ask = (range: ExportRange): void => {
    const encoded = workers.encode(range);
    // Awaited in turn below; until then a failure must not count as unhandled.
    encoded.catch(() => undefined);
    queue.push(encoded);
    next = range.through ? { after: range.through, through: ends.after(range.through) } : null;
  };
  while (next && queue.length < depth) ask(next);
  while (queue.length > 0 && !body.closed) {
    const encoded = await queue.shift()!;
    while (next && queue.length < depth) ask(next);
    if (await body.write(encoded.bytes)) encoded.release();
  }
}
