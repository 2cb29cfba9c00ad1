import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import type { EventStore } from '../events/event-store.js';
import type { StoredSubscription } from '../subscriptions/subscription-repo.js';
import type { TurnWriter } from '../usage/turn-writer.js';
import type { FileCursor, FileCursors } from './file-cursors.js';
import { messageOf, parseState, resetReason, unchanged } from './file-identity.js';
import type { FileOutcome } from './import-run.js';
import { noFacts, type ConversationFacts, type ImportedSessions } from './imported-sessions.js';
import { LineSplitter, MAX_LINE_BYTES, type SplitLine } from './line-splitter.js';
import { responseTurn } from './response-turn.js';
import type { TranscriptParser, TranscriptReader } from '../agents/transcript-reader.js';
import { transcriptReader } from './transcript-readers.js';
import {
  CHUNK_BYTES,
  TAIL_BYTES,
  tailHash,
  tailHashOf,
  type Chunk,
  type OpenedTranscript,
} from './transcript-file.js';

export const nothing = (): FileOutcome => ({
  bytes: 0,
  lines: 0,
  malformed: 0,
  sessionCreated: false,
  read: false,
  error: null,
});

/** One file being read: where its lines go and what they taught. */
interface FileRead {
  subscription: StoredSubscription;
  reader: TranscriptReader;
  parser: TranscriptParser;
  path: string;
  mtimeMs: number;
  conversation: string | null;
  sessionId: string | null;
  native: boolean;
  facts: ConversationFacts;
  outcome: FileOutcome;
  info: Stats;
  /** Lines and malformed lines before this read. */
  before: { lines: number; malformed: number };
  /**
   * Where the read stands after its last whole chunk, as a cursor (its size the offset, so a scan
   * reads on): stored with the events of the lines before it, so a daemon killed in the middle of
   * a file reads on from there instead of storing those lines again.
   */
  resume: FileCursor | null;
}

export interface TranscriptReadDeps {
  cursors: FileCursors;
  sessions: ImportedSessions;
  events: EventStore;
  turns: TurnWriter;
  /** An imported session that changed. */
  onSession: (sessionId: string) => void;
  /** Stores the cursors saved (once what was read before them is stored). */
  commitCursors: () => void;
  /** The import is stopping: a read ends at its next chunk. */
  stopped: () => boolean;
  /** A chunk of this many bytes was read and its lines stored. */
  onChunk: (bytes: number) => void;
}

/**
 * Reads what is new in one transcript into its imported session: from its cursor's offset (or from
 * the start after a `transcript_reset` event), line by line, each stored verbatim (or wrapped as
 * `import_malformed`), its responses handed to the turn writer, then the cursor saved.
 */
export class TranscriptRead {
  /** The files being read, for `saveUnderway`. */
  private readonly underway = new Set<FileRead>();

  constructor(private readonly deps: TranscriptReadDeps) {}

  /**
   * Saves where each file being read stands, and what its lines so far taught its session: their
   * events are being stored (see `resume`).
   */
  saveUnderway(): void {
    for (const file of this.underway) {
      if (!file.resume) continue;
      this.deps.sessions.learn(file.resume.session_id!, file.facts);
      this.deps.cursors.save(file.resume);
    }
  }

  /**
   * `final`: the file is quiet, so a response still open at its end is complete (the watcher reads
   * without it while a conversation is being written).
   */
  async read(
    subscription: StoredSubscription,
    path: string,
    final: boolean,
    opening: Promise<OpenedTranscript>,
  ): Promise<FileOutcome> {
    const reader = transcriptReader(subscription.agent);
    const opened = await opening;
    if ('error' in opened) return { ...nothing(), error: messageOf(opened.error) };
    try {
      if (!reader) return nothing();
      return await this.readOpen(subscription, reader, path, opened, final);
    } catch (error: unknown) {
      return { ...nothing(), error: messageOf(error) };
    } finally {
      // Not awaited: nothing depends on it, and the next file is waiting.
      void opened.handle.close().catch(() => undefined);
    }
  }

