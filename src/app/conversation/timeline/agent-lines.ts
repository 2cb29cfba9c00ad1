import * as z from 'zod';

/**
 * The parts of Claude Code's lines the console reads with schemas of its own: the context line,
 * Relais' lines, a Bash result. Prompts, replies, tool calls, results and the turn's end are read
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

export const RelaisLine = z.object({ type: z.literal('relais'), subtype: z.string() }).loose();

/** What a Bash result adds (other tools' results are read by their own code: see patchOf). */
export const BashResult = z.object({
  stdout: z.string().optional(),
  stderr: z.string().optional(),
  interrupted: z.boolean().optional(),
});
