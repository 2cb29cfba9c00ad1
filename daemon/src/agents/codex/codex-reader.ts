import type { StoredEvent } from '../../events/event-store.js';
import type { QuotaReading } from '../agent.js';
import { estimateCost } from '../kit/prices.js';
import type { SessionMeta, ToolCallRecord, TurnRecord } from '../turn-record.js';
import type { AgentReader, TurnCounter } from '../agent.js';
import { codexOutline } from './codex-outline.js';
import { codexMessage } from './codex-message.js';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json =>
  (value && typeof value === 'object' && !Array.isArray(value) ? value : {}) as Json;
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const num = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : 0;

const COUNTED = new Set([
  'turn/start',
  'thread/started',
  'item/started',
  'item/completed',
  'thread/tokenUsage/updated',
  'turn/completed',
]);
/** The windows Claude's quota names too, so both agents line up on one page. */
const WINDOW_NAMES: Record<number, string> = { 300: 'five_hour', 10080: 'seven_day' };
/** Items that are tool calls, and the tool name the permission engine and analytics know. */
const TOOL_ITEMS: Record<string, string> = {
  commandExecution: 'Bash',
  fileChange: 'Edit',
  mcpToolCall: 'mcp',
  dynamicToolCall: 'tool',
  webSearch: 'WebSearch',
};

function windowName(limitId: string | null, which: string, minutes: number): string {
  const base = WINDOW_NAMES[minutes] ?? (minutes > 0 ? `${minutes}_minutes` : which);
  return limitId && limitId !== 'codex' ? `${limitId}_${base}` : base;
}

/**
 * `account/rateLimits/updated`: percents (rounded by Codex) and resets in Unix seconds. A null
 * window is no reading: it never overwrites one (PROTOCOLS §3.9).
 */
export function rateLimitReadings(params: Json, readAtMs: number): QuotaReading[] {
  const limits = obj(params['rateLimits']);
  const limitId = str(limits['limitId']);
  const readings: QuotaReading[] = [];
  for (const which of ['primary', 'secondary']) {
    const window = limits[which];
    if (!window || typeof window !== 'object') continue;
    const w = obj(window);
    if (typeof w['usedPercent'] !== 'number' || !Number.isFinite(w['usedPercent'])) continue;
    const resets = typeof w['resetsAt'] === 'number' ? w['resetsAt'] * 1000 : null;
    readings.push({
      window: windowName(limitId, which, num(w['windowDurationMins'])),
      utilization: w['usedPercent'],
      resets_at_ms: resets,
      read_at_ms: readAtMs,
      source: 'stream',
    });
  }
  return readings;
}

export const codexReader: AgentReader = {
  outline: codexOutline,
  quotaReadings(event: StoredEvent): QuotaReading[] {
    if (event.source !== 'agent' || !event.data.includes('"account/rateLimits/updated"')) return [];
    const line = codexMessage(event);
    if (line?.method !== 'account/rateLimits/updated') return [];
    return rateLimitReadings(line.params, event.received_at_ms);
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
    const line = codexMessage(event, COUNTED);
    if (!line) return null;
    const at = event.received_at_ms;
    const { method, params } = line;
    if (event.source === 'host') {
      if (method === 'turn/start' && !this.turn)
        this.turn = this.fresh(`${this.sessionId}:${event.seq}`, at);
      return null;
    }
    if (method === 'thread/started') {
      this.model = str(obj(params['thread'])['model']) ?? this.model;
      return null;
    }
    if (method === 'turn/completed') return this.close(obj(params['turn']), at);
    const turn = this.turn;
    if (!turn) return null;
    if (method === 'thread/tokenUsage/updated') {
      const last = obj(obj(params['tokenUsage'])['last']);
      const cached = num(last['cachedInputTokens']);
      turn.modelCalls++;
      turn.hasUsage = true;
      turn.tokens.input += Math.max(0, num(last['inputTokens']) - cached);
      turn.tokens.cache_read += cached;
      turn.tokens.cache_creation += num(last['cacheWriteInputTokens']);
      turn.tokens.output += num(last['outputTokens']);
      turn.reasoning += num(last['reasoningOutputTokens']);
      return null;
    }
    const item = obj(params['item']);
    const id = str(item['id']);
    const toolName = TOOL_ITEMS[String(item['type'])];
    if (!id || !toolName) return null;
    if (method === 'item/started' && !turn.tools.has(id)) {
      turn.tools.set(id, {
        tool_use_id: id,
        tool_name: toolName,
        started_at_ms: at,
        ended_at_ms: null,
        duration_ms: null,
        is_error: null,
        permission_decision: this.decisions.get(id) ?? null,
      });
    } else if (method === 'item/completed') {
      const call = turn.tools.get(id);
      if (call && call.ended_at_ms === null) {
        call.ended_at_ms = at;
        call.duration_ms = Math.max(0, at - call.started_at_ms);
        call.is_error = item['status'] !== 'completed';
      }
    }
    return null;
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

  private close(turnLine: Json, atMs: number): TurnRecord | null {
    const turn = this.turn ?? this.fresh(`${this.sessionId}:r${atMs}`, atMs);
    const status = str(turnLine['status']);
    const failed = status === 'failed';
    const message = failed ? (str(obj(turnLine['error'])['message']) ?? 'the turn failed') : null;
    return this.record(turn, atMs, failed, failed ? 'failed' : null, message, turn.hasUsage);
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
