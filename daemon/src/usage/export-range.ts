import type Database from 'better-sqlite3';
import type { AnalyticsFilter } from '../../../contract/usage.js';
import { ExportLines, exportSelect } from './export-sql.js';
import { turnsWhere } from './filters.js';

export type ExportFormat = 'csv' | 'json' | 'ndjson';

/** A turn's place in the export's order: (started_at_ms, id). */
export type TurnKey = [startedAtMs: number, id: number];

/**
 * The turns after `after` (all from the first when null) up to and including `through` (to the
 * last when null), in the export's order. Ranges are cut by keys, not by counts: a turn that
 * exists throughout an export lies in exactly one range, whichever connection reads it.
 */
export interface ExportRange {
  after: TurnKey | null;
  through: TurnKey | null;
}

const ORDER = 'ORDER BY started_at_ms, id';

/** Raw statements by SQL: a range is bounded or not on each side, four shapes at most. */
class Statements {
  private readonly bySql = new Map<string, Database.Statement>();

  get(db: Database.Database, sql: string): Database.Statement {
    let statement = this.bySql.get(sql);
    if (!statement) this.bySql.set(sql, (statement = db.prepare(sql).raw(true)));
    return statement;
  }
}

function rangeWhere(filter: AnalyticsFilter, range: ExportRange) {
  const clauses: string[] = [];
  const args: number[] = [];
  if (range.after) {
    clauses.push('(started_at_ms, id) > (?, ?)');
    args.push(...range.after);
  }
  if (range.through) {
    clauses.push('(started_at_ms, id) <= (?, ?)');
    args.push(...range.through);
  }
  return turnsWhere(filter, clauses, args);
}

/**
 * Where each range ends: the key of the `rows`-th turn after the previous end, or null when
 * fewer remain (that range then runs to the last turn). It reads the time index alone when the
 * filter allows: a few microseconds per thousand turns.
 */
export class RangeEnds {
  private readonly statements = new Statements();

  constructor(
    private readonly db: Database.Database,
    private readonly filter: AnalyticsFilter,
    private readonly rows: number,
  ) {}

  after(key: TurnKey | null): TurnKey | null {
    const where = rangeWhere(this.filter, { after: key, through: null });
    const sql = `SELECT started_at_ms, id FROM turns ${where.sql} ${ORDER} LIMIT 1 OFFSET ?`;
    const end = this.statements.get(this.db, sql).get(...where.args, this.rows - 1);
    return (end as TurnKey | undefined) ?? null;
  }
}

/**
 * Writes the text of a range of turns: CSV records, NDJSON lines, or JSON array items each
 * preceded by `,\n` (the writer drops the first comma of the array).
 */
export class RangeEncoder {
  private readonly lines: ExportLines;
  private readonly select: string;
  private readonly end: string;
  private readonly start: string;
  private readonly statements = new Statements();
  /** Ranges hold about as many bytes as the one before: their buffer starts a little larger. */
  private lastSize = 64 * 1024;

  constructor(
    private readonly db: Database.Database,
    private readonly filter: AnalyticsFilter,
    format: ExportFormat,
  ) {
    const lineFormat = format === 'csv' ? 'csv' : 'json';
    this.lines = new ExportLines(db, lineFormat);
    this.select = exportSelect(lineFormat);
    this.start = format === 'json' ? ',\n' : '';
    this.end = format === 'ndjson' ? '\n' : '';
  }

  /**
   * The range's bytes (UTF-8). `allocate` gives the buffer to write into: a thread passes one that
   * reuses the buffers given back to it.
   */
  encode(range: ExportRange, allocate: (size: number) => Buffer = Buffer.allocUnsafeSlow): Buffer {
    const where = rangeWhere(this.filter, range);
    const sql = `SELECT ${this.select} FROM turns ${where.sql} ${ORDER}`;
    const rows = this.statements.get(this.db, sql).iterate(...where.args);
    const bytes = new GrowingBytes(roundUp(this.lastSize + (this.lastSize >> 3)), allocate);
    for (const row of rows as IterableIterator<unknown[]>)
      bytes.write(`${this.start}${this.lines.line(row)}${this.end}`);
    const done = bytes.done();
    this.lastSize = done.length;
    return done;
  }
}

const MB = 1 << 20;

/** Sizes in whole megabytes, so a buffer given back fits the next range of about the same size. */
const roundUp = (size: number): number => Math.ceil(size / MB) * MB;

/**
 * Lines written one by one into a buffer that doubles when full: turning a range's text into
 * bytes in one go (a string of thousands of pieces, flattened then encoded) cost a quarter as
 * much as reading the range. The buffer is its own ArrayBuffer, so a thread can hand it over.
 */
class GrowingBytes {
  private buffer: Buffer;
  private length = 0;

  constructor(
    size: number,
    private readonly allocate: (size: number) => Buffer,
  ) {
    this.buffer = allocate(size);
  }

  write(text: string): void {
    const room = this.length + text.length * 3;
    if (room > this.buffer.length) {
      const bigger = this.allocate(roundUp(Math.max(room, this.buffer.length * 2)));
      this.buffer.copy(bigger, 0, 0, this.length);
      this.buffer = bigger;
    }
    this.length += this.buffer.write(text, this.length, 'utf8');
  }

  done(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}
