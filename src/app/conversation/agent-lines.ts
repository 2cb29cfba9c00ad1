import * as z from 'zod';

/**
 * The parts of Claude Code's lines the console reads with schemas of its own: the context line,
 * the turn's end, Relais' lines, a Bash result. Prompts, replies, tool calls and results are read
 * by Claude's decoder (contract/formats), shared with the daemon, the terminal and the first paint.
 */

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
