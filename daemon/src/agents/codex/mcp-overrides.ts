import type { McpServer } from '../../../../contract/mcp.js';

/** TOML string: JSON's escaping is a valid TOML basic string. */
const toml = (value: string): string => JSON.stringify(value);
const tomlList = (values: readonly string[]): string => `[${values.map(toml).join(', ')}]`;
const tomlTable = (record: Record<string, string>): string =>
  `{ ${Object.entries(record)
    .map(([key, value]) => `${toml(key)} = ${toml(value)}`)
    .join(', ')} }`;

/** One server as Codex's `mcp_servers` entry reads it, with its own allow-list (`enabled_tools`). */
function serverTable(spec: McpServer): string {
  const fields: string[] = [];
  if (spec.command !== undefined) {
    fields.push(`command = ${toml(spec.command)}`, `args = ${tomlList(spec.args ?? [])}`);
    if (spec.env && Object.keys(spec.env).length > 0) fields.push(`env = ${tomlTable(spec.env)}`);
  } else {
    // Codex speaks streamable HTTP only: an SSE server is refused before the start.
    if (spec.type === 'sse') throw new Error('Codex does not connect to SSE MCP servers; use http');
    fields.push(`url = ${toml(spec.url ?? '')}`);
    if (spec.headers && Object.keys(spec.headers).length > 0)
      fields.push(`http_headers = ${tomlTable(spec.headers)}`);
  }
  fields.push(`enabled_tools = ${tomlList(spec.allowed_tools)}`);
  return `{ ${fields.join(', ')} }`;
}

/**
 * The `-c` override that gives the app-server exactly the launch's MCP servers: the whole
 * `mcp_servers` table is replaced (an empty one when none were given), so neither the
 * subscription's config.toml nor a project's adds one, and each server offers only its
 * allowed tools. On the command line rather than in config.toml, which the sessions of one
 * subscription share.
 */
export function codexMcpOverride(servers: Record<string, McpServer> | undefined): string[] {
  const entries = Object.entries(servers ?? {}).map(
    ([name, spec]) => `${toml(name)} = ${serverTable(spec)}`,
  );
  return ['-c', `mcp_servers={ ${entries.join(', ')} }`];
}
