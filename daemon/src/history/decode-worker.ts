import { parentPort } from 'node:worker_threads';
import { ChunkDecoder } from './chunk-decoder.js';
import type { DecodeRequest } from './decoding-thread.js';

/**
 * The history import's decoding thread (see decoding-thread.ts): one ChunkDecoder per file read
 * under way, answering each chunk and finish in the order asked.
 */
const decoders = new Map<number, ChunkDecoder>();

parentPort?.on('message', (request: DecodeRequest) => {
  const { id, open, chunk, finish } = request;
  try {
    if (open) decoders.set(id, new ChunkDecoder(open.agent, open.state, open.start));
    const decoder = decoders.get(id);
    if (request.close || (!chunk && !finish)) return void decoders.delete(id);
    if (!decoder) throw new Error(`no file read ${id} under way`);
    if (finish) decoders.delete(id);
    const result = chunk
      ? decoder.decode(bufferOf(chunk.bytes), chunk.position, finish ?? null)
      : decoder.finish(finish!.final);
    parentPort?.postMessage({ result });
  } catch (error: unknown) {
    decoders.delete(id);
    parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});

/** The chunk as a Buffer over the memory the message brought (no copy). */
const bufferOf = (bytes: Uint8Array): Buffer =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
