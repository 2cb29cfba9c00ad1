/** Longest line kept; a longer one is skipped (and reported) rather than held in memory. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

export interface SplitLine {
  bytes: Buffer;
  /** Byte offset of the line's start in the file. */
  offset: number;
}

/**
 * Cuts chunks of a file into whole lines. A line split across chunks is kept in pieces (joined
 * once, when its newline arrives); what follows the last newline is not a line yet: `consumed`
 * stops before it, so the next read starts there.
 */
export class LineSplitter {
  private pieces: Buffer[] = [];
  private carried = 0;
  private skipping = false;
  /** File offset after the last newline seen. */
  consumed: number;

  constructor(
    start: number,
    private readonly onTooLong: (offset: number) => void,
  ) {
    this.consumed = start;
  }

  /** Splits a chunk read at `chunkOffset`; the chunk's memory may be reused once this returns. */
  push(chunk: Buffer, chunkOffset: number, onLine: (line: SplitLine) => void): void {
    let from = 0;
    for (;;) {
      const newline = chunk.indexOf(10, from);
      if (newline < 0) break;
      const lineStart = this.consumed;
      if (this.skipping) this.skipping = false;
      else {
        const tail = chunk.subarray(from, newline);
        const bytes = this.carried ? Buffer.concat([...this.pieces, tail]) : tail;
        onLine({ bytes, offset: lineStart });
      }
      this.pieces = [];
      this.carried = 0;
      from = newline + 1;
      this.consumed = chunkOffset + from;
    }
    if (from >= chunk.length || this.skipping) return;
    this.carried += chunk.length - from;
    if (this.carried > MAX_LINE_BYTES) {
      this.onTooLong(this.consumed);
      this.skipping = true;
      this.pieces = [];
      this.carried = 0;
      return;
    }
    this.pieces.push(Buffer.from(chunk.subarray(from)));
  }
}
