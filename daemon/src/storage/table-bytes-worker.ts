import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { TABLE_BYTES_SQL, type TableBytes } from './table-bytes-sql.js';

/** See table-bytes.ts: the bytes of each table and index, read on a connection of its own. */
const { file } = workerData as { file: string };
let answer: { rows: TableBytes[] } | { failed: string };
try {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 1000');
    answer = { rows: db.prepare(TABLE_BYTES_SQL).all() as TableBytes[] };
  } finally {
    db.close();
  }
} catch (error: unknown) {
  answer = { failed: error instanceof Error ? error.message : String(error) };
}
parentPort?.postMessage(answer);
