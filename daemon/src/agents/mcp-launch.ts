import { isAgentToolName, mcpToolId, type McpServer } from '../../../contract/mcp.js';

/** The tools each server offered when Relais asked at launch; null when it could not be asked. */
export type McpInventory = Record<string, readonly string[] | null>;

/** The full names (`mcp__server__tool`) of every tool the launch allowed. */
export function allowedMcpTools(servers: Record<string, McpServer> | undefined): string[] {
  return Object.entries(servers ?? {}).flatMap(([server, spec]) =>
    spec.allowed_tools.map((tool) => mcpToolId(server, tool)),
  );
}

/**
 * What to hide from the agent: each tool a server offers that the launch did not allow, and a
 * whole server (`mcp__server`) whose tools could not be listed, since what it offers is unknown.
 */
export function hiddenMcpTools(
  servers: Record<string, McpServer> | undefined,
  inventory: McpInventory | undefined,
): string[] {
  return Object.entries(servers ?? {}).flatMap(([server, spec]) => {
    const offered = inventory?.[server];
    if (offered === undefined || offered === null) return [`mcp__${server}`];
    const allowed = new Set(spec.allowed_tools);
    // A name off the rule is never joined into the agent's arguments (the engine refuses it anyway).
    return offered
      .filter((tool) => !allowed.has(tool) && isAgentToolName(tool))
      .map((tool) => mcpToolId(server, tool));
  });
}

/** The endpoint alone, as an agent's configuration names it (Relais' allow-list stays with Relais). */
export function mcpEndpointOf(
  spec: McpServer,
):
  | { type: 'stdio'; command: string; args: string[]; env: Record<string, string> }
  | { type: 'http' | 'sse'; url: string; headers: Record<string, string> } {
  if (spec.command !== undefined)
    return { type: 'stdio', command: spec.command, args: spec.args ?? [], env: spec.env ?? {} };
  return {
    type: spec.type === 'sse' ? 'sse' : 'http',
    url: spec.url ?? '',
    headers: spec.headers ?? {},
  };
}
