import { sep } from 'node:path';
import type { ImportProgress, ImportReport } from '../../../contract/api.js';
import type { Db } from '../db/database.js';
import type { EventStore } from '../events/event-store.js';
import { fenceInside, RefusedPath, type Bounds, type Fence } from '../fs/fence.js';
import { TRANSCRIPT_WALK, walkInside, type FoundFile } from '../fs/untrusted-tree.js';
import type { StoredSubscription } from '../subscriptions/subscription-repo.js';
import type { TurnRecord } from '../agents/turn-record.js';
import { TurnWriter } from '../usage/turn-writer.js';
import { FileCursors } from './file-cursors.js';
import { messageOf, unchanged } from './file-identity.js';
import { ImportRun, type FileOutcome } from './import-run.js';
import { ImportedSessions } from './imported-sessions.js';
import { transcriptReader } from './transcript-readers.js';
import { discard, openTranscript, type OpenedTranscript } from './transcript-file.js';
import { TranscriptRead } from './transcript-read.js';

/** Imported turns are written in batches of this many, or after this delay (a watched file's). */
const TURN_BATCH = 512;
const TURN_BATCH_DELAY_MS = 100;
/**
 * A scan writes the events it reads (with the turns and cursors: see `storeWithEvents`) once this
 * much was read or this long has passed, not after each file: each transaction rewrites the pages
 * of the turns' indexes and rollups it touches.
 */
const SCAN_WRITE_BYTES = 1024 * 1024;
const SCAN_WRITE_MS = 50;

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
  private readonly reading: TranscriptRead;
  private stopped = false;
  /** Scans under way (each holds the event store's writes: see SCAN_WRITE_BYTES). */
  private scans = 0;
  private unwritten = { bytes: 0, sinceMs: 0 };

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
    this.reading = new TranscriptRead({
      cursors: this.cursors,
      sessions: this.sessions,
      events: deps.events,
      turns: this.turns,
      onSession: deps.onSession,
      commitCursors: () => this.commitCursors(),
      stopped: () => this.stopped,
      onChunk: (bytes) => this.chunkRead(bytes),
    });
    deps.events.writeAlongside(() => this.storeWithEvents());
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
    const release = this.deps.events.hold();
    this.scans++;
    try {
      return await this.scan(subscription);
    } finally {
      this.scans--;
      release();
    }
  }

  private chunkRead(bytes: number): void {
    if (this.scans === 0) return;
    const now = Date.now();
    if (this.unwritten.bytes === 0) this.unwritten.sinceMs = now;
    this.unwritten.bytes += bytes;
    if (this.unwritten.bytes < SCAN_WRITE_BYTES && now - this.unwritten.sinceMs < SCAN_WRITE_MS)
      return;
    this.unwritten.bytes = 0;
    this.deps.events.flush();
  }

  private async scan(subscription: StoredSubscription): Promise<ImportReport> {
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
   * Reads what is new in one file, after any read of it under way. `final`: the file is quiet, so a
   * response still open at its end is complete (the watcher reads without it while a conversation
   * is being written).
   */
  importFile(
    subscription: StoredSubscription,
    path: string,
    final: boolean,
    opened: Promise<OpenedTranscript> | null = null,
  ): Promise<FileOutcome> {
    const previous = this.locks.get(path) ?? Promise.resolve();
    const run = previous.then(() =>
      this.reading.read(
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

  /**
   * Inside each transaction that stores events: the turns read so far, and where each transcript
   * was read to, are stored with them. A daemon killed at any moment then reads each file on from
   * where its stored lines end, neither skipping a line nor storing one twice.
   */
  private storeWithEvents(): void {
    try {
      this.turns.flush();
      this.reading.saveUnderway();
      this.cursors.commit();
    } catch {
      // Not at the events' cost: what was not stored now is with the next batch (or read again).
    }
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
}
