import { decoderFor, type DecodedItem, type Tokens } from '../../../../contract/formats/index.js';
import { estimateCost } from '../kit/prices.js';
import type { SessionMeta, ToolCallRecord, TurnRecord } from '../turn-record.js';

interface OpenTurn {
  key: string;
  startedAtMs: number;
  messageIds: Set<string>;
  models: string[];
  tools: Map<string, ToolCallRecord>;
  apiError: string | null;
}

type Item<K extends DecodedItem['kind']> = Extract<DecodedItem, { kind: K }>;

const decode = decoderFor('claude');
const NO_TOKENS: Tokens = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheCreation: 0,
  cacheCreation1h: 0,
  reasoning: null,
};

const PERMISSION_SOURCES: Record<string, string> = {
  config: 'not_asked',
  hook: 'hook',
  user_reject: 'denied',
  user_temporary: 'allowed',
};

/** Relais' word for the agent's own; a word it does not know (even a prototype key) is kept. */
const permissionWord = (source: string): string =>
  Object.hasOwn(PERMISSION_SOURCES, source) ? PERMISSION_SOURCES[source]! : source;

/**
 * Follows one session's lines and produces a TurnRecord at each `result`. A host user line opens
 * a turn; every distinct main-loop assistant `message.id` is one model call (the CLI prints one
 * line per content block with the same id); tokens come from `result.usage`, which is per turn.
 * Lines are read through Claude's decoder (contract/formats).
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

  /** An agent line already decoded: a result line's end closes the turn into its record. */
  hear(items: readonly DecodedItem[], atMs: number): TurnRecord | null {
    let results = false;
    for (const item of items) {
      if (item.kind === 'model_call') this.modelCall(item, items, atMs);
      else if (item.kind === 'tool_result') results = true;
      else if (item.kind === 'turn_end') return this.end(item, atMs);
    }
    if (results) this.endCalls(items, atMs);
    return null;
  }

  /** An agent's line as it wrote it; a result line ends the turn even when it lies about its fields. */
  line(line: unknown, atMs: number): TurnRecord | null {
    const record = this.hear(decode(line, 'agent'), atMs);
    const isResult = (line as { type?: unknown } | null)?.type === 'result';
    return record ?? (isResult ? this.unreadableEnd(atMs) : null);
  }

  assistant(line: unknown, atMs: number): void {
    this.line(line, atMs);
  }

  toolResults(line: unknown, atMs: number): void {
    this.line(line, atMs);
  }

  result(line: unknown, atMs: number): TurnRecord {
    return this.line(line, atMs) ?? this.unreadableEnd(atMs);
  }

  private modelCall(call: Item<'model_call'>, items: readonly DecodedItem[], atMs: number): void {
    const turn = this.turn ?? (this.turn = this.fresh(`${this.sessionId}:a${atMs}`, atMs));
    if (call.sub) return;
    if (call.error !== null) {
      turn.apiError = call.error;
      return;
    }
    if (call.id) turn.messageIds.add(call.id);
    if (call.model && !turn.models.includes(call.model)) turn.models.push(call.model);
    for (const item of items) {
      if (item.kind !== 'tool_call' || !item.id || turn.tools.has(item.id)) continue;
      turn.tools.set(item.id, {
        tool_use_id: item.id,
        tool_name: item.name,
        started_at_ms: atMs,
        ended_at_ms: null,
        duration_ms: null,
        is_error: null,
        permission_decision: this.decisions.get(item.id) ?? null,
      });
    }
  }

  private endCalls(items: readonly DecodedItem[], atMs: number): void {
    if (!this.turn) return;
    const metaDecisions = new Map<string, string>();
    for (const item of items)
      if (item.kind === 'tool_permission') metaDecisions.set(item.id, permissionWord(item.source));
    for (const result of items) {
      if (result.kind !== 'tool_result') continue;
      const call = result.id ? this.turn.tools.get(result.id) : undefined;
      if (!call || call.ended_at_ms !== null) continue;
      call.ended_at_ms = atMs;
      call.duration_ms = Math.max(0, atMs - call.started_at_ms);
      call.is_error = result.isError;
      call.permission_decision ??= metaDecisions.get(call.tool_use_id) ?? null;
    }
  }

  /** Relais' own permission events: the decision that let a tool run or stopped it. */
  permission(toolUseId: string, decision: string): void {
    this.decisions.set(toolUseId, decision);
    const call = this.turn?.tools.get(toolUseId);
    if (call) call.permission_decision = decision;
  }

  private end(end: Item<'turn_end'>, atMs: number): TurnRecord {
    const turn = this.turn ?? this.fresh(`${this.sessionId}:r${atMs}`, atMs);
    const isError = end.isError;
    const errorKind = isError ? (end.reason ?? turn.apiError ?? end.category ?? 'error') : null;
    const errorMessage = isError ? (end.text ?? end.errors?.join('; ') ?? null) : null;
    const tokens = end.tokens ?? NO_TOKENS;
    return this.close(turn, atMs, tokens, end.tokens !== null, isError, errorKind, errorMessage);
  }

  /** A result line whose fields lie about their types: the turn ends, as an error, cost unknown. */
  private unreadableEnd(atMs: number): TurnRecord {
    const turn = this.turn ?? this.fresh(`${this.sessionId}:r${atMs}`, atMs);
    return this.close(turn, atMs, NO_TOKENS, false, true, 'unreadable_result', null);
  }

  /** The session ended with a turn still open: it is kept, marked as an error, cost unknown. */
  abandon(atMs: number, reason: string): TurnRecord | null {
    if (!this.turn) return null;
    const record = this.close(this.turn, atMs, NO_TOKENS, false, true, 'no_result', reason);
    this.waiting.length = 0;
    this.turn = null;
    return record;
  }

  private close(
    turn: OpenTurn,
    atMs: number,
    tokens: Tokens,
    hasUsage: boolean,
    isError: boolean,
    errorKind: string | null,
    errorMessage: string | null,
  ): TurnRecord {
    const model = turn.models[turn.models.length - 1] ?? this.meta.model;
    // A turn answered by several models cannot be split from result.usage alone: unknown cost.
    const cost =
      hasUsage && turn.models.length <= 1
        ? estimateCost(model, {
            input: tokens.input,
            output: tokens.output,
            cache_read: tokens.cacheRead,
            cache_creation: tokens.cacheCreation,
            cache_creation_1h: tokens.cacheCreation1h,
          })
        : null;
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
      cache_read_tokens: tokens.cacheRead,
      cache_creation_tokens: tokens.cacheCreation,
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
