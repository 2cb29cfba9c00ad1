import type { LineFacts, ResponseUsage, TranscriptParser } from '../agents/transcript-reader.js';
import { parseState } from './file-identity.js';
import { LineSplitter } from './line-splitter.js';
import { transcriptReader } from './transcript-readers.js';

/** One line of a transcript as read: its text, where it starts, and what it says. */
export interface DecodedLine {
  text: string;
  /** Byte offset of the line's start in the file. */
  offset: number;
  /** Whether it is JSON (a line that is not is stored wrapped, and says nothing). */
  valid: boolean;
  facts: LineFacts;
}

/** Where the reader stands after some lines: what a cursor saved there needs. */
export interface ParserMark {
  /** The parser's state as JSON (`TranscriptParser.state`). */
  state: string;
  hasOpen: boolean;
}

export interface DecodedChunk extends ParserMark {
  lines: DecodedLine[];
  /** File offset after the last whole line. */
  consumed: number;
  /** Offset of a line longer than MAX_LINE_BYTES met in this chunk (skipped), or null. */
  tooLong: number | null;
  /** When the chunk was the file's last: `finish` after it, in the same answer. */
  finished?: Finished;
}

export interface Finished extends ParserMark {
  /** Responses still open at the end, when the read was final (the file is quiet). */
  responses: ResponseUsage[];
}

/**
 * One file's new bytes, chunk after chunk, into lines and what each says: the splitting, UTF-8
 * decoding, JSON parsing and the agent's parser, without any storage, so that it can run on a
 * thread of its own (decode-worker.ts) as well as in the importer's.
 */
export class ChunkDecoder {
  private readonly parser: TranscriptParser;
  private readonly splitter: LineSplitter;
  private tooLong: number | null = null;

  /** `state`: the parser's saved state (JSON) to continue from; `start`: the file offset read from. */
  constructor(agent: string, state: string | null, start: number) {
    const reader = transcriptReader(agent);
    if (!reader) throw new Error(`no transcript reader for ${agent}`);
    this.parser = reader.parser(parseState(state));
    this.splitter = new LineSplitter(start, (at) => {
      this.tooLong ??= at;
    });
  }

  /**
   * The lines ending in a chunk read at file offset `position` (the chunk may be reused after);
   * `finish`: the chunk is the file's last, finish after it (see `finish`).
   */
  decode(chunk: Buffer, position: number, finish: { final: boolean } | null = null): DecodedChunk {
    const lines: DecodedLine[] = [];
    this.tooLong = null;
    this.splitter.push(chunk, position, ({ bytes, offset }) => {
      const text = bytes.toString('utf8');
      if (text.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        lines.push({ text, offset, valid: false, facts: {} });
        return;
      }
      lines.push({ text, offset, valid: true, facts: this.parser.line(value) });
    });
    const decoded = {
      lines,
      consumed: this.splitter.consumed,
      tooLong: this.tooLong,
      ...this.mark(),
    };
    return finish ? { ...decoded, finished: this.finish(finish.final) } : decoded;
  }

  /** Where the parser stands; with the responses still open when `final` (they are complete). */
  finish(final: boolean): Finished {
    const responses = final ? this.parser.drain() : [];
    return { responses, ...this.mark() };
  }

  private mark(): ParserMark {
    return { state: JSON.stringify(this.parser.state()), hasOpen: this.parser.hasOpen() };
  }
}
