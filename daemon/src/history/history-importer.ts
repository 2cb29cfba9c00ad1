// Over 400 lines (about 490): one transcript read's steps (open, split, line, attach, count,
// cursor) share its FileRead state and the importer's writers; the scan's report, the file identity
// checks and the line splitting live in their own files.
import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { basename, sep } from 'node:path';
import type { ImportProgress, ImportReport } from '../../../contract/api.js';
import type { Db } from '../db/database.js';
import type { EventStore } from '../events/event-store.js';
import { fenceInside, RefusedPath, type Bounds, type Fence } from '../fs/fence.js';
import { TRANSCRIPT_WALK, walkInside, type FoundFile } from '../fs/untrusted-tree.js';
import type { StoredSubscription } from '../subscriptions/subscription-repo.js';
import type { TurnRecord } from '../agents/turn-record.js';
import { TurnWriter } from '../usage/turn-writer.js';
import { FileCursors } from './file-cursors.js';
import { messageOf, parseState, resetReason, unchanged } from './file-identity.js';
import { ImportRun, type FileOutcome } from './import-run.js';
import { ImportedSessions, noFacts, type ConversationFacts } from './imported-sessions.js';
import { LineSplitter, MAX_LINE_BYTES, type SplitLine } from './line-splitter.js';
import { responseTurn } from './response-turn.js';
import type { TranscriptParser, TranscriptReader } from '../agents/transcript-reader.js';
import { transcriptReader } from './transcript-readers.js';
import {
  CHUNK_BYTES,
  discard,
  openTranscript,
  tailHash,
  type Chunk,
  type OpenedTranscript,
} from './transcript-file.js';

/** Imported turns are written in batches of this many, or after this delay (a watched file's). */
const TURN_BATCH = 4096;
const TURN_BATCH_DELAY_MS = 100;

export interface HistoryImporterDeps {
  db: Db;
  events: EventStore;
  /** A new imported session, or one that changed: for the global stream. */
  onSession: (sessionId: string) => void;
  onProgress: (progress: ImportProgress) => void;
  /** What no transcript may lead to (Relais' data folder, the zero-access circles). */
  bounds: Bounds;
}

/** A transcript found by a scan, and the fence it is opened within. */
interface Found extends FoundFile {
  fence: Fence;
}

export type { FileOutcome };

