import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import { constants } from 'node:zlib';

/** Below this an answer goes as is: a small body gains a few bytes and pays a compressor's latency. */
export const COMPRESS_MIN_BYTES = 2048;

/**
 * Compresses the JSON answers of the routes registered after it (brotli at a fast level, else gzip)
 * when the client allows it. The live NDJSON streams hijack their reply and so are never touched:
 * each line still leaves as soon as it is written. Compressed request bodies are not accepted.
 */
export async function installCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    globalDecompression: false,
    threshold: COMPRESS_MIN_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
}
