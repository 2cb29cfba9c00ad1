import { Worker } from 'node:worker_threads';
import { ChunkDecoder, type DecodedChunk, type Finished } from './chunk-decoder.js';

/** One file's decoding, wherever it runs: answers come in the order asked. */
export interface ChunkDecoding {
  /** `finish`: the chunk is the file's last; its answer carries the finish too (one round trip). */
  decode(chunk: Buffer, position: number, finish: { final: boolean } | null): Promise<DecodedChunk>;
  finish(final: boolean): Promise<Finished>;
  /** Frees the decoder (after its last answer, or when the read is given up). */
  close(): void;
}

/**
 * One message to the decoding thread: a read's first carries `open`, its last `finish` (then the
 * thread forgets it), or `close` when the read is given up before; one answer to each with `chunk`
 * or `finish`. Fewer messages: each costs about a tenth of a millisecond of the importer's thread.
 */
export interface DecodeRequest {
  id: number;
  open?: { agent: string; state: string | null; start: number };
  chunk?: { bytes: Uint8Array; position: number };
  finish?: { final: boolean };
  close?: true;
}

type Answer = { result: DecodedChunk | Finished } | { error: string };

/**
 * Decodes transcripts on a thread of its own, so that the importer's thread, which stores what is
 * read (SQLite), is not also splitting, decoding and parsing every line: on two cores the two run
 * side by side. Chunks are read into shared memory (see `sharedBuffer`), so posting one copies
 * nothing; a chunk's buffer is read into again only once its answer is in. The thread starts with
 * the first read and is held only while answers are awaited; should it fail, the reads under way
 * fail (the next scan reads them on from their cursors) and later ones decode in the importer's
 * thread.
 */
export class DecodingThread {
  private worker: Worker | null = null;
  private failed = false;
  private nextId = 1;
  /** Answers awaited, in the order asked (the worker answers in that order). */
  private readonly waiting: { resolve: (answer: Answer) => void; reject: (e: Error) => void }[] =
    [];

  /** `script`: the thread's program (a test gives one that fails). */
  constructor(private readonly script = new URL('./decode-worker.js', import.meta.url)) {}

  /** A decoder for one file read, continuing from the parser's saved `state` at offset `start`. */
  open(agent: string, state: string | null, start: number): ChunkDecoding {
    const worker = this.started();
    if (!worker) return inThread(new ChunkDecoder(agent, state, start));
    const id = this.nextId++;
    let open: DecodeRequest['open'] = { agent, state, start };
    let finished = false;
    const ask = <T>(request: Omit<DecodeRequest, 'id'>): Promise<T> => {
      finished ||= request.finish !== undefined;
      const asked = this.ask<T>({ id, open, ...request });
      open = undefined;
      return asked;
    };
    return {
      decode: (bytes, position, finish) =>
        ask<DecodedChunk>({ chunk: { bytes, position }, ...(finish ? { finish } : {}) }),
      finish: (final) => ask<Finished>({ finish: { final } }),
      close: () => {
        if (!open && !finished) this.worker?.postMessage({ id, close: true });
      },
    };
  }

  /** Ends the thread (at shutdown, once no read is under way). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.failed = true;
    if (worker) await worker.terminate();
  }

  private started(): Worker | null {
    if (this.worker || this.failed) return this.worker;
    try {
      const worker = new Worker(this.script);
      worker.unref();
      worker.on('message', (answer: Answer) => this.answered(answer));
      worker.on('error', (error) => this.fail(error));
      worker.on('exit', () => this.fail(new Error('the decoding thread ended')));
      this.worker = worker;
    } catch {
      this.failed = true;
    }
    return this.worker;
  }

  private async ask<T>(request: DecodeRequest): Promise<T> {
    const worker = this.worker;
    if (!worker) throw new Error('the decoding thread ended');
    const answer = new Promise<Answer>((resolve, reject) => this.waiting.push({ resolve, reject }));
    if (this.waiting.length === 1) worker.ref();
    worker.postMessage(request);
    const settled = await answer;
    if ('error' in settled) throw new Error(settled.error);
    return settled.result as T;
  }

  private answered(answer: Answer): void {
    this.waiting.shift()?.resolve(answer);
    if (this.waiting.length === 0) this.worker?.unref();
  }

  /** Reads under way fail (each is read on by the next scan); later ones decode in this thread. */
  private fail(error: Error): void {
    this.worker = null;
    this.failed = true;
    for (const { reject } of this.waiting.splice(0)) reject(error);
  }
}

function inThread(decoder: ChunkDecoder): ChunkDecoding {
  return {
    decode: async (chunk, position, finish) => decoder.decode(chunk, position, finish),
    finish: async (final) => decoder.finish(final),
    close: () => undefined,
  };
}
