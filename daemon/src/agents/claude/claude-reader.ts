import { decoderFor, type DecodedItem } from '../../../../contract/formats/index.js';
import type { StoredEvent } from '../../events/event-store.js';
import { parsedLine } from '../../events/stored-event.js';
import type { SessionMeta, TurnRecord } from '../turn-record.js';
import { TurnTracker } from './turn-tracker.js';
import type { AgentReader, QuotaReading, TurnCounter } from '../agent.js';
import { claudeOutline } from './claude-outline.js';
import { claudeText } from './claude-text.js';

const decode = decoderFor('claude');

const RATE_LIMIT_LINE = /^\{\s*"type"\s*:\s*"rate_limit_event"/;
/** Types of line the counter reads; every other line is skipped without parsing. */
const WANTED: Record<string, Set<string>> = {
  agent: new Set(['assistant', 'user', 'result']),
  host: new Set(['user']),
};
const TYPE_AT_START = /^\{\s*"type"\s*:\s*"([a-z_]+)"/;

/**
 * Claude's stream-json read for usage (assistant, tool results, result) and quota
 * (rate_limit_event), through its decoder; cheap checks of a line's start skip the lines neither
 * counts without parsing them.
 */
export const claudeReader: AgentReader = {
  outline: claudeOutline,
  text: claudeText,
  quotaReadings(event: StoredEvent): QuotaReading[] {
    if (event.source !== 'agent' || !RATE_LIMIT_LINE.test(event.data)) return [];
    // A malformed line teaches nothing about the quota; the stored event keeps it for diagnosis.
    return decode(parsedLine(event.data), 'agent').flatMap((item) =>
      item.kind === 'quota' ? [quotaReading(item, event.received_at_ms)] : [],
    );
  },
  turnCounter(sessionId: string, meta: SessionMeta): TurnCounter {
    return new ClaudeTurnCounter(new TurnTracker(sessionId, meta));
  },
};

function quotaReading(
  item: Extract<DecodedItem, { kind: 'quota' }>,
  readAtMs: number,
): QuotaReading {
  return {
    window: item.window,
    utilization: item.percent,
    resets_at_ms: item.resetsAtMs,
    read_at_ms: readAtMs,
    source: 'stream',
  };
}

class ClaudeTurnCounter implements TurnCounter {
  constructor(private readonly tracker: TurnTracker) {}

  setMeta(meta: SessionMeta): void {
    this.tracker.setMeta(meta);
  }

  hear(event: StoredEvent): TurnRecord | null {
    const wanted = WANTED[event.source];
    const type = TYPE_AT_START.exec(event.data)?.[1];
    if (!wanted || (type !== undefined && !wanted.has(type))) return null;
    const line = parsedLine(event.data);
    if (event.source === 'agent') return this.tracker.line(line, event.received_at_ms);
    if (decode(line, 'host').some((item) => item.kind === 'user'))
      this.tracker.hostUser(event.seq, event.received_at_ms);
    return null;
  }

  permission(toolUseId: string, decision: string): void {
    this.tracker.permission(toolUseId, decision);
  }

  abandon(atMs: number, reason: string): TurnRecord | null {
    return this.tracker.abandon(atMs, reason);
  }
}
