import { Worker } from 'node:worker_threads';
import type { AnalyticsFilter } from '../../../contract/usage.js';
import type { ExportFormat, ExportRange } from './export-range.js';

export interface ExportWorkerData {
  file: string;
  filter: AnalyticsFilter;
  format: ExportFormat;
}

export interface RangeRequest {
  id: number;
  range: ExportRange;
}

/** A range to encode, or a buffer written out that the thread may write into again. */
export type ToExportWorker = RangeRequest | { spare: ArrayBuffer };

export interface Encoded {
  bytes: Uint8Array;
  /** Gives the buffer back to its thread: call once the socket is done with `bytes`. */
  release(): void;
}

export type EncodedRange = { id: number; bytes: Uint8Array } | { id: number; error: string };

/** 4 MB against V8's default 16: peak RSS of a 1,000,000-turn export ~40 MB lower, no slower. */
const YOUNG_GENERATION_MB = 4;

interface Waiting {
  resolve: (encoded: Encoded) => void;
  reject: (error: Error) => void;
}

/** How an export's ranges become bytes: threads of their own, or the serving thread. */
export interface RangeEncoding {
  encode(range: ExportRange): Promise<Encoded>;
  /** Ranges asked for ahead of the one being written. */
  readonly depth: number;
  close(): Promise<void>;
}

/**
 * The export threads every export running at once may hold together: a later export gets what
 * is left, and with none left encodes in the serving thread, so that ten exports at once do not
 * start ten pairs of threads (each ~40 MB).
 */
export class ThreadBudget {
  private used = 0;

  constructor(readonly total: number) {}

  get inUse(): number {
    return this.used;
  }

  /** Up to `wanted` threads, maybe none: give them back once done. */
  take(wanted: number): number {
    const granted = Math.max(0, Math.min(wanted, this.total - this.used));
    this.used += granted;
    return granted;
  }

  give(count: number): void {
    this.used -= count;
  }
}

/**
 * The threads that encode an export's ranges (export-worker.ts), each with its own read-only
 * connection: SQLite writing the lines is most of an export's time, and on one thread it was
 * the whole limit. Ranges are handed out in turn; each thread answers its own in order.
 */
export class ExportWorkers implements RangeEncoding {
  readonly depth: number;
  private readonly workers: Worker[];
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 0;
  private failure: Error | null = null;
  private closing = false;

  constructor(count: number, data: ExportWorkerData) {
    this.workers = Array.from({ length: count }, () => this.start(data));
    this.depth = count * 2;
  }

  /** The range's bytes; rejects when its thread fails (the export is then cut short). */
  encode(range: ExportRange): Promise<Encoded> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    const worker = this.workers[id % this.workers.length]!;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, range } satisfies ToExportWorker);
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }

  private start(data: ExportWorkerData): Worker {
    const worker = new Worker(new URL('./export-worker.js', import.meta.url), {
      workerData: data,
      // A range's lines die young: a small nursery is collected often and keeps RSS low.
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    worker.on('message', (answer: EncodedRange) => {
      const waiting = this.waiting.get(answer.id);
      this.waiting.delete(answer.id);
      if ('error' in answer) this.fail(new Error(`an export thread failed: ${answer.error}`));
      else waiting?.resolve({ ...answer, release: () => this.giveBack(worker, answer.bytes) });
    });
    worker.on('error', (error: unknown) => this.fail(threadError(error)));
    worker.on('exit', (code) => {
      if (!this.closing) this.fail(new Error(`an export thread stopped (exit code ${code})`));
    });
    return worker;
  }

  private giveBack(worker: Worker, bytes: Uint8Array): void {
    if (this.closing || this.failure) return;
    const spare = bytes.buffer as ArrayBuffer;
    worker.postMessage({ spare } satisfies ToExportWorker, [spare]);
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiting of this.waiting.values()) waiting.reject(this.failure);
    this.waiting.clear();
  }
}

/** What a thread threw reaches here cloned, not always as an Error (SQLite's errors do not). */
function threadError(thrown: unknown): Error {
  const { code, message } = (thrown ?? {}) as { code?: unknown; message?: unknown };
  const parts = [code, message].filter((part) => typeof part === 'string' && part !== '');
  return new Error(`an export thread failed: ${parts.join(' ') || String(thrown)}`);
}
