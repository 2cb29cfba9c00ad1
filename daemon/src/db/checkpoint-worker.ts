import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

/** See checkpointer.ts: one PASSIVE checkpoint every `everyMs`, until told to stop. */
const { file, everyMs } = workerData as { file: string; everyMs: number };
const db = new Database(file, { fileMustExist: true });
db.pragma('busy_timeout = 50');
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or locked: the next tick tries again.
  }
}, everyMs);

parentPort?.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort?.close();
});
