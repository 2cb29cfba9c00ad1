import type { Decision } from './types.js';

/** The rule the MCP step cites: a session may use only the MCP tools its launch listed. */
export const MCP_ALLOWED_TOOLS_RULE = 'mcp-allowed-tools';

/**
 * Step 0, for MCP tools only: a tool the launch did not allow is refused, whatever the mode and
 * the rules. Null lets an allowed tool (or any MCP tool when no list applies) go on to the mode.
 */
export function mcpStep(tool: string, allowed: readonly string[] | undefined): Decision | null {
  if (allowed === undefined || allowed.includes(tool)) return null;
  const server = /^mcp__(.+?)__/.exec(tool)?.[1];
  const given = allowed.filter(
    (name) => server !== undefined && name.startsWith(`mcp__${server}__`),
  );
  const reason =
    given.length === 0
      ? `${tool} belongs to no MCP server given to this session at launch`
      : `${tool} is not among the tools this session's launch allowed for MCP server "${server}" (${given.map((name) => name.slice(`mcp__${server}__`.length)).join(', ')})`;
  return { decision: 'deny', step: 'mcp', rule: MCP_ALLOWED_TOOLS_RULE, reason };
}
