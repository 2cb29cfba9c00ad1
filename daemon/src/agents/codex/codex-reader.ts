import { decoderFor, type DecodedItem } from '../../../../contract/formats/index.js';
import type { StoredEvent } from '../../events/event-store.js';
import type { QuotaReading } from '../agent.js';
import { estimateCost } from '../kit/prices.js';
import type { SessionMeta, ToolCallRecord, TurnRecord } from '../turn-record.js';
import type { AgentReader, TurnCounter } from '../agent.js';
import { codexOutline } from './codex-outline.js';
import { codexText } from './codex-text.js';

const decode = decoderFor('codex');
type Item<K extends DecodedItem['kind']> = Extract<DecodedItem, { kind: K }>;

/** The methods the counter reads, off a line's start: most lines are deltas it skips unparsed. */
const COUNTED =
  /^\{\s*"method"\s*:\s*"(?:turn\/start|thread\/started|item\/started|item\/completed|thread\/tokenUsage\/updated|turn\/completed)"/;
const RATE_LIMITS = /^\{\s*"method"\s*:\s*"account\/rateLimits\/updated"/;

/**
 * The names analytics has always given Codex's tools, from the decoder's (Claude's names for a
 * command and a file change, the item's type for the rest); a tool not listed is not counted.
 */
const COUNTED_TOOLS: Record<string, string> = {
  Bash: 'Bash',
  Edit: 'Edit',
  Write: 'Edit',
  dynamicToolCall: 'tool',
  webSearch: 'WebSearch',
};
const toolName = (name: string): string | null =>
  name.startsWith('mcp__')
    ? 'mcp'
    : Object.hasOwn(COUNTED_TOOLS, name)
      ? COUNTED_TOOLS[name]!
      : null;

/** A line whose start passed its check, decoded; a line that is not JSON says nothing. */
function decoded(event: StoredEvent): DecodedItem[] {
  try {
    return decode(JSON.parse(event.data), event.source);
  } catch {
    return [];
  }
}

export const codexReader: AgentReader = {
  outline: codexOutline,
  text: codexText,
  quotaReadings(event: StoredEvent): QuotaReading[] {
    if (event.source !== 'agent' || !RATE_LIMITS.test(event.data)) return [];
    return decoded(event).flatMap((item): QuotaReading[] =>
      item.kind === 'quota'
        ? [
            {
              window: item.window,
              utilization: item.percent,
              resets_at_ms: item.resetsAtMs,
              read_at_ms: event.received_at_ms,
              source: 'stream',
            },
          ]
        : [],
    );
  },
  turnCounter(sessionId: string, meta: SessionMeta): TurnCounter {
    return new CodexTurnCounter(sessionId, meta);
  },
};

interface OpenTurn {
  key: string;
  startedAtMs: number;
  modelCalls: number;
  tokens: { input: number; output: number; cache_read: number; cache_creation: number };
  reasoning: number;
  hasUsage: boolean;
  tools: Map<string, ToolCallRecord>;
}

/** Turns from Codex's JSON-RPC: Relais' turn/start opens one, turn/completed closes it. */
class CodexTurnCounter implements TurnCounter {
  private turn: OpenTurn | null = null;
  private model: string | null = null;
  private readonly decisions = new Map<string, string>();

  constructor(
    private readonly sessionId: string,
    private meta: SessionMeta,
  ) {}

  setMeta(meta: SessionMeta): void {
    this.meta = meta;
  }

  hear(event: StoredEvent): TurnRecord | null {
    if (!COUNTED.test(event.data)) return null;
    const at = event.received_at_ms;
    for (const item of decoded(event)) {
      if (event.source === 'host') {
        if (item.kind === 'user' && !item.steer && !this.turn)
          this.turn = this.fresh(`${this.sessionId}:${event.seq}`, at);
      } else if (item.kind === 'model') this.model = item.model;
      else if (item.kind === 'turn_end') return this.close(item, at);
      else if (this.turn) this.count(this.turn, item, at);
    }
    return null;
  }

  private count(turn: OpenTurn, item: DecodedItem, at: number): void {
    if (item.kind === 'model_call' && item.tokens) {
      turn.modelCalls++;
      turn.hasUsage = true;
      turn.tokens.input += item.tokens.input;
      turn.tokens.cache_read += item.tokens.cacheRead;
      turn.tokens.cache_creation += item.tokens.cacheCreation;
      turn.tokens.output += item.tokens.output;
      turn.reasoning += item.tokens.reasoning ?? 0;
    } else if (item.kind === 'tool_call' && item.id && !turn.tools.has(item.id)) {
      const name = toolName(item.name);
      if (name) turn.tools.set(item.id, this.call(item.id, name, at));
    } else if (item.kind === 'tool_result' && item.id) {
      const call = turn.tools.get(item.id);
      if (call && call.ended_at_ms === null) {
        call.ended_at_ms = at;
        call.duration_ms = Math.max(0, at - call.started_at_ms);
        call.is_error = item.isError;
      }
    }
  }

  private call(id: string, name: string, at: number): ToolCallRecord {
    return {
      tool_use_id: id,
      tool_name: name,
      started_at_ms: at,
      ended_at_ms: null,
      duration_ms: null,
      is_error: null,
      permission_decision: this.decisions.get(id) ?? null,
    };
  }

  permission(toolUseId: string, decision: string): void {
    this.decisions.set(toolUseId, decision);
    const call = this.turn?.tools.get(toolUseId);
    if (call) call.permission_decision = decision;
  }

  abandon(atMs: number, reason: string): TurnRecord | null {
    if (!this.turn) return null;
    return this.record(this.turn, atMs, true, 'no_result', reason, false);
  }

  private close(end: Item<'turn_end'>, atMs: number): TurnRecord | null {
    const turn = this.turn ?? this.fresh(`${this.sessionId}:r${atMs}`, atMs);
    const message = end.isError ? (end.text ?? 'the turn failed') : null;
    return this.record(
      turn,
      atMs,
      end.isError,
      end.isError ? 'failed' : null,
      message,
      turn.hasUsage,
    );
  }

  private record(
    turn: OpenTurn,
    atMs: number,
    isError: boolean,
    errorKind: string | null,
    errorMessage: string | null,
    priced: boolean,
  ): TurnRecord {
    this.turn = null;
    const model = this.model ?? this.meta.model;
    return {
      ...this.meta,
      model,
      turn_key: turn.key,
      session_id: this.sessionId,
      models: [model],
      started_at_ms: turn.startedAtMs,
      ended_at_ms: atMs,
      duration_ms: Math.max(0, atMs - turn.startedAtMs),
      model_calls: turn.modelCalls,
      input_tokens: turn.tokens.input,
      output_tokens: turn.tokens.output,
      cache_read_tokens: turn.tokens.cache_read,
      cache_creation_tokens: turn.tokens.cache_creation,
      reasoning_tokens: turn.hasUsage ? turn.reasoning : null,
      cost_usd: priced ? estimateCost(model, turn.tokens) : null,
      is_error: isError,
      error_kind: errorKind,
      error_message: errorMessage,
      tool_calls: [...turn.tools.values()],
    };
  }

  private fresh(key: string, atMs: number): OpenTurn {
    return {
      key,
      startedAtMs: atMs,
      modelCalls: 0,
      tokens: { input: 0, output: 0, cache_read: 0, cache_creation: 0 },
      reasoning: 0,
      hasUsage: false,
      tools: new Map(),
    };
  }
}
