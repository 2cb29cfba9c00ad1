import type Database from 'better-sqlite3';
import { TURN_COLUMNS } from './turn-rows.js';
import { csvLine, EXPORT_COLUMNS, IsoTimes, jsonKeys, jsonLine } from './export-lines.js';

/**
 * Export lines mostly written by SQLite: a row's text columns, integers, quoting and escaping come
 * back as three strings instead of twenty-two values, so the export no longer spends its time
 * making a JS value of each column and joining them (1M rows: 168k → 220k rows/s before HTTP).
 * What SQLite would write differently from the JS encoder stays in JS: times (ISO text from
 * IsoTimes) and the cost (SQLite writes 17 digits where String() writes the shortest). A row
 * with anything unusual — a non-integer or unsafe integer where integers belong, a non-text
 * value where text belongs, a cost that is not a number — is written by the JS encoder from
 * its raw values, so every line is byte for byte what csvLine / jsonLine write.
 */
export type LineFormat = 'csv' | 'json';

type ColumnType = 'integer' | 'text' | 'time' | 'cost' | 'flag';

type ExportColumn = (typeof EXPORT_COLUMNS)[number];

/** Export columns stored under another name. */
const STORED_AS: Partial<Record<ExportColumn, string>> = {
  started_at: 'started_at_ms',
  ended_at: 'ended_at_ms',
  cost_estimate_usd: 'cost_usd',
  tool_calls: 'tool_call_count',
};
/** Every column not named here is an integer. */
const TYPES: Partial<Record<ExportColumn, ColumnType>> = {
  started_at: 'time',
  ended_at: 'time',
  cost_estimate_usd: 'cost',
  is_error: 'flag',
  ...Object.fromEntries(
    [
      'session_id',
      'subscription_id',
      'agent',
      'model',
      'models',
      'app',
      'permission_mode',
      'error_kind',
      'error_message',
    ].map((name) => [name, 'text']),
  ),
};
const NULLABLE = new Set<ExportColumn>(['error_kind', 'error_message', 'reasoning_tokens']);

/** The stored columns in EXPORT_COLUMNS order; SQLite writes all but the times and the cost. */
const COLUMNS = EXPORT_COLUMNS.map((name) => ({
  sql: STORED_AS[name] ?? name,
  type: TYPES[name] ?? 'integer',
  nullable: NULLABLE.has(name),
}));
/** The two times are next to each other and the cost after them: the select list's shape. */
const START = COLUMNS.findIndex((c) => c.type === 'time');
const COST = COLUMNS.findIndex((c) => c.type === 'cost');

/**
 * Integers a JS number holds exactly (SQLite's text of them is then String()'s), and text or
 * NULL where text belongs: anything else goes to the JS encoder.
 */
const PLAIN = COLUMNS.flatMap(({ sql, type, nullable }) => {
  if (type === 'text') return [`typeof(${sql}) IN ('text', 'null')`];
  if (type !== 'integer') return [];
  const exact = `typeof(${sql}) = 'integer' AND abs(${sql}) <= 9007199254740991`;
  return [nullable ? `(${sql} IS NULL OR (${exact}))` : `(${exact})`];
}).join(' AND ');

/** csvField in SQL: quoted when it holds a comma, a quote, CR or LF; NULL is empty. */
const csvText = (column: string): string =>
  `CASE WHEN ${column} IS NULL THEN '' WHEN instr(${column}, '"') OR instr(${column}, ',') ` +
  `OR instr(${column}, char(10)) OR instr(${column}, char(13)) ` +
  `THEN '"' || replace(${column}, '"', '""') || '"' ELSE ${column} END`;

const sqlString = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/** How each format writes a column's value, what goes before it, and what ends a line. */
const FORMATS: Record<
  LineFormat,
  {
    value: (column: (typeof COLUMNS)[number]) => string;
    before: string[];
    end: string;
    quote: string;
  }
> = {
  csv: {
    value: ({ sql, type, nullable }) =>
      type === 'text' ? csvText(sql) : nullable ? `ifnull(${sql}, '')` : sql,
    before: COLUMNS.map((_, i) => (i === 0 ? '' : ',')),
    end: '\r\n',
    quote: '',
  },
  json: {
    value: ({ sql, type, nullable }) =>
      type === 'text' ? `json_quote(${sql})` : nullable ? `ifnull(${sql}, 'null')` : sql,
    before: jsonKeys(EXPORT_COLUMNS),
    end: '}',
    quote: '"',
  },
};

/** A line's SQL parts around what JS writes: head, start time, `between`, end time, middle, cost, tail. */
interface Layout {
  head: string[];
  between: string;
  middle: string[];
  tail: string[];
}

function layout(format: LineFormat): Layout {
  const { value, before, end, quote } = FORMATS[format];
  const written = (from: number, to: number): string[] =>
    COLUMNS.slice(from, to).map((column, k) => {
      const text =
        column.type === 'flag'
          ? `CASE WHEN ${column.sql} = 1 THEN 'true' ELSE 'false' END`
          : value(column);
      return `${sqlString(before[from + k]!)} || ${text}`;
    });
  return {
    head: [...written(0, START), sqlString(before[START]! + quote)],
    between: quote + before[START + 1]! + quote,
    middle: [sqlString(quote), ...written(START + 2, COST), sqlString(before[COST]!)],
    tail: [...written(COST + 1, COLUMNS.length), sqlString(end)],
  };
}

const LAYOUTS: Record<LineFormat, Layout> = { csv: layout('csv'), json: layout('json') };

/**
 * The select list: [id, head, started_at_ms, ended_at_ms, middle, cost_usd, tail]; head is NULL
 * when the row is not plain (checked once: SQLite would evaluate the test for each part).
 */
export function exportSelect(format: LineFormat): string {
  const { head, middle, tail } = LAYOUTS[format];
  const join = (list: string[]): string => list.join(' || ');
  return `id, CASE WHEN ${PLAIN} THEN ${join(head)} END, started_at_ms, ended_at_ms, ${join(middle)}, cost_usd, ${join(tail)}`;
}

/** Turns the rows of exportSelect into lines (a CSV record with its CRLF, or a JSON object). */
export class ExportLines {
  private readonly times = new IsoTimes();
  private readonly keys = jsonKeys(EXPORT_COLUMNS);
  private readonly between: string;
  private readonly rawRow: Database.Statement;
  /** Rows written by the JS encoder because SQLite's text of them could differ. */
  fallbacks = 0;

  constructor(
    db: Database.Database,
    private readonly format: LineFormat,
  ) {
    this.between = LAYOUTS[format].between;
    this.rawRow = db.prepare(`SELECT ${TURN_COLUMNS} FROM turns WHERE id = ?`).raw(true);
  }

  line(row: unknown[]): string {
    const [id, head, started, ended, middle, cost, tail] = row;
    if (head === null || (cost !== null && typeof cost !== 'number')) return this.fromRaw(id);
    const start = this.times.format(started as number);
    const end = this.times.format(ended as number);
    return `${head as string}${start}${this.between}${end}${middle as string}${this.cost(cost)}${tail as string}`;
  }

  private cost(cost: number | null): string {
    if (this.format === 'csv') return cost === null ? '' : String(cost);
    return cost !== null && Number.isFinite(cost) ? String(cost) : 'null';
  }

  private fromRaw(id: unknown): string {
    this.fallbacks++;
    const values = this.rawRow.get(id) as unknown[];
    return this.format === 'csv'
      ? csvLine(values, this.times)
      : jsonLine(values, this.keys, this.times);
  }
}
