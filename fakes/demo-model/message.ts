import { randomBytes } from 'node:crypto';

import { usageFor, type DemoUsage, type PlannedBlock, type ReplyPlan } from './plan.js';

export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

/** A Messages API `Message` as returned for `stream:false`. */
export interface DemoMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: ContentBlock[];
  stop_reason: string;
  stop_sequence: null;
  usage: DemoUsage;
}

export function newId(prefix: string): string {
  return `${prefix}_demo_${randomBytes(12).toString('hex')}`;
}

export function buildMessage(plan: ReplyPlan, model: string): DemoMessage {
  return {
    id: newId('msg'),
    type: 'message',
    role: 'assistant',
    model,
    content: plan.blocks.map(withId),
    stop_reason: plan.stopReason,
    stop_sequence: null,
    usage: usageFor(plan),
  };
}

function withId(block: PlannedBlock): ContentBlock {
  return block.type === 'tool_use' ? { ...block, id: newId('toolu') } : { ...block };
}
