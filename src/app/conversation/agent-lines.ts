import * as z from 'zod';
import { isRecord } from '../shared/is-record';

export { isTranscriptPrompt } from './transcript-prompt';

/** The parts of Claude Code's stream-json lines the console shows, parsed from `unknown`. */

const TextBlock = z.object({ type: z.literal('text'), text: z.string() });
const ThinkingBlock = z.object({ type: z.literal('thinking'), thinking: z.string() });
const ToolUseBlock = z.object({
  type: z.literal('tool_use'),
  id: z.string(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()).catch({}),
});
const ToolResultBlock = z.object({
  type: z.literal('tool_result'),
  tool_use_id: z.string(),
  content: z
    .union([z.string(), z.array(z.object({ type: z.string(), text: z.string().optional() }))])
    .optional(),
  is_error: z.boolean().optional(),
});
/**
 * A content block of any type, read again by its own schema where it is used: the block is kept
 * as it came, not copied (a loose object schema copies every key, one allocation per key, for
 * every block of every line read).
 */
type AnyBlock = Record<string, unknown> & { type: string };
const AnyBlock = z.custom<AnyBlock>(
  (value) => isRecord(value) && typeof value['type'] === 'string',
);

export const AssistantLine = z.object({
  type: z.literal('assistant'),
  message: z.object({ content: z.array(AnyBlock) }),
  parent_tool_use_id: z.string().nullable().optional(),
});

export const UserLine = z.object({
  type: z.literal('user'),
  message: z.object({ content: z.union([z.string(), z.array(AnyBlock)]) }),
  tool_use_result: z.unknown().optional(),
  parent_tool_use_id: z.string().nullable().optional(),
});

export const InitLine = z.object({
  type: z.literal('system'),
  subtype: z.literal('init'),
  model: z.string().optional(),
  cwd: z.string().optional(),
  tools: z.array(z.string()).optional(),
  mcp_servers: z
    .array(z.object({ name: z.string(), status: z.string().optional() }).loose())
    .optional(),
  permissionMode: z.string().optional(),
  slash_commands: z.array(z.string()).optional(),
});
export type InitLine = z.infer<typeof InitLine>;

export const ResultLine = z.object({
  type: z.literal('result'),
  subtype: z.string().optional(),
  is_error: z.boolean().optional(),
  duration_ms: z.number().optional(),
  total_cost_usd: z.number().optional(),
  result: z.string().optional(),
  num_turns: z.number().optional(),
  terminal_reason: z.string().optional(),
});

export const RelaisLine = z.object({ type: z.literal('relais'), subtype: z.string() }).loose();

/** What a Bash result adds (other tools' results are read by their own code: see patchOf). */
export const BashResult = z.object({
  stdout: z.string().optional(),
  stderr: z.string().optional(),
  interrupted: z.boolean().optional(),
});

export { TextBlock, ThinkingBlock, ToolResultBlock, ToolUseBlock };

/** The text of a tool_result's content (a string, or text parts). */
export function resultContentText(content: z.infer<typeof ToolResultBlock>['content']): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => part.text ?? `[${part.type}]`).join('\n');
}

/** The plain text of a user message (host lines), or null when it carries none. */
export function userText(content: z.infer<typeof UserLine>['message']['content']): string | null {
  if (typeof content === 'string') return content;
  const texts = content.flatMap((block) => {
    const text = TextBlock.safeParse(block);
    return text.success ? [text.data.text] : [];
  });
  return texts.length ? texts.join('\n') : null;
}
