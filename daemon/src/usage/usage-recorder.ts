import type { TurnCounter } from '../agents/agent.js';
import { agentReader } from '../agents/readers.js';
import type { Db } from '../db/database.js';
import type { EventStore, StoredEvent } from '../events/event-store.js';
import type { SessionMeta, TurnRecord } from '../agents/turn-record.js';
import { SessionLookup } from '../sessions/session-lookup.js';
import { TurnWriter } from './turn-writer.js';

type Json = Record<string, unknown>;

const RELAIS_SUBTYPES = new Set([
  'session_created',
  'permission_asked',
  'permission_decided',
  'permission_auto',
  'state',
]);
const TYPE_AT_START = /^\{\s*"type"\s*:\s*"([a-z_]+)"/;

/**
 * Builds the `turns` and `tool_calls` rows from the event stream as it is appended. The agent's
 * own lines are read by its turn counter (the agent's reader); Relais' lines here. Runs on the
 * ingest path, so it peeks at the line's type before parsing and leaves the writes to TurnWriter,
 * which batches them. Metrics live in their own tables: deleting events never loses them.
 */
export class UsageRecorder {
  private readonly trackers = new Map<string, TurnCounter>();
  /** Sessions whose lines this recorder does not count (imported ones): asked once, not per line. */
  private readonly uncounted = new Set<string>();
  private readonly writer: TurnWriter;
  private untap: (() => void) | null = null;
  private readonly lookupMeta;

  constructor(
    db: Db,
    private readonly onRecorded: (turn: TurnRecord) => void = () => undefined,
  ) {
    this.writer = new TurnWriter(db);
    // Imported conversations are counted by the history importer, one row per model response.
    const sessions = new SessionLookup(db);
    this.lookupMeta = (sessionId: string): SessionMeta | undefined => sessions.launchOf(sessionId);
  }

  attach(events: EventStore): this {
    this.untap = events.tap((event) => this.hear(event));
    return this;
  }

  detach(): void {
    this.untap?.();
    this.untap = null;
    this.writer.flush();
  }

  /** Writes buffered turns now: readers call it so they see every finished turn. */
  flush(): void {
    this.writer.flush();
  }

  hear(event: StoredEvent): void {
    if (event.source !== 'relais') {
      const turn = this.tracker(event.session_id)?.hear(event);
      if (turn) this.record(turn);
      return;
    }
    const type = TYPE_AT_START.exec(event.data)?.[1];
    if (type !== undefined && type !== 'relais') return;
    let line: Json;
    try {
      line = JSON.parse(event.data) as Json;
    } catch {
      return;
    }
    if (line['type'] === 'relais') this.relais(event, line);
  }

  private relais(event: StoredEvent, line: Json): void {
    const subtype = String(line['subtype']);
    if (!RELAIS_SUBTYPES.has(subtype)) return;
    if (subtype === 'session_created') {
      const meta: SessionMeta = {
        subscription_id: String(line['subscription_id'] ?? 'unknown'),
        agent: String(line['agent'] ?? 'claude'),
        model: String(line['model'] ?? 'unknown'),
        app: String(line['app'] ?? 'unknown'),
        permission_mode: String(line['permission_mode'] ?? 'unknown'),
      };
      const existing = this.trackers.get(event.session_id);
      if (existing) existing.setMeta(meta);
      else this.trackers.set(event.session_id, this.counter(event.session_id, meta));
      return;
    }
    const tracker = this.trackers.get(event.session_id);
    if (!tracker) return;
    if (subtype === 'state') {
      if (line['state'] !== 'ended') return;
      const abandoned = tracker.abandon(
        event.received_at_ms,
        `session ended (${String(line['end_reason'] ?? 'unknown')}) before the turn's result`,
      );
      if (abandoned) this.record(abandoned);
      this.trackers.delete(event.session_id);
      return;
    }
    const toolUseId = typeof line['tool_use_id'] === 'string' ? line['tool_use_id'] : null;
    if (!toolUseId) return;
    if (subtype === 'permission_decided') tracker.permission(toolUseId, String(line['decision']));
    else if (subtype === 'permission_auto')
      tracker.permission(toolUseId, line['decision'] === 'allow' ? 'auto_allowed' : 'auto_denied');
    else tracker.permission(toolUseId, 'asked');
  }

  private counter(sessionId: string, meta: SessionMeta): TurnCounter {
    return agentReader(meta.agent).turnCounter(sessionId, meta);
  }

  private tracker(sessionId: string): TurnCounter | null {
    let tracker = this.trackers.get(sessionId);
    if (!tracker) {
      if (this.uncounted.has(sessionId)) return null;
      const meta = this.lookupMeta(sessionId);
      if (!meta) {
        this.uncounted.add(sessionId);
        return null;
      }
      tracker = this.counter(sessionId, meta);
      this.trackers.set(sessionId, tracker);
    }
    return tracker;
  }

  private record(turn: TurnRecord): void {
    this.writer.add(turn);
    this.onRecorded(turn);
  }
}
