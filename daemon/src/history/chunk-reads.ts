import type { FileHandle } from 'node:fs/promises';
import type { DecodedChunk } from './chunk-decoder.js';
import type { ChunkDecoding } from './decoding-thread.js';
import { CHUNK_BYTES, sharedBuffer, type Chunk } from './transcript-file.js';

interface Ahead {
  chunk: Chunk;
  decoded: Promise<DecodedChunk>;
}

/** Read buffers in turn: the chunk being stored, the one being decoded, the one last stored. */
const BUFFERS = 3;

/**
 * A file's chunks from `start` to `size`, each with its decoded lines, one chunk ahead: while the
 * importer stores a chunk's lines, the next one is read and decoded (on the decoding thread). The
 * bytes of a chunk stay as read until two more chunks have been returned (the caller holds the
 * last one it stored for the cursor's tail hash).
 */
export class ChunkReads {
  private ahead: Ahead | null = null;
  private readonly buffers: Buffer[] = [];
  private reads = 0;

  constructor(
    private readonly handle: FileHandle,
    private first: Chunk | null,
    private readonly decoding: ChunkDecoding,
    private position: number,
    private readonly size: number,
    /** Whether the file is quiet (see `ChunkDecoder.finish`): told with its last chunk. */
    private readonly final: boolean,
  ) {}

  /**
   * The next chunk and its lines, null at the end. `readOn`: read the one after meanwhile (false
   * once the import stops: every chunk decoded is then returned before the end, so the parser never
   * stands past the lines stored).
   */
  async next(readOn: boolean): Promise<{ chunk: Chunk; decoded: DecodedChunk } | null> {
    this.ahead ??= readOn ? await this.readAhead() : null;
    const current = this.ahead;
    if (!current) return null;
    this.ahead = readOn ? await this.readAhead() : null;
    return { chunk: current.chunk, decoded: await current.decoded };
  }

  private async readAhead(): Promise<Ahead | null> {
    if (this.position >= this.size) return null;
    let bytes: Buffer;
    if (this.first?.position === this.position) bytes = this.first.bytes;
    else {
      const buffer = (this.buffers[this.reads % BUFFERS] ??= sharedBuffer(CHUNK_BYTES));
      this.reads++;
      const want = Math.min(CHUNK_BYTES, this.size - this.position);
      bytes = buffer.subarray(
        0,
        (await this.handle.read(buffer, 0, want, this.position)).bytesRead,
      );
    }
    this.first = null;
    if (bytes.length === 0) return null;
    const chunk = { position: this.position, bytes };
    this.position += bytes.length;
    const last = this.position >= this.size;
    const decoded = this.decoding.decode(
      bytes,
      chunk.position,
      last ? { final: this.final } : null,
    );
    // A chunk read ahead of a read that ends early (a conversation Relais launched) is not awaited.
    decoded.catch(() => undefined);
    return { chunk, decoded };
  }
}
