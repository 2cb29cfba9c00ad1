import type { StoredEvent } from '../../events/event-store.js';
import { parseRateLimitEvent } from './rate-limit-event.js';
import type { SessionMeta, TurnRecord } from '../turn-record.js';
import { TurnTracker } from './turn-tracker.js';
import type { AgentReader, QuotaReading, TurnCounter } from '../agent.js';
import { claudeOutline } from './claude-outline.js';

type Json = Record<string, unknown>;

const RATE_LIMIT_LINE = /^\{\s*"type"\s*:\s*"rate_limit_event"/;
/** Types of line the counter reads; every other line is skipped without parsing. */
const WANTED: Record<string, Set<string>> = {
  agent: new Set(['assistant', 'user', 'result']),
  host: new Set(['user']),
};
const TYPE_AT_START = /^\{\s*"type"\s*:\s*"([a-z_]+)"/;

/** Claude's stream-json read for usage (assistant, tool results, result) and quota (rate_limit_event). */
export const claudeReader: AgentReader = {
  outline: claudeOutline,
  quotaReadings(event: StoredEvent): QuotaReading[] {
    if (event.source !== 'agent' || !RATE_LIMIT_LINE.test(event.data)) return [];
    try {
      return parseRateLimitEvent(JSON.parse(event.data) as Json, event.received_at_ms);
    } catch {
      // A malformed line teaches nothing about the quota; the stored event keeps it for diagnosis.
      return [];
    }
  },
  turnCounter(sessionId: string, meta: SessionMeta): TurnCounter {
    return new ClaudeTurnCounter(new TurnTracker(sessionId, meta));
  },
};

class ClaudeTurnCounter implements TurnCounter {
  constructor(private readonly tracker: TurnTracker) {}

  setMeta(meta: SessionMeta): void {
    this.tracker.setMeta(meta);
  }

  hear(event: StoredEvent): TurnRecord | null {
    const wanted = WANTED[event.source];
    const type = TYPE_AT_START.exec(event.data)?.[1];
    if (!wanted || (type !== undefined && !wanted.has(type))) return null;
    let line: Json;
    try {
      line = JSON.parse(event.data) as Json;
    } catch {
      return null; // Not JSON: stored as agent_text, nothing to count.
    }
    if (!wanted.has(String(line['type']))) return null;
    if (event.source === 'host') {
      this.tracker.hostUser(event.seq, event.received_at_ms);
      return null;
    }
    if (line['type'] === 'assistant') this.tracker.assistant(line, event.received_at_ms);
    else if (line['type'] === 'user') this.tracker.toolResults(line, event.received_at_ms);
    else return this.tracker.result(line, event.received_at_ms);
    return null;
  }

  permission(toolUseId: string, decision: string): void {
    this.tracker.permission(toolUseId, decision);
  }

  abandon(atMs: number, reason: string): TurnRecord | null {
    return this.tracker.abandon(atMs, reason);
  }
}
