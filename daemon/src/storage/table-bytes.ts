import { Worker } from 'node:worker_threads';
import type { Db } from '../db/database.js';
import { TABLE_BYTES_SQL, type TableBytes } from './table-bytes-sql.js';

export type { TableBytes } from './table-bytes-sql.js';

/**
 * The bytes of each table and index of `db`. Measuring walks every page of the file (dbstat),
 * which grows with the history (0.1 s at 280 MB, seconds at some GB): a worker thread does it on a
 * connection of its own, so the daemon answers others meanwhile (a hook waiting on a decision, a
 * message). A database in memory, which no other connection can open, is measured here. Rejects
 * when the worker could not read the file (busy, locked, gone).
 */
export function tableBytes(db: Db, stop?: AbortSignal): Promise<TableBytes[]> {
  if (db.memory) return Promise.resolve(db.prepare(TABLE_BYTES_SQL).all() as TableBytes[]);
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./table-bytes-worker.js', import.meta.url), {
      workerData: { file: db.name },
    });
    worker.unref();
    stop?.addEventListener('abort', () => void worker.terminate(), { once: true });
    worker.once('message', (answer: { rows: TableBytes[] } | { failed: string }) =>
      'rows' in answer ? resolve(answer.rows) : reject(new Error(answer.failed)),
    );
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the measuring thread left (${code})`)));
  });
}
