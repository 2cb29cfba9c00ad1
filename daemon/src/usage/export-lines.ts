/**
 * Export lines built straight from raw rows (arrays in TURN_COLUMNS order), without a row object:
 * the same text as csvRecord / JSON.stringify over toTurnRow (export-lines.test checks it byte for byte).
 */

/** The export's columns: TurnRow's keys, in the order of TURN_COLUMNS. */
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

/** Columns 8 and 9 are times in ms (ISO text in the export), 17 the error flag. */
const STARTED_AT = 8;
const ENDED_AT = 9;
const IS_ERROR = 17;

const DAY_MS = 86_400_000;
/** Years 0000–9999: where toISOString's date part is 'YYYY-MM-DDT'. */
const PLAIN_YEARS_END_MS = 253_402_300_800_000;

const pad2 = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
const pad3 = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/**
 * toISOString's text, about 8 times faster in an export: consecutive turns mostly share their day,
 * so the date part is kept and only the time of day is formatted.
 */
export class IsoTimes {
  private day = Number.NaN;
  private datePart = '';

  format(ms: number): string {
    if (!(ms >= 0 && ms < PLAIN_YEARS_END_MS) || !Number.isInteger(ms))
      return new Date(ms).toISOString();
    const day = Math.floor(ms / DAY_MS);
    if (day !== this.day) {
      this.day = day;
      this.datePart = new Date(day * DAY_MS).toISOString().slice(0, 11);
    }
    let rest = ms - day * DAY_MS;
    const hours = Math.floor(rest / 3_600_000);
    rest -= hours * 3_600_000;
    const minutes = Math.floor(rest / 60_000);
    rest -= minutes * 60_000;
    const seconds = Math.floor(rest / 1000);
    return `${this.datePart}${pad2(hours)}:${pad2(minutes)}:${pad2(seconds)}.${pad3(rest - seconds * 1000)}Z`;
  }
}

/**
 * A text cell a spreadsheet would run as a formula: one starting with = + - @ (or their full-width
 * forms), a tab or a carriage return. Such a cell is written as text: a single quote before it,
 * the whole quoted (what spreadsheet-safe exporters do). Numbers are never text cells here: a
 * negative number stays a number.
 */
export const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** Control characters written as U+FFFD: all of C0 but tab, LF and CR (which a quoted cell holds), DEL, C1. */
export const CSV_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

/**
 * One RFC 4180 field: quoted when it holds a comma, a quote, CR or LF; quotes doubled. A text that
 * could run as a formula is neutralised (FORMULA_START); control characters never pass raw.
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  const text = value.replace(CSV_CONTROL, '\uFFFD');
  if (FORMULA_START.test(text)) return `"'${text.replaceAll('"', '""')}"`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** An ISO time as a CSV field: years past 9999 (and before 0) start with + or −, a text to neutralise. */
export function csvTime(iso: string): string {
  const first = iso.charCodeAt(0);
  return first >= 48 && first <= 57 ? iso : csvField(iso);
}

export function csvRecord(values: readonly unknown[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

export function csvLine(values: readonly unknown[], times: IsoTimes): string {
  let line = '';
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (i > 0) line += ',';
    if (i === STARTED_AT || i === ENDED_AT) line += csvTime(times.format(value as number));
    else if (i === IS_ERROR) line += value === 1 ? 'true' : 'false';
    else if (typeof value === 'number') line += String(value);
    else if (typeof value === 'string') line += csvField(value);
  }
  return `${line}\r\n`;
}

/** `{"name":` for each column, in the order of the export (and of TurnRow's keys). */
export function jsonKeys(columns: readonly string[]): string[] {
  return columns.map((name, i) => `${i === 0 ? '{' : ','}${JSON.stringify(name)}:`);
}

/** JSON.stringify(toTurnRow(row)), without the row object. */
export function jsonLine(
  values: readonly unknown[],
  keys: readonly string[],
  times: IsoTimes,
): string {
  let line = '';
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    line += keys[i];
    if (i === STARTED_AT || i === ENDED_AT) line += `"${times.format(value as number)}"`;
    else if (i === IS_ERROR) line += value === 1 ? 'true' : 'false';
    else if (typeof value === 'number') line += Number.isFinite(value) ? String(value) : 'null';
    else if (value === null || value === undefined) line += 'null';
    else line += JSON.stringify(value);
  }
  return `${line}}`;
}
