import type Database from 'better-sqlite3';
import { TURN_COLUMNS } from './turn-rows.js';
import {
  csvLine,
  csvTime,
  EXPORT_COLUMNS,
  FORMULA_START,
  IsoTimes,
  jsonKeys,
  jsonLine,
} from './export-lines.js';

/**
 * Export lines mostly written by SQLite: a row's text columns, integers, quoting and escaping come
 * back as a few strings instead of twenty-two values, so the export no longer spends its time
 * making a JS value of each column and joining them. What SQLite would write differently from the
 * JS encoder stays in JS: times (ISO text from IsoTimes) and the cost (SQLite writes 17 digits where
 * String() writes the shortest). A row with anything unusual — a non-integer or unsafe integer
 * where integers belong, a non-text value where text belongs, a cost that is not a number, in CSV
 * a short text field that needs quoting — is written by the JS encoder from its raw values, so
 * every line is byte for byte what csvLine / jsonLine write. 1,000,000 turns over HTTP: CSV
 * 151–166k → 163–173k rows/s with the first version, 176–186k → 228–240k with the cheaper checks.
 */
export type LineFormat = 'csv' | 'json';

/** `prose` is free text (an error message): the one text column SQLite quotes itself in CSV. */
type ColumnType = 'integer' | 'text' | 'prose' | 'time' | 'cost' | 'flag';

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
    ].map((name) => [name, 'text']),
  ),
  error_message: 'prose',
};
const NULLABLE = new Set<ExportColumn>(['error_kind', 'error_message', 'reasoning_tokens']);

/** The stored columns in EXPORT_COLUMNS order; SQLite writes all but the times and the cost. */
const COLUMNS = EXPORT_COLUMNS.map((name) => ({
  sql: STORED_AS[name] ?? name,
  type: TYPES[name] ?? 'integer',
  nullable: NULLABLE.has(name),
}));
/** The two times are next to each other, the cost and the prose after them: the select list's shape. */
const START = COLUMNS.findIndex((c) => c.type === 'time');
const COST = COLUMNS.findIndex((c) => c.type === 'cost');
const PROSE = COLUMNS.findIndex((c) => c.type === 'prose');

const SAFE = 9007199254740991;

/**
 * Integers a JS number holds exactly (SQLite's text of them is then String()'s), and text or NULL
 * where text belongs: anything else goes to the JS encoder. Written with comparisons rather than
 * typeof() (a third of the query's time): SQLite orders numbers before text before blobs, so
 * `BETWEEN` refuses text and blobs, `= CAST(… AS INTEGER)` refuses a fraction, and `< X''` refuses
 * a blob. An integral REAL cannot be stored in these INTEGER columns: their affinity makes it an
 * integer. NULL fails every test, so a NULL where none belongs goes to the JS encoder too.
 */
const PLAIN = COLUMNS.flatMap(({ sql, type, nullable }) => {
  const test =
    type === 'text' || type === 'prose'
      ? `${sql} < X''`
      : type === 'integer'
        ? `${sql} BETWEEN -${SAFE} AND ${SAFE} AND ${sql} = CAST(${sql} AS INTEGER)`
        : null;
  if (!test) return [];
  return [nullable ? `(${sql} IS NULL OR (${test}))` : `(${test})`];
}).join(' AND ');

/** csvField in SQL: quoted when it holds a comma, a quote, CR or LF; NULL is empty. */
const csvText = (column: string): string =>
  `CASE WHEN ${column} IS NULL THEN '' WHEN instr(${column}, '"') OR instr(${column}, ',') ` +
  `OR instr(${column}, char(10)) OR instr(${column}, char(13)) ` +
  `THEN '"' || replace(${column}, '"', '""') || '"' ELSE ${column} END`;

const sqlString = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/**
 * How each format writes a column's value, what goes before it, and what ends a line. In CSV the
 * short text columns (ids, names, modes) are written raw, and JS checks their segment instead
 * (`rawSegments`): a value holding a comma, a quote, CR or LF is rare there, and SQLite's four
 * `instr` per column cost more than the rest of the line. The prose column is quoted by SQLite.
 */
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
      type === 'prose' ? csvText(sql) : nullable ? `ifnull(${sql}, '')` : sql,
    before: COLUMNS.map((_, i) => (i === 0 ? '' : ',')),
    end: '\r\n',
    quote: '',
  },
  json: {
    value: ({ sql, type, nullable }) =>
      type === 'text' || type === 'prose'
        ? `json_quote(${sql})`
        : nullable
          ? `ifnull(${sql}, 'null')`
          : sql,
    before: jsonKeys(EXPORT_COLUMNS),
    end: '}',
    quote: '"',
  },
};

/**
 * A line's parts, in order: head, start time (JS), `between`, end time (JS), middle, cost (JS),
 * tail, prose, rest, `end`. The SQL parts are lists of expressions; `between` and `end` are text.
 */
interface Layout {
  head: string[];
  between: string;
  middle: string[];
  tail: string[];
  prose: string;
  rest: string[];
  end: string;
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
    tail: [...written(COST + 1, PROSE), sqlString(before[PROSE]!)],
    prose: value(COLUMNS[PROSE]!),
    rest: written(PROSE + 1, COLUMNS.length),
    end,
  };
}

const LAYOUTS: Record<LineFormat, Layout> = { csv: layout('csv'), json: layout('json') };

/**
 * The select list: [id, head, started_at_ms, ended_at_ms, middle, cost_usd, tail, prose, rest];
 * head is NULL when the row is not plain (checked once: SQLite would evaluate the test for each
 * part).
 */