  private async readOpen(
    subscription: StoredSubscription,
    reader: TranscriptReader,
    path: string,
    opened: { handle: FileHandle; info: Stats; first: Chunk | null },
    final: boolean,
  ): Promise<FileOutcome> {
    const { handle, info } = opened;
    const cursor = this.deps.cursors.get(path);
    if (cursor && unchanged(cursor, info) && (cursor.open_response === 0 || !final))
      return nothing();
    const reset = cursor ? await resetReason(cursor, info, handle) : null;
    const start = cursor && !reset ? cursor.offset : 0;
    const file = this.fileRead(subscription, reader, path, info, cursor, reset !== null);
    if (file.conversation && !file.native)
      file.native = this.deps.sessions.isNative(subscription.id, file.conversation);
    // A conversation not seen before, while one of Relais' own sessions of this subscription is
    // starting (its agent's id not known yet): it may be that session's transcript. Read it later.
    if (!file.native && !file.sessionId && this.deps.sessions.isStarting(subscription.id))
      return nothing();
    this.underway.add(file);
    try {
      let offset = start;
      // The last chunk parsed: the bytes the cursor's tail hash is taken from, most often.
      let held: Chunk | null = null;
      let { lines, malformed } = file.before;
      if (!file.native) {
        if (reset && file.sessionId)
          this.deps.events.appendJson(file.sessionId, 'relais', {
            type: 'relais',
            subtype: 'transcript_reset',
            reason: reset,
            path,
          });
        // A kill after that event must not tell the reset again: the read stands at the start.
        if (reset) this.keepResume(file, 0, Buffer.alloc(0));
        const read = await this.readLines(file, opened, start, info.size);
        held = read.held;
        offset = file.native ? info.size : read.consumed;
        if (final) for (const response of file.parser.drain()) this.count(file, response, offset);
        lines += file.outcome.lines;
        malformed += file.outcome.malformed;
        if (file.sessionId) {
          this.deps.sessions.learn(file.sessionId, file.facts);
          if (file.outcome.lines || file.outcome.sessionCreated)
            this.deps.onSession(file.sessionId);
        }
        file.outcome.bytes = offset - start;
      } else offset = info.size;
      await this.saveCursor(file, opened, { offset, held, lines, malformed });
    } finally {
      this.underway.delete(file);
    }
    return file.outcome;
  }

  /**
   * What one read of a transcript carries: its session as the cursor knew it, and the reader's
   * state and counts from where the cursor left them, unless the file was reset (read anew).
   */
  private fileRead(
    subscription: StoredSubscription,
    reader: TranscriptReader,
    path: string,
    info: Stats,
    cursor: FileCursor | null,
    reset: boolean,
  ): FileRead {
    const kept = cursor && !reset ? cursor : null;
    return {
      subscription,
      reader,
      parser: reader.parser(kept ? parseState(kept.reader_state) : null),
      path,
      mtimeMs: info.mtimeMs,
      conversation: reader.conversationOf(path),
      sessionId: cursor?.session_id ?? null,
      native: cursor?.native === 1,
      facts: noFacts(),
      outcome: { ...nothing(), read: true },
      info,
      before: {
        lines: kept ? kept.lines : 0,
        malformed: kept ? kept.malformed : 0,
      },
      resume: null,
    };
  }

  /** Where the file was read to, and what its reader holds of a response still open there. */
  private async saveCursor(
    file: FileRead,
    opened: { handle: FileHandle; info: Stats },
    read: { offset: number; held: Chunk | null; lines: number; malformed: number },
  ): Promise<void> {
    const { handle, info } = opened;
    const { path, subscription } = file;
    const { offset, held, lines, malformed } = read;
    this.deps.cursors.save({
      path,
      subscription_id: subscription.id,
      session_id: file.sessionId,
      native: file.native ? 1 : 0,
      dev: info.dev,
      ino: info.ino,
      size: info.size,
      mtime_ms: info.mtimeMs,
      offset,
      tail_hash: await tailHash(handle, offset, held),
      lines,
      malformed,
      reader_state: file.native ? null : JSON.stringify(file.parser.state()),
      open_response: !file.native && file.parser.hasOpen() ? 1 : 0,
      error: file.outcome.error,
      read_at_ms: Date.now(),
    });
    // With turns waiting, the cursor is stored after them (the writer's next batch).
    if (!this.deps.turns.hasPending()) this.deps.commitCursors();
  }

