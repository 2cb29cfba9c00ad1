import { Injector } from '@angular/core';
import { Subscription } from 'rxjs';
import type { GlobalStreamLine } from '../../../contract/api';
import { fresherSession } from './fresher-session';
import { ndjsonStream } from './live-stream';
import type { LiveHost } from './live-state';
import { LiveWire, liveWire } from './live-wire';

interface Gap {
  streamed: Set<string>;
  snapshotDone: boolean;
  listRead: boolean;
}

const openGap = (): Gap => ({ streamed: new Set(), snapshotDone: false, listRead: false });

/**
 * Keeps the live state (LiveStore) in step with the daemon: the recent sessions' list and the
 * global stream `/api/stream`, which starts with a snapshot of open sessions and pending prompts,
 * then every change. Loaded once the shell has started, with the contract's schemas it parses with.
 */
export class LiveSync {
  private subscription: Subscription | null = null;
  private everConnected = false;
  /**
   * Until a list of sessions and the stream's snapshot after a connect are both in: the sessions
   * the stream has named since it connected, and whether its snapshot is complete (see closeGap).
   */
  private gap: Gap | null = openGap();

  constructor(
    private readonly host: LiveHost,
    private readonly wire: LiveWire,
  ) {}

  /** Reads the recent sessions and opens the stream. */
  start(): void {
    void this.reload();
    this.subscription = ndjsonStream({
      url: () => '/api/stream',
      key: this.host.key,
      parse: (raw) => this.wire.parseLine(raw),
    }).subscribe((message) => {
      if (message.kind === 'unauthorized') this.host.unauthorized();
      else if (message.kind === 'status') {
        this.host.state.status.set(message.connected ? 'live' : 'offline');
        if (message.connected) this.connected();
      } else this.apply(message.line);
    });
  }

  stop(): void {
    this.everConnected = false;
    this.gap = openGap();
    this.subscription?.unsubscribe();
    this.subscription = null;
  }

  /** Loads recent sessions, ended ones included (the stream only re-sends open ones). */
  async reload(): Promise<void> {
    const { state } = this.host;
    try {
      const sessions = await this.wire.recentSessions();
      state.sessions.update((current) => {
        const next = new Map(current);
        for (const session of sessions)
          next.set(session.id, fresherSession(next.get(session.id), session));
        return next;
      });
      state.error.set(null);
      if (this.gap) this.gap.listRead = true;
      this.closeGap();
    } catch (error: unknown) {
      state.error.set(this.wire.failure(error));
    } finally {
      state.loaded.set(true);
    }
  }

  /**
   * A list of sessions and the stream's snapshot are two reads: a session the list showed
   * open that ended before the stream connected is in neither the snapshot (open sessions only)
   * nor its changes. Once both are in, such a session is read again on its own (seldom any: one
   * request, not a second list).
   */
  private closeGap(): void {
    const gap = this.gap;
    if (!gap?.snapshotDone || !gap.listRead) return;
    this.gap = null;
    const missed = [...this.host.state.sessions().values()].filter(
      (session) => session.state !== 'ended' && !gap.streamed.has(session.id),
    );
    for (const session of missed) void this.readAgain(session.id);
  }

  private async readAgain(id: string): Promise<void> {
    try {
      this.host.upsertSession(await this.wire.session(id));
    } catch (error: unknown) {
      // Deleted meanwhile: it leaves the list. Unreachable: the row keeps what the list said.
      if (this.wire.failure(error).status === 404)
        this.host.state.sessions.update((current) => {
          const next = new Map(current);
          next.delete(id);
          return next;
        });
    }
  }

  /** The stream (re)connected: its snapshot is about to follow. */
  private connected(): void {
    // The snapshot re-sends what is pending; forget what may have been decided meanwhile.
    this.host.state.pending.set(new Map());
    // Back after an outage: sessions may have come and gone meanwhile, the list says which, and
    // the list and the new snapshot leave the same gap as the first two reads did.
    if (this.everConnected) {
      this.gap = openGap();
      void this.reload();
    }
    this.everConnected = true;
  }

  private apply(line: GlobalStreamLine): void {
    if (line.type === 'snapshot_end' && this.gap) {
      this.gap.snapshotDone = true;
      this.closeGap();
    } else if (line.type === 'session') {
      this.gap?.streamed.add(line.session.id);
      this.host.upsertSession(line.session);
    } else if (line.type === 'permission') this.host.upsertPermission(line.permission);
    else if (line.type === 'import')
      this.host.state.imports.update((current) =>
        new Map(current).set(line.import.subscription_id, line.import),
      );
  }
}

export function liveSync(host: LiveHost, injector: Injector): LiveSync {
  return new LiveSync(host, liveWire(injector));
}
