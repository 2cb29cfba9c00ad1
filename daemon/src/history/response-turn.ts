import type { AgentKind } from '../../../contract/api.js';
import { IMPORTED_APP } from '../../../contract/usage.js';
import { estimateCost } from '../agents/kit/prices.js';
import type { TurnRecord } from '../agents/turn-record.js';
import type { ResponseUsage } from '../agents/transcript-reader.js';

/**
 * One model response of a transcript as an analytics row: one model call, its tokens, its cost
 * from the price table, its tools. The key makes a response seen again (on another line, in a
 * resumed copy of the file) count once.
 */
export function responseTurn(input: {
  response: ResponseUsage;
  sessionId: string;
  subscriptionId: string;
  agent: AgentKind;
  /** Where the line is, for a response the transcript gives no id to. */
  fallbackKey: string;
}): TurnRecord {
  const r = input.response;
  const endedAt = Math.max(r.endedAtMs, r.startedAtMs);
  return {
    turn_key: `imported:${r.key ?? input.fallbackKey}`,
    session_id: input.sessionId,
    subscription_id: input.subscriptionId,
    agent: input.agent,
    model: r.model,
    models: [r.model],
    app: IMPORTED_APP,
    permission_mode: IMPORTED_APP,
    started_at_ms: r.startedAtMs,
    ended_at_ms: endedAt,
    duration_ms: endedAt - r.startedAtMs,
    model_calls: 1,
    input_tokens: r.input,
    output_tokens: r.output,
    cache_read_tokens: r.cacheRead,
    cache_creation_tokens: r.cacheCreation,
    reasoning_tokens: r.reasoning,
    cost_usd: estimateCost(r.model, {
      input: r.input,
      output: r.output,
      cache_read: r.cacheRead,
      cache_creation: r.cacheCreation,
      cache_creation_1h: r.cacheCreation1h,
    }),
    is_error: false,
    error_kind: null,
    error_message: null,
    tool_calls: r.tools.map((tool) => ({
      tool_use_id: tool.id,
      tool_name: tool.name,
      started_at_ms: endedAt,
      ended_at_ms: null,
      duration_ms: null,
      is_error: null,
      permission_decision: null,
    })),
  };
}
