import { parentPort, workerData } from 'node:worker_threads';
import { openReader } from '../db/database.js';
import { RangeEncoder } from './export-range.js';
import type { EncodedRange, ExportWorkerData, ToExportWorker } from './export-workers.js';

/**
 * One of an export's encoders (export-workers.ts): ranges in, their bytes out, in the order asked.
 * It reads through its own connection, so SQLite's share of the work runs beside the others'.
 * Buffers come back once written to the socket and are written into again: freshly allocated,
 * each range's megabytes waited in the serving thread for a garbage collection (+130 MB RSS).
 */
const { file, filter, format } = workerData as ExportWorkerData;
const db = openReader(file);
const encoder = new RangeEncoder(db, filter, format);
const SPARES_KEPT = 4;
const spares: ArrayBuffer[] = [];

function allocate(size: number): Buffer {
  const fits = spares.findIndex((spare) => spare.byteLength >= size);
  if (fits === -1) return Buffer.allocUnsafeSlow(size);
  return Buffer.from(spares.splice(fits, 1)[0]!);
}

parentPort?.on('message', (message: ToExportWorker) => {
  if ('spare' in message) {
    if (spares.length < SPARES_KEPT) spares.push(message.spare);
    return;
  }
  let answer: EncodedRange;
  try {
    answer = { id: message.id, bytes: encoder.encode(message.range, allocate) };
  } catch (error: unknown) {
    answer = { id: message.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(answer, 'bytes' in answer ? [answer.bytes.buffer as ArrayBuffer] : []);
});
