import type { McpServer } from '../../../contract/mcp.js';
import { hiddenMcpTools } from '../agents/mcp-launch.js';
import type { InventoryResult } from '../mcp/inventory.js';

export interface McpServerSummary {
  /** Where it is: the URL, or the command (its arguments and environment are not repeated). */
  endpoint: string;
  allowed_tools: string[];
  /** What the agent was kept from seeing: tools the server offered beyond the allowed ones. */
  hidden_tools: string[];
  /** Why the server could not be listed at launch (then the agent saw none of its tools). */
  error: string | null;
  /**
   * Tools offered under a name off the tool-name rule: never named in the agent's arguments, and
   * refused by the permission engine if the agent calls them (they are not allowed).
   */
  skipped_tools: { name: string; reason: string }[];
}

/** What the session's start event says of its MCP servers, for the conversation's context panel. */
export function mcpSummary(
  servers: Record<string, McpServer>,
  listed: InventoryResult | undefined,
): Record<string, McpServerSummary> {
  return Object.fromEntries(
    Object.entries(servers).map(([name, spec]) => [
      name,
      {
        endpoint: spec.url ?? spec.command ?? '',
        allowed_tools: spec.allowed_tools,
        hidden_tools: hiddenMcpTools({ [name]: spec }, listed?.inventory),
        error: listed?.errors[name] ?? null,
        skipped_tools: listed?.skipped[name] ?? [],
      },
    ]),
  );
}