export function exportSelect(format: LineFormat): string {
  const { head, middle, tail, prose, rest } = LAYOUTS[format];
  const join = (list: string[]): string => (list.length ? list.join(' || ') : "''");
  return `id, CASE WHEN ${PLAIN} THEN ${join(head)} END, started_at_ms, ended_at_ms, ${join(middle)}, cost_usd, ${join(tail)}, ${prose}, ${join(rest)}`;
}

/** Commas among the separators `before` puts in a CSV segment of columns [from, to). */
const separators = (from: number, to: number): number =>
  FORMATS.csv.before.slice(from, to).join('').split(',').length - 1;

/** A CSV segment of raw fields: exactly `commas` commas, and no quote, CR or LF in any field. */
const rawFields = (commas: number): RegExp =>
  new RegExp(`^[^",\\r\\n]*(?:,[^",\\r\\n]*){${commas}}$`);

/**
 * The segments holding text (head: ids, names, modes; tail: the error kind) after their first
 * field (the row id, the error flag, never negative): no field may start with what a spreadsheet
 * would run (FORMULA_START) nor hold a control character, else the JS encoder writes the line and
 * neutralises it. The middle and the rest hold numbers only, which stay numbers.
 */
const textFields = (commas: number): RegExp =>
  new RegExp(
    `^[^",\\u0000-\\u001F\\u007F-\\u009F]*(?:,(?![=+\\-@\\uFF1D\\uFF0B\\uFF0D\\uFF20])[^",\\u0000-\\u001F\\u007F-\\u009F]*){${commas}}$`,
  );

/** The CSV segments written raw (head, middle, tail, rest), each with its own check. */
const RAW_SEGMENTS = {
  head: textFields(separators(0, START + 1)),
  middle: rawFields(separators(START + 2, COST + 1)),
  tail: textFields(separators(COST + 1, PROSE + 1)),
  rest: rawFields(separators(PROSE + 1, COLUMNS.length)),
};

/** SQLite quotes the prose; a formula start or a control character (tab, CR, LF aside) it leaves to JS. */
const PROSE_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const proseRaw = (prose: string): boolean =>
  prose === '' ||
  (!PROSE_CONTROL.test(prose) &&
    !FORMULA_START.test(prose.startsWith('"') ? prose.slice(1) : prose));

/** True when no raw-written CSV field needed quoting: the line is then the quoted one. */
function rawSegments(
  head: string,
  middle: string,
  tail: string,
  prose: string,
  rest: string,
): boolean {
  return (
    RAW_SEGMENTS.head.test(head) &&
    RAW_SEGMENTS.middle.test(middle) &&
    RAW_SEGMENTS.tail.test(tail) &&
    RAW_SEGMENTS.rest.test(rest) &&
    proseRaw(prose)
  );
}

const ZEROS = '00000000';

/**
 * String(value) for a non-negative number of at most 8 decimals (what the price table makes),
 * without V8's search for the shortest digits (twice as fast): when value is n / 1e8 exactly,
 * n's digits are that shortest text, as no other decimal of 8 places or fewer is that close
 * below 1e7. Anything else, and numbers String() writes with an exponent, go to String().
 */
export function decimalText(value: number): string {
  if (value >= 1e-6 && value < 1e7) {
    const scaled = Math.round(value * 1e8);
    if (scaled / 1e8 === value) {
      const whole = Math.floor(scaled / 1e8);
      let fraction = scaled - whole * 1e8;
      if (fraction === 0) return String(whole);
      let places = 8;
      while (fraction % 10 === 0) {
        fraction /= 10;
        places--;
      }
      const digits = String(fraction);
      return `${whole}.${ZEROS.slice(0, places - digits.length)}${digits}`;
    }
  }
  return String(value);
}

/** Turns the rows of exportSelect into lines (a CSV record with its CRLF, or a JSON object). */
export class ExportLines {
  private readonly times = new IsoTimes();
  private readonly keys = jsonKeys(EXPORT_COLUMNS);
  private readonly between: string;
  private readonly end: string;
  private readonly rawRow: Database.Statement;
  /** Rows written by the JS encoder because SQLite's text of them could differ. */
  fallbacks = 0;

  constructor(
    db: Database.Database,
    private readonly format: LineFormat,
  ) {
    this.between = LAYOUTS[format].between;
    this.end = LAYOUTS[format].end;
    this.rawRow = db.prepare(`SELECT ${TURN_COLUMNS} FROM turns WHERE id = ?`).raw(true);
  }

  line(row: unknown[]): string {
    const [id, head, started, ended, middle, cost, tail, prose, rest] = row as [
      unknown,
      string | null,
      number,
      number,
      string,
      unknown,
      string,
      string,
      string,
    ];
    if (head === null || (cost !== null && typeof cost !== 'number')) return this.fromRaw(id);
    if (this.format === 'csv' && !rawSegments(head, middle, tail, prose, rest))
      return this.fromRaw(id);
    let start = this.times.format(started);
    let end = this.times.format(ended);
    if (this.format === 'csv') {
      start = csvTime(start);
      end = csvTime(end);
    }
    return `${head}${start}${this.between}${end}${middle}${this.cost(cost)}${tail}${prose}${rest}${this.end}`;
  }

  private cost(cost: number | null): string {
    if (this.format === 'csv') return cost === null ? '' : decimalText(cost);
    return cost !== null && Number.isFinite(cost) ? decimalText(cost) : 'null';
  }

  private fromRaw(id: unknown): string {
    this.fallbacks++;
    const values = this.rawRow.get(id) as unknown[];
    return this.format === 'csv'
      ? csvLine(values, this.times)
      : jsonLine(values, this.keys, this.times);
  }
}
