import type { FastifyReply } from 'fastify';
import type { ServerResponse } from 'node:http';
import { availableParallelism } from 'node:os';
import type { AnalyticsFilter } from '../../../contract/usage.js';
import { openReader } from '../db/database.js';
import { csvField, csvRecord, EXPORT_COLUMNS } from './export-lines.js';
import { RangeEncoder, RangeEnds, type ExportFormat, type ExportRange } from './export-range.js';
import { ExportWorkers, ThreadBudget, type Encoded, type RangeEncoding } from './export-workers.js';

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
  /** Threads shared by the exports running at once. */
  budget: ThreadBudget;
}

/**
 * One thread per core, three at most: on two cores a third thread made 1,000,000 turns slower
 * (210–218k against 254–271k NDJSON rows/s), and three leave room for the agents on larger machines.
 */
const THREADS = Math.min(3, availableParallelism());

export const EXPORT_OPTIONS: ExportOptions = {
  rangeRows: 2048,
  threads: THREADS,
  budget: new ThreadBudget(THREADS),
};

/** Ranges encoded in the serving thread, one at a time, as the socket takes them. */
class LocalEncoding implements RangeEncoding {
  readonly depth = 1;

  constructor(private readonly encoder: RangeEncoder) {}

  async encode(range: ExportRange): Promise<Encoded> {
    return { bytes: this.encoder.encode(range), release: () => undefined };
  }

  async close(): Promise<void> {}
}

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
 * by up to `threads` worker threads (as many as the budget has left), a few ranges ahead of the
 * socket (memory stays bounded), then written in order. A turn present for the whole export is
 * written exactly once; each range is read in one snapshot of its own. With one range, or no
 * thread left, ranges are encoded here one at a time. Reads go through connections of their own:
 * a better-sqlite3 iterator keeps its connection busy, and the ingest path must keep writing.
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
  let threads = 0;
  let encoding: RangeEncoding | null = null;
  try {
    const ends = new RangeEnds(db, filter, options.rangeRows);
    const firstEnd = ends.after(null);
    // One range: starting threads would cost more than they save.
    threads = firstEnd === null ? 0 : options.budget.take(options.threads);
    encoding =
      threads > 0
        ? new ExportWorkers(threads, { file: dbFile, filter, format })
        : new LocalEncoding(new RangeEncoder(db, filter, format));
    await writeRanges(body, encoding, ends, firstEnd);
    body.end();
  } catch (error: unknown) {
    // Headers are gone already: the only honest signal left is cutting the answer short.
    raw.destroy(error instanceof Error ? error : new Error(String(error)));
  } finally {
    await encoding?.close();
    options.budget.give(threads);
    db.close();
  }
}

/** Keeps `encoding.depth` ranges asked for ahead of the one being written. */
async function writeRanges(
  body: ExportBody,
  encoding: RangeEncoding,
  ends: RangeEnds,
  firstEnd: ExportRange['through'],
): Promise<void> {
  const depth = encoding.depth;
  const queue: Promise<Encoded>[] = [];
  let next: ExportRange | null = { after: null, through: firstEnd };
  const ask = (range: ExportRange): void => {
    const encoded = encoding.encode(range);
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
