/** A scripted answer: either a model reply (streamed or not) or an HTTP error. */
export type PlannedBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'tool_use'; name: string; input: Record<string, unknown> };

export type StopReason = 'end_turn' | 'tool_use';

export interface ReplyPlan {
  kind: 'reply';
  script: string;
  step: number;
  blocks: PlannedBlock[];
  stopReason: StopReason;
  /** Spread the text deltas over this many milliseconds (before delayScale). */
  streamDurationMs?: number;
  /** Input tokens reported on top of the usual ones (demo:heavy). */
  extraInputTokens?: number;
}

export interface ErrorPlan {
  kind: 'error';
  script: string;
  step: number;
  status: number;
  errorType: string;
  message: string;
  headers: Record<string, string>;
}

export type Plan = ReplyPlan | ErrorPlan;

export interface DemoUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  output_tokens: number;
}

/**
 * Deterministic usage so tests can predict totals:
 * input = 100 + 10 * step, cache read 50, cache creation 20,
 * output = 5 + ceil(characters / 4) over text, thinking and tool-input JSON.
 */
export function usageFor(plan: ReplyPlan): DemoUsage {
  return {
    input_tokens: 100 + 10 * plan.step + (plan.extraInputTokens ?? 0),
    cache_creation_input_tokens: 20,
    cache_read_input_tokens: 50,
    output_tokens: outputTokensFor(plan.blocks),
  };
}

export function outputTokensFor(blocks: PlannedBlock[]): number {
  let chars = 0;
  for (const block of blocks) {
    if (block.type === 'text') chars += block.text.length;
    else if (block.type === 'thinking') chars += block.thinking.length;
    else chars += JSON.stringify(block.input).length;
  }
  return 5 + Math.ceil(chars / 4);
}
