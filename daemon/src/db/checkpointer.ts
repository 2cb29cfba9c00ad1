import { Worker } from 'node:worker_threads';
import type { Db } from './database.js';

/**
 * The WAL pages the serving connection may pile up before it copies them itself: a safety net
 * should the worker fall behind or die (SQLite's default is 1,000).
 */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 16_384;

export interface Checkpointer {
  /** Ends the worker and closes its connection (before the serving connection closes). */
  stop(): Promise<void>;
}

/**
 * Copies the WAL into the database file from a worker thread with its own connection, so the
 * thread that serves requests and writes events never waits on a checkpoint (a quarter of a
 * large history import's time when it ran at each commit). PASSIVE checkpoints never block a
 * writer or a reader; SQLite restarts the WAL once a checkpoint has caught up.
 */
export function startCheckpointer(db: Db, file: string, everyMs = 100): Checkpointer {
  db.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
  const worker = new Worker(new URL('./checkpoint-worker.js', import.meta.url), {
    workerData: { file, everyMs },
  });
  // A worker that cannot start or dies leaves the serving connection's own (rarer) checkpoints.
  worker.on('error', () => undefined);
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.unref();
  return {
    async stop() {
      // Held until it has closed its connection: the serving one must close last (it then folds
      // the WAL into the file and removes it).
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