  /** Splits the file's new bytes into lines from `start`, each stored by `line`. */
  private async readLines(
    file: FileRead,
    opened: { handle: FileHandle; first: Chunk | null },
    start: number,
    size: number,
  ): Promise<{ consumed: number; held: Chunk | null }> {
    const { handle } = opened;
    // The last chunk parsed: the bytes the cursor's tail hash is taken from, most often.
    let held: Chunk | null = null;
    const splitter = new LineSplitter(start, (at) => {
      file.outcome.error = `line at byte ${at} is longer than ${MAX_LINE_BYTES} bytes: skipped`;
    });
    let buffer: Buffer | null = null;
    let position = start;
    // The last bytes before `position` (a copy: the read buffer is reused), for `resume`'s hash.
    let recent = Buffer.alloc(0);
    while (position < size && !file.native && !this.deps.stopped()) {
      let chunk: Buffer;
      if (opened.first?.position === position) chunk = opened.first.bytes;
      else {
        buffer ??= Buffer.allocUnsafe(CHUNK_BYTES);
        const want = Math.min(CHUNK_BYTES, size - position);
        chunk = buffer.subarray(0, (await handle.read(buffer, 0, want, position)).bytesRead);
      }
      opened.first = null;
      if (chunk.length === 0) break;
      const consumedBefore = splitter.consumed;
      splitter.push(chunk, position, (line) => this.line(file, line));
      if (splitter.consumed > consumedBefore) {
        const upTo = chunk.subarray(0, splitter.consumed - position).subarray(-TAIL_BYTES);
        const tail = upTo.length === TAIL_BYTES ? upTo : Buffer.concat([recent, upTo]);
        this.keepResume(file, splitter.consumed, tail);
      }
      this.deps.onChunk(chunk.length);
      held = { position, bytes: chunk };
      recent = Buffer.from(
        Buffer.concat([recent, chunk.subarray(-TAIL_BYTES)]).subarray(-TAIL_BYTES),
      );
      position += chunk.length;
    }
    return { consumed: splitter.consumed, held };
  }

  /** Takes `resume` at `offset`: `tail` ends with the bytes just before it. */
  private keepResume(file: FileRead, offset: number, tail: Buffer): void {
    if (file.native || !file.sessionId) return;
    const { info } = file;
    file.resume = {
      path: file.path,
      subscription_id: file.subscription.id,
      session_id: file.sessionId,
      native: 0,
      dev: info.dev,
      ino: info.ino,
      size: offset,
      mtime_ms: info.mtimeMs,
      offset,
      tail_hash: tailHashOf(tail),
      lines: file.before.lines + file.outcome.lines,
      malformed: file.before.malformed + file.outcome.malformed,
      reader_state: JSON.stringify(file.parser.state()),
      open_response: file.parser.hasOpen() ? 1 : 0,
      error: file.outcome.error,
      read_at_ms: Date.now(),
    };
  }

  private line(file: FileRead, line: SplitLine): void {
    if (file.native) return;
    const text = line.bytes.toString('utf8');
    if (text.trim() === '') return;
    let value: unknown;
    let valid = true;
    try {
      value = JSON.parse(text);
    } catch {
      valid = false;
    }
    const facts = valid ? file.parser.line(value) : {};
    if (!file.sessionId && !this.attach(file, facts.conversationId, facts.atMs)) return;
    const sessionId = file.sessionId!;
    const data = valid
      ? text
      : JSON.stringify({
          type: 'relais',
          subtype: 'import_malformed',
          path: file.path,
          offset: line.offset,
          text,
        });
    this.deps.events.append(sessionId, 'agent', data, facts.atMs ?? Math.floor(file.mtimeMs));
    file.outcome.lines++;
    if (!valid) file.outcome.malformed++;
    const known = file.facts;
    if (facts.atMs !== undefined) {
      known.firstAtMs = Math.min(known.firstAtMs ?? facts.atMs, facts.atMs);
      known.lastAtMs = Math.max(known.lastAtMs ?? facts.atMs, facts.atMs);
    }
    known.cwd ??= facts.cwd ?? null;
    known.model ??= facts.model ?? null;
    known.prompt ??= facts.prompt ?? null;
    if (facts.title) known.title = facts.title;
    for (const response of facts.responses ?? []) this.count(file, response, line.offset);
  }

  /**
   * Finds or creates the session of a file's conversation on its first line. False when Relais
   * launched that conversation itself: then nothing of the file is imported.
   */
  private attach(file: FileRead, fromLine: string | undefined, atMs: number | undefined): boolean {
    if (!file.conversation) {
      file.conversation = fromLine ?? basename(file.path, '.jsonl');
      if (this.deps.sessions.isNative(file.subscription.id, file.conversation)) {
        file.native = true;
        return false;
      }
    }
    const existing = this.deps.sessions.find(file.subscription.id, file.conversation);
    if (existing) file.sessionId = existing;
    else {
      file.sessionId = this.deps.sessions.create(
        file.subscription.id,
        file.subscription.agent,
        file.conversation,
        atMs ?? file.mtimeMs,
      );
      file.outcome.sessionCreated = true;
    }
    return true;
  }

  private count(
    file: FileRead,
    response: Parameters<typeof responseTurn>[0]['response'],
    lineOffset: number,
  ): void {
    if (!file.sessionId) return;
    const turn = responseTurn({
      response,
      sessionId: file.sessionId,
      subscriptionId: file.subscription.id,
      agent: file.subscription.agent,
      fallbackKey: `${file.path}:${lineOffset}`,
    });
    // A response already stored (seen in another file, or read again) is skipped by the writer.
    this.deps.turns.add(turn);
  }
}
