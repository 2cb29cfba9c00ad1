import type { ToolCallRecord, TurnRecord } from '../agents/turn-record.js';

/**
 * A turn of one second with one token in and one out, no cost: what the analytics tests generate
 * by the thousand, where only its place (session, cell, time) and its error flag matter.
 */
export function oneSecondTurn(turn: {
  turn_key: string;
  session_id: string;
  subscription_id: string;
  agent: string;
  app: string;
  model: string;
  at: number;
  error: boolean;
  tool_calls?: ToolCallRecord[];
}): TurnRecord {
  const { at, error, tool_calls = [], ...place } = turn;
  return {
    ...place,
    models: [turn.model],
    permission_mode: 'write',
    started_at_ms: at,
    ended_at_ms: at + 1000,
    duration_ms: 1000,
    model_calls: 1,
    input_tokens: 1,
    output_tokens: 1,
    cache_read_tokens: 0,
    cache_creation_tokens: 0,
    cost_usd: null,
    is_error: error,
    error_kind: error ? 'api_error' : null,
    error_message: null,
    tool_calls,
  };
}