const nothing = (): FileOutcome => ({
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
}

/**
 * Reads a subscription's transcripts into imported sessions, incrementally: each file is known by
 * its identity and the offset after its last whole line, so an unchanged file is not opened, a
 * grown one is read from where it stopped, and a truncated, replaced or rewritten one is read
 * again (after a `transcript_reset` event; the session's seq never goes back). Lines are stored
 * verbatim; model responses are counted once each into the analytics.
 */
export class HistoryImporter {
  private readonly cursors: FileCursors;
  private readonly sessions: ImportedSessions;
  private readonly turns: TurnWriter;
  /** Turns written (new ones only) by subscription, since the daemon started: runs count by difference. */
  private readonly written = new Map<string, number>();
  /** Values brought within the turn bounds, by subscription, since the daemon started (same counting). */
  private readonly clamped = new Map<string, number>();
  /** Imported sessions whose turn count changed in the batch just written. */
  private readonly counted = new Set<string>();
  private readonly locks = new Map<string, Promise<unknown>>();
  private stopped = false;

  constructor(private readonly deps: HistoryImporterDeps) {
    this.cursors = new FileCursors(deps.db);
    this.sessions = new ImportedSessions(deps.db);
    this.turns = new TurnWriter(deps.db, {
      delayMs: TURN_BATCH_DELAY_MS,
      maxBatch: TURN_BATCH,
      onInserted: (turns) => this.countWritten(turns),
      onClamped: (turn, count) =>
        this.clamped.set(
          turn.subscription_id,
          (this.clamped.get(turn.subscription_id) ?? 0) + count,
        ),
      afterWrite: () => this.afterTurnsWritten(),
    });
  }

  /**
   * The transcript files of a subscription (none when its agent has no reader or no folder),
   * walked without following a link out of its transcript folders.
   */
  async files(
    subscription: StoredSubscription,
  ): Promise<{ found: Found[]; errors: ImportReport['errors'] }> {
    const reader = transcriptReader(subscription.agent);
    const found: Found[] = [];
    const errors: ImportReport['errors'] = [];
    for (const root of reader?.roots(subscription.config_dir) ?? []) {
      let fence: Fence;
      try {
        fence = await fenceInside(subscription.config_dir, root, this.deps.bounds);
      } catch (error: unknown) {
        errors.push({ path: root, error: messageOf(error) });
        continue;
      }
      const walk = await walkInside(fence, root, (path) => reader!.accepts(path), TRANSCRIPT_WALK);
      for (const file of walk.files) found.push({ ...file, fence });
      errors.push(...walk.refused);
    }
    // Each root's files come sorted by path: reading in that order keeps which copy of a repeated
    // response counts the same from one scan to the next.
    return { found, errors };
  }

  /** Rescans a subscription: reads what is new in each of its transcripts. */
  async importSubscription(subscription: StoredSubscription): Promise<ImportReport> {
    // Turns read before this run (by the watcher) are written now, so they are not counted in it.
    this.turns.flush();
    const writtenBefore = this.written.get(subscription.id) ?? 0;
    const clampedBefore = this.clamped.get(subscription.id) ?? 0;
    const { found, errors } = await this.files(subscription);
    const known = this.cursors.identities(subscription.id);
    const todo: { path: string; bytes: number; fence: Fence }[] = [];
    for (const { path, info, fence } of found) {
      const cursor = known.get(path);
      if (cursor && unchanged(cursor, info) && cursor.open_response === 0) continue;
      todo.push({ path, fence, bytes: Math.max(0, info.size - (cursor?.offset ?? 0)) });
    }
    const run = new ImportRun(subscription.id, found.length, todo, errors, this.deps.onProgress);
    const opening = (i: number): Promise<OpenedTranscript> | null =>
      i < todo.length
        ? openTranscript(todo[i]!.fence, todo[i]!.path, this.offsetOf(todo[i]!.path))
        : null;
    let next = opening(0);
    for (let i = 0; i < todo.length; i++) {
      const file = todo[i]!;
      const opened = next;
      if (this.stopped) {
        discard(opened);
        break;
      }
      next = opening(i + 1);
      const outcome = await this.importFile(subscription, file.path, true, opened);
      run.read(file.path, outcome, this.writtenSince(subscription.id, writtenBefore));
    }
    this.turns.flush();
    return run.done(
      this.writtenSince(subscription.id, writtenBefore),
      (this.clamped.get(subscription.id) ?? 0) - clampedBefore,
    );
  }

  /**
   * Reads what is new in one file. `final`: the file is quiet, so a response still open at its
   * end is complete (the watcher reads without it while a conversation is being written).
   */
  importFile(
    subscription: StoredSubscription,
    path: string,
    final: boolean,
    opened: Promise<OpenedTranscript> | null = null,
  ): Promise<FileOutcome> {
    const previous = this.locks.get(path) ?? Promise.resolve();
    const run = previous.then(() =>
      this.readFile(
        subscription,
        path,
        final,
        opened ??
          this.fenceOf(subscription, path).then(
            (fence) => openTranscript(fence, path, this.offsetOf(path)),
            (error: unknown) => ({ error }),
          ),
      ),
    );
    const settled = run.catch(() => undefined);
    this.locks.set(path, settled);
    void settled.then(() => {
      if (this.locks.get(path) === settled) this.locks.delete(path);
    });
    return run;
  }

  /** Writes the turns still buffered (before reading the analytics, or at shutdown). */
  flush(): void {
    this.turns.flush();
    this.commitCursors();
  }

  /** Whether a transcript has been read (or is being read) before. */
  isKnown(path: string): boolean {
    return this.cursors.get(path) !== null;
  }

  private countWritten(turns: readonly TurnRecord[]): void {
    const bySession = new Map<string, number>();
    for (const turn of turns) {
      bySession.set(turn.session_id, (bySession.get(turn.session_id) ?? 0) + 1);
      this.written.set(turn.subscription_id, (this.written.get(turn.subscription_id) ?? 0) + 1);
    }
    for (const [sessionId, count] of bySession) {
      this.sessions.addTurns(sessionId, count);
      this.counted.add(sessionId);
    }
  }

  private afterTurnsWritten(): void {
    this.commitCursors();
    const sessions = [...this.counted];
    this.counted.clear();
    for (const sessionId of sessions) this.deps.onSession(sessionId);
  }

  private writtenSince(subscriptionId: string, before: number): number {
    return (this.written.get(subscriptionId) ?? 0) - before;
  }

  /** Stores the cursors once what was read before them is stored: events, then turns. */
  private commitCursors(): void {
    this.deps.events.flush();
    this.cursors.commit();
  }

  /** Ends the reads under way at their next chunk (shutdown); what was read is kept. */
  stop(): void {
    this.stopped = true;
  }

  /** Resolves once every file read under way has finished. */
  async idle(): Promise<void> {
    while (this.locks.size) await Promise.all([...this.locks.values()]);
  }

  /** The fence of the transcript folder holding a path (one the watcher heard of). */
  private async fenceOf(subscription: StoredSubscription, path: string): Promise<Fence> {
    const roots = transcriptReader(subscription.agent)?.roots(subscription.config_dir) ?? [];
    const root = roots.find((r) => path.startsWith(r + sep));
    if (!root) throw new RefusedPath(path, 'not in a transcript folder');
    return fenceInside(subscription.config_dir, root, this.deps.bounds);
  }

  /** Where the next read of a file starts, as far as its cursor says (a reset starts at 0). */
  private offsetOf(path: string): number {
    return this.cursors.get(path)?.offset ?? 0;
  }

  private async readFile(
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
    const cursor = this.cursors.get(path);
    if (cursor && unchanged(cursor, info) && (cursor.open_response === 0 || !final))
      return nothing();
    const reset = cursor ? await resetReason(cursor, info, handle) : null;
    const start = cursor && !reset ? cursor.offset : 0;
    const file: FileRead = {
      subscription,
      reader,
      parser: reader.parser(cursor && !reset ? parseState(cursor.reader_state) : null),
      path,
      mtimeMs: info.mtimeMs,
      conversation: reader.conversationOf(path),
      sessionId: cursor?.session_id ?? null,
      native: cursor?.native === 1,
      facts: noFacts(),
      outcome: { ...nothing(), read: true },
    };
    if (file.conversation && !file.native)
      file.native = this.sessions.isNative(subscription.id, file.conversation);
    // A conversation not seen before, while one of Relais' own sessions of this subscription is
    // starting (its agent's id not known yet): it may be that session's transcript. Read it later.
    if (!file.native && !file.sessionId && this.sessions.isStarting(subscription.id))
      return nothing();
    let offset = start;
    // The last chunk parsed: the bytes the cursor's tail hash is taken from, most often.
    let held: Chunk | null = null;
    let lines = cursor && !reset ? cursor.lines : 0;
    let malformed = cursor && !reset ? cursor.malformed : 0;
    if (!file.native) {
      if (reset && file.sessionId)
        this.deps.events.appendJson(file.sessionId, 'relais', {
          type: 'relais',
          subtype: 'transcript_reset',
          reason: reset,
          path,
        });
      const read = await this.readLines(file, opened, start, info.size);
      held = read.held;
      offset = file.native ? info.size : read.consumed;
      if (final) for (const response of file.parser.drain()) this.count(file, response, offset);
      lines += file.outcome.lines;
      malformed += file.outcome.malformed;
      if (file.sessionId) {
        this.sessions.learn(file.sessionId, file.facts);
        if (file.outcome.lines || file.outcome.sessionCreated) this.deps.onSession(file.sessionId);
      }
      file.outcome.bytes = offset - start;
    } else offset = info.size;
    await this.saveCursor(file, opened, { offset, held, lines, malformed });
    return file.outcome;
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
    this.cursors.save({
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
    if (!this.turns.hasPending()) this.commitCursors();
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
    while (position < size && !file.native && !this.stopped) {
      let chunk: Buffer;
      if (opened.first?.position === position) chunk = opened.first.bytes;
      else {
        buffer ??= Buffer.allocUnsafe(CHUNK_BYTES);
        const want = Math.min(CHUNK_BYTES, size - position);
        chunk = buffer.subarray(0, (await handle.read(buffer, 0, want, position)).bytesRead);
      }
      opened.first = null;
      if (chunk.length === 0) break;
      splitter.push(chunk, position, (line) => this.line(file, line));
      held = { position, bytes: chunk };
      position += chunk.length;
    }
    return { consumed: splitter.consumed, held };
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
      if (this.sessions.isNative(file.subscription.id, file.conversation)) {
        file.native = true;
        return false;
      }
    }
    const existing = this.sessions.find(file.subscription.id, file.conversation);
    if (existing) file.sessionId = existing;
    else {
      file.sessionId = this.sessions.create(
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
    this.turns.add(turn);
  }
}
