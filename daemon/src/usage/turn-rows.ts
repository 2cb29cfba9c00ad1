import type { TurnRow } from '../../../contract/usage.js';

export const TURN_COLUMNS = `id, session_id, subscription_id, agent, model, models, app, permission_mode, started_at_ms,
  ended_at_ms, duration_ms, model_calls, input_tokens, output_tokens, cache_read_tokens, cache_creation_tokens, cost_usd,
  is_error, error_kind, error_message, tool_call_count AS tool_calls,
  reasoning_tokens`;

export interface TurnDbRow {
  id: number;
  session_id: string;
  subscription_id: string;
  agent: string;
  model: string;
  models: string;
  app: string;
  permission_mode: string;
  started_at_ms: number;
  ended_at_ms: number;
  duration_ms: number;
  model_calls: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_creation_tokens: number;
  cost_usd: number | null;
  is_error: number;
  error_kind: string | null;
  error_message: string | null;
  tool_calls: number;
  reasoning_tokens: number | null;
}

export function toTurnRow(r: TurnDbRow): TurnRow {
  return {
    id: r.id,
    session_id: r.session_id,
    subscription_id: r.subscription_id,
    agent: r.agent,
    model: r.model,
    models: r.models,
    app: r.app,
    permission_mode: r.permission_mode,
    started_at: new Date(r.started_at_ms).toISOString(),
    ended_at: new Date(r.ended_at_ms).toISOString(),
    duration_ms: r.duration_ms,
    model_calls: r.model_calls,
    input_tokens: r.input_tokens,
    output_tokens: r.output_tokens,
    cache_read_tokens: r.cache_read_tokens,
    cache_creation_tokens: r.cache_creation_tokens,
    cost_estimate_usd: r.cost_usd,
    is_error: r.is_error === 1,
    error_kind: r.error_kind,
    error_message: r.error_message,
    tool_calls: r.tool_calls,
    reasoning_tokens: r.reasoning_tokens,
  };
}
