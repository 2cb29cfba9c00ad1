import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

/** See storage-bytes.ts: the bytes of each table and index, read on a connection of its own. */
const { file } = workerData as { file: string };
let rows: { name: string; bytes: number }[] = [];
try {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 1000');
    rows = db.prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name').all() as {
      name: string;
      bytes: number;
    }[];
  } finally {
    db.close();
  }
} catch {
  // Busy, locked or gone: the figures stay as they were until the next measure.
}
parentPort?.postMessage(rows);
