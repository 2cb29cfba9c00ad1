/** What the recorder writes: one row per turn, with the tool calls it made. */
export interface ToolCallRecord {
  tool_use_id: string;
  tool_name: string;
  started_at_ms: number;
  ended_at_ms: number | null;
  duration_ms: number | null;
  is_error: boolean | null;
  /** allowed | denied | cancelled (a person or rule via Relais), auto_allowed | auto_denied (policy), not_asked (the agent's own config) */
  permission_decision: string | null;
}

export interface SessionMeta {
  subscription_id: string;
  agent: string;
  model: string;
  app: string;
  permission_mode: string;
}

export interface TurnRecord extends SessionMeta {
  turn_key: string;
  session_id: string;
  /** Every model the main loop answered with, in order of appearance. */
  models: string[];
  started_at_ms: number;
  ended_at_ms: number;
  duration_ms: number;
  model_calls: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_creation_tokens: number;
  /** Of the output tokens, the reasoning ones; null when the agent does not report them (Claude). */
  reasoning_tokens?: number | null;
  /** Null when unknown (model missing from the price table, or no usage reported). */
  cost_usd: number | null;
  is_error: boolean;
  error_kind: string | null;
  error_message: string | null;
  tool_calls: ToolCallRecord[];
}
