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

/** Integers a JS number holds exactly: then SQLite's text of them is String()'s. */
const plainInteger = (column: string): string =>
  `(typeof(${column}) = 'integer' AND abs(${column}) <= 9007199254740991)`;
const plainText = (column: string): string => `typeof(${column}) IN ('text', 'null')`;

const TEXT_COLUMNS = [
  'session_id',
  'subscription_id',
  'agent',
  'model',
  'models',
  'app',
  'permission_mode',
  'error_kind',
  'error_message',
];
const INTEGER_COLUMNS = [
  'id',
  'duration_ms',
  'model_calls',
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_creation_tokens',
  'tool_call_count',
];

const PLAIN = [
  ...TEXT_COLUMNS.map(plainText),
  ...INTEGER_COLUMNS.map(plainInteger),
  `(reasoning_tokens IS NULL OR ${plainInteger('reasoning_tokens')})`,
].join(' AND ');

/** csvField in SQL: quoted when it holds a comma, a quote, CR or LF; NULL is empty. */
const csvText = (column: string): string =>
  `CASE WHEN ${column} IS NULL THEN '' WHEN instr(${column}, '"') OR instr(${column}, ',') ` +
  `OR instr(${column}, char(10)) OR instr(${column}, char(13)) ` +
  `THEN '"' || replace(${column}, '"', '""') || '"' ELSE ${column} END`;

const IS_ERROR = `CASE WHEN is_error = 1 THEN 'true' ELSE 'false' END`;
const TOKENS = [
  'duration_ms',
  'model_calls',
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_creation_tokens',
];

/** A line's SQL parts around what JS writes: head, start time, `between`, end time, middle, cost, tail. */
interface Layout {
  head: string[];
  between: string;
  middle: string[];
  tail: string[];
}

const sqlString = (text: string): string => `'${text.replaceAll("'", "''")}'`;

function csvLayout(): Layout {
  const comma = (s: string): string => `',' || ${s}`;
  return {
    head: ['id', ...TEXT_COLUMNS.slice(0, 7).map(csvText)].map((s) => `${s} || ','`),
    between: ',',
    middle: [...TOKENS.map(comma), `','`],
    tail: [
      ...[IS_ERROR, csvText('error_kind'), csvText('error_message'), 'tool_call_count'].map(comma),
      comma(`ifnull(reasoning_tokens, '')`),
      `char(13, 10)`,
    ],
  };
}

/** JSON.stringify's text of a TurnRow: keys in EXPORT_COLUMNS order, strings by json_quote. */
function jsonLayout(): Layout {
  const key = jsonKeys(EXPORT_COLUMNS).map(sqlString);
  const keyed = (values: string[], first: number): string[] =>
    values.map((value, i) => `${key[first + i]} || ${value}`);
  const quoted = (column: string): string => `json_quote(${column})`;
  return {
    head: [...keyed(['id', ...TEXT_COLUMNS.slice(0, 7).map(quoted)], 0), `${key[8]} || '"'`],
    between: `",${JSON.stringify(EXPORT_COLUMNS[9])}:"`,
    middle: [`'"'`, ...keyed(TOKENS, 10), key[16]!],
    tail: [
      ...keyed(
        [
          IS_ERROR,
          quoted('error_kind'),
          quoted('error_message'),
          'tool_call_count',
          `ifnull(reasoning_tokens, 'null')`,
        ],
        17,
      ),
      `'}'`,
    ],
  };
}

const LAYOUTS: Record<LineFormat, Layout> = { csv: csvLayout(), json: jsonLayout() };

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
