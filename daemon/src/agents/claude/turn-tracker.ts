import { estimateCost } from '../kit/prices.js';
import type { SessionMeta, ToolCallRecord, TurnRecord } from '../turn-record.js';

type Json = Record<string, unknown>;

interface OpenTurn {
  key: string;
  startedAtMs: number;
  messageIds: Set<string>;
  models: string[];
  tools: Map<string, ToolCallRecord>;
  apiError: string | null;
}

const obj = (value: unknown): Json | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
const num = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : 0;
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const blocks = (message: Json | null): Json[] =>
  Array.isArray(message?.['content'])
    ? (message['content'] as unknown[]).map(obj).filter((b): b is Json => b !== null)
    : [];

const PERMISSION_SOURCES: Record<string, string> = {
  config: 'not_asked',
  hook: 'hook',
  user_reject: 'denied',
  user_temporary: 'allowed',
};

/**
 * Follows one session's lines and produces a TurnRecord at each `result`. A host user line opens
 * a turn; every distinct main-loop assistant `message.id` is one model call (the CLI prints one
 * line per content block with the same id); tokens come from `result.usage`, which is per turn.
 */
export class TurnTracker {
  private turn: OpenTurn | null = null;
  /** Host user lines written while a turn was still open: each starts the next turn. */
  private readonly waiting: { key: string; atMs: number }[] = [];
  /** Permission decisions by tool_use_id; they may arrive before or after the tool_use line. */
  private readonly decisions = new Map<string, string>();

  constructor(
    readonly sessionId: string,
    private meta: SessionMeta,
  ) {}

  setMeta(meta: SessionMeta): void {
    this.meta = meta;
  }

  get open(): boolean {
    return this.turn !== null;
  }

  hostUser(seq: number, atMs: number): void {
    const key = `${this.sessionId}:${seq}`;
    if (this.turn) this.waiting.push({ key, atMs });
    else this.turn = this.fresh(key, atMs);
  }

  assistant(line: Json, atMs: number): void {
    const turn = this.turn ?? (this.turn = this.fresh(`${this.sessionId}:a${atMs}`, atMs));
    if (line['parent_tool_use_id'] !== null && line['parent_tool_use_id'] !== undefined) return;
    const message = obj(line['message']);
    const model = str(message?.['model']);
    if (model === '<synthetic>') {
      turn.apiError = str(line['error']) ?? 'api_error';
      return;
    }
    const id = str(message?.['id']);
    if (id) turn.messageIds.add(id);
    if (model && !turn.models.includes(model)) turn.models.push(model);
    for (const block of blocks(message)) {
      const toolId = str(block['id']);
      if (block['type'] !== 'tool_use' || !toolId || turn.tools.has(toolId)) continue;
      turn.tools.set(toolId, {
        tool_use_id: toolId,
        tool_name: str(block['name']) ?? 'unknown',
        started_at_ms: atMs,
        ended_at_ms: null,
        duration_ms: null,
        is_error: null,
        permission_decision: this.decisions.get(toolId) ?? null,
      });
    }
  }

  toolResults(line: Json, atMs: number): void {
    if (!this.turn) return;
    const metaDecisions = new Map<string, string>();
    for (const entry of Array.isArray(line['tool_result_meta'])
      ? (line['tool_result_meta'] as unknown[])
      : []) {
      const e = obj(entry);
      const source = str(obj(e?.['permission_decision'])?.['source']);
      const id = str(e?.['id']);
      if (id && source) metaDecisions.set(id, PERMISSION_SOURCES[source] ?? source);
    }
    for (const block of blocks(obj(line['message']))) {
      const id = str(block['tool_use_id']);
      const call = id ? this.turn.tools.get(id) : undefined;
      if (block['type'] !== 'tool_result' || !call || call.ended_at_ms !== null) continue;
      call.ended_at_ms = atMs;
      call.duration_ms = Math.max(0, atMs - call.started_at_ms);
      call.is_error = block['is_error'] === true;
      call.permission_decision ??= metaDecisions.get(call.tool_use_id) ?? null;
    }
  }

  /** Relais' own permission events: the decision that let a tool run or stopped it. */
  permission(toolUseId: string, decision: string): void {
    this.decisions.set(toolUseId, decision);
    const call = this.turn?.tools.get(toolUseId);
    if (call) call.permission_decision = decision;
  }

  result(line: Json, atMs: number): TurnRecord {
    const turn = this.turn ?? this.fresh(`${this.sessionId}:r${atMs}`, atMs);
    const usage = obj(line['usage']);
    const isError = line['is_error'] === true;
    let errorKind: string | null = null;
    let errorMessage: string | null = null;
    if (isError) {
      errorKind = str(line['terminal_reason']) ?? turn.apiError ?? str(line['subtype']) ?? 'error';
      const errors = Array.isArray(line['errors'])
        ? (line['errors'] as unknown[]).map(String).join('; ')
        : null;
      errorMessage = str(line['result']) ?? errors;
    }
    const tokens = {
      input: num(usage?.['input_tokens']),
      output: num(usage?.['output_tokens']),
      cache_read: num(usage?.['cache_read_input_tokens']),
      cache_creation: num(usage?.['cache_creation_input_tokens']),
      cache_creation_1h: num(obj(usage?.['cache_creation'])?.['ephemeral_1h_input_tokens']),
    };
    return this.close(turn, atMs, tokens, usage !== null, isError, errorKind, errorMessage);
  }

  /** The session ended with a turn still open: it is kept, marked as an error, cost unknown. */
  abandon(atMs: number, reason: string): TurnRecord | null {
    if (!this.turn) return null;
    const zero = { input: 0, output: 0, cache_read: 0, cache_creation: 0 };
    const record = this.close(this.turn, atMs, zero, false, true, 'no_result', reason);
    this.waiting.length = 0;
    this.turn = null;
    return record;
  }

  private close(
    turn: OpenTurn,
    atMs: number,
    tokens: {
      input: number;
      output: number;
      cache_read: number;
      cache_creation: number;
      cache_creation_1h?: number;
    },
    hasUsage: boolean,
    isError: boolean,
    errorKind: string | null,
    errorMessage: string | null,
  ): TurnRecord {
    const model = turn.models[turn.models.length - 1] ?? this.meta.model;
    // A turn answered by several models cannot be split from result.usage alone: unknown cost.
    const cost = hasUsage && turn.models.length <= 1 ? estimateCost(model, tokens) : null;
    const record: TurnRecord = {
      ...this.meta,
      model,
      turn_key: turn.key,
      session_id: this.sessionId,
      models: turn.models.length ? turn.models : [model],
      started_at_ms: turn.startedAtMs,
      ended_at_ms: atMs,
      duration_ms: Math.max(0, atMs - turn.startedAtMs),
      model_calls: turn.messageIds.size,
      input_tokens: tokens.input,
      output_tokens: tokens.output,
      cache_read_tokens: tokens.cache_read,
      cache_creation_tokens: tokens.cache_creation,
      reasoning_tokens: null,
      cost_usd: cost,
      is_error: isError,
      error_kind: errorKind,
      error_message: errorMessage,
      tool_calls: [...turn.tools.values()],
    };
    const next = this.waiting.shift();
    this.turn = next ? this.fresh(next.key, next.atMs) : null;
    return record;
  }

  private fresh(key: string, atMs: number): OpenTurn {
    return {
      key,
      startedAtMs: atMs,
      messageIds: new Set(),
      models: [],
      tools: new Map(),
      apiError: null,
    };
  }
}
