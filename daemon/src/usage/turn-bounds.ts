import { hiddenCharacter, isModelName, isToolName } from '../../../contract/names.js';
import type { ToolCallRecord, TurnRecord } from '../agents/turn-record.js';

/**
 * Plausible ranges of what one turn can hold. Every turn is brought within them where turns are
 * recorded (TurnWriter), live or imported alike: a transcript is written by whoever can write the
 * agent's folder, and one `9e18` would overflow SQLite's sums (a 500 on every analytics route).
 * Within these, a sum overflows only after billions of turns.
 */
export const TURN_BOUNDS = {
  /** Of each kind (input, output, cache read, cache creation, reasoning). */
  tokens: 1_000_000_000,
  modelCalls: 1_000_000,
  costUsd: 1_000_000,
  /** A turn or a tool call lasts at most a week (a session's longest deadline). */
  durationMs: 7 * 86_400_000,
  /** No agent wrote a turn before 2000-01-01. */
  earliestMs: Date.UTC(2000, 0, 1),
  /** Nor more than an hour ahead of this machine's clock. */
  aheadMs: 3_600_000,
  nameChars: 200,
  errorKindChars: 100,
  errorMessageChars: 2000,
} as const;

/** A time from outside within [2000-01-01, now + an hour] (not finite: the earliest). */
export function plausibleTimeMs(ms: number, nowMs = Date.now()): number {
  if (!Number.isFinite(ms)) return TURN_BOUNDS.earliestMs;
  return Math.min(nowMs + TURN_BOUNDS.aheadMs, Math.max(TURN_BOUNDS.earliestMs, Math.round(ms)));
}

/** Counts the values it had to change. */
class Clamp {
  count = 0;

  constructor(private readonly latestMs: number) {}

  integer(value: number, max: number): number {
    const bounded = Number.isFinite(value) ? Math.min(max, Math.max(0, Math.round(value))) : 0;
    if (bounded !== value) this.count++;
    return bounded;
  }

  cost(value: number | null): number | null {
    if (value === null) return null;
    if (!Number.isFinite(value)) {
      this.count++;
      return null; // Unknown, as when the model has no price: never a made-up figure.
    }
    const bounded = Math.min(TURN_BOUNDS.costUsd, Math.max(0, value));
    if (bounded !== value) this.count++;
    return bounded;
  }

  time(value: number): number {
    const bounded = plausibleTimeMs(value, this.latestMs - TURN_BOUNDS.aheadMs);
    if (bounded !== value) this.count++;
    return bounded;
  }

  /** A span whose ends had to move is what is left between the moved ends. */
  span(
    start: number,
    end: number,
    duration: number,
  ): { start: number; end: number; duration: number } {
    const before = this.count;
    const s = this.time(start);
    const e = this.time(end);
    if (this.count > before)
      return {
        start: s,
        end: Math.max(s, e),
        duration: Math.min(TURN_BOUNDS.durationMs, Math.max(0, e - s)),
      };
    return { start: s, end: e, duration: this.integer(duration, TURN_BOUNDS.durationMs) };
  }

  name(value: string, valid: (name: string) => boolean): string {
    if (valid(value)) return value;
    this.count++;
    return 'unknown';
  }

  /** `lines`: tab, LF and CR are kept (an error message's lines). */
  text(value: string | null, max: number, lines = false): string | null {
    if (value === null) return null;
    if (value.length <= max && hiddenCharacter(value) === null) return value;
    // Controls and the marks that make text read differently go; the rest is kept, cut.
    const kept = (char: string): boolean =>
      !hiddenCharacter(char) || (lines && (char === '\t' || char === '\n' || char === '\r'));
    const cleaned = [...value]
      .slice(0, max)
      .map((char) => (kept(char) ? char : ' '))
      .join('');
    if (cleaned !== value) this.count++;
    return cleaned;
  }
}

const isAppName = (name: string): boolean =>
  name.length >= 1 && name.length <= 80 && name.trim() === name && hiddenCharacter(name) === null;

/** The turn within TURN_BOUNDS, and how many of its values (its tool calls' included) were changed. */
export function boundTurn(
  turn: TurnRecord,
  nowMs = Date.now(),
): { turn: TurnRecord; clamped: number } {
  const clamp = new Clamp(nowMs + TURN_BOUNDS.aheadMs);
  const span = clamp.span(turn.started_at_ms, turn.ended_at_ms, turn.duration_ms);
  const reasoning = turn.reasoning_tokens;
  const bounded: TurnRecord = {
    ...turn,
    model: clamp.name(turn.model, isModelName),
    models: turn.models.map((model) => clamp.name(model, isModelName)),
    app: clamp.name(turn.app, isAppName),
    started_at_ms: span.start,
    ended_at_ms: span.end,
    duration_ms: span.duration,
    model_calls: clamp.integer(turn.model_calls, TURN_BOUNDS.modelCalls),
    input_tokens: clamp.integer(turn.input_tokens, TURN_BOUNDS.tokens),
    output_tokens: clamp.integer(turn.output_tokens, TURN_BOUNDS.tokens),
    cache_read_tokens: clamp.integer(turn.cache_read_tokens, TURN_BOUNDS.tokens),
    cache_creation_tokens: clamp.integer(turn.cache_creation_tokens, TURN_BOUNDS.tokens),
    reasoning_tokens:
      reasoning === undefined || reasoning === null
        ? null
        : clamp.integer(reasoning, TURN_BOUNDS.tokens),
    cost_usd: clamp.cost(turn.cost_usd),
    error_kind: clamp.text(turn.error_kind, TURN_BOUNDS.errorKindChars),
    error_message: clamp.text(turn.error_message, TURN_BOUNDS.errorMessageChars, true),
    tool_calls: turn.tool_calls.map((call) => boundCall(call, clamp)),
  };
  return { turn: bounded, clamped: clamp.count };
}

function boundCall(call: ToolCallRecord, clamp: Clamp): ToolCallRecord {
  let startedAt: number;
  let endedAt = call.ended_at_ms;
  let duration = call.duration_ms;
  if (endedAt !== null) {
    const span = clamp.span(call.started_at_ms, endedAt, duration ?? 0);
    startedAt = span.start;
    endedAt = span.end;
    duration = duration === null ? null : span.duration;
  } else {
    startedAt = clamp.time(call.started_at_ms);
    if (duration !== null) duration = clamp.integer(duration, TURN_BOUNDS.durationMs);
  }
  return {
    ...call,
    tool_use_id: clamp.text(call.tool_use_id, TURN_BOUNDS.nameChars) ?? '',
    tool_name: clamp.name(call.tool_name, isToolName),
    started_at_ms: startedAt,
    ended_at_ms: endedAt,
    duration_ms: duration,
  };
}
