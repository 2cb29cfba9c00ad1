/** MCP servers given to one session at launch, and the tool listing of a server. Pure zod. */
import * as z from 'zod';

export const MCP_SERVERS_MAX = 8;
export const MCP_ALLOWED_TOOLS_MAX = 100;

/**
 * A server or tool name as the agents spell it in `mcp__<server>__<tool>`: letters, digits, `_`
 * and `-`, without a double underscore (which would make the full name ambiguous).
 */
const mcpName = (what: string) =>
  z
    .string()
    .regex(
      /^(?!.*__)[A-Za-z0-9_-]{1,64}$/,
      `${what}: 1 to 64 letters, digits, "_" or "-", without "__"`,
    );
export const McpServerName = mcpName('an MCP server name');

/**
 * The tool-name rule of the agents for a tool a server offers (the model APIs accept
 * `^[a-zA-Z0-9_-]{1,64}$`; Claude Code joins `mcp__<server>__<tool>` names into one comma-separated
 * argument). A listed name off this rule is never passed to an agent.
 */
export const isAgentToolName = (name: string): boolean => /^[A-Za-z0-9_-]{1,64}$/.test(name);
export const McpToolName = mcpName('an MCP tool name');

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Why a server URL is refused, or null: https anywhere, plain http on loopback only, no credentials. */
export function mcpUrlProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be http or https';
  if (url.username !== '' || url.password !== '') return 'must not carry credentials (use headers)';
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname))
    return 'plain http is accepted on loopback only (127.0.0.1, localhost, [::1]); use https';
  return null;
}

const McpUrl = z
  .string()
  .max(2048)
  .superRefine((value, context) => {
    const problem = mcpUrlProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: `url ${problem}` });
  });

const headers = z
  .record(z.string().regex(/^[A-Za-z0-9-]{1,100}$/), z.string().max(4096))
  .refine((value) => Object.keys(value).length <= 20, 'at most 20 headers');

const endpointShape = {
  type: z
    .enum(['stdio', 'http', 'sse'])
    .optional()
    .describe('stdio with a command; http (streamable HTTP, the default) or sse with a url'),
  command: z.string().min(1).max(4096).optional(),
  args: z.array(z.string().max(4096)).max(100).optional(),
  env: z
    .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,100}$/), z.string().max(4096))
    .optional(),
  url: McpUrl.optional(),
  headers: headers.optional(),
};

type EndpointFields = {
  type?: 'stdio' | 'http' | 'sse' | undefined;
  command?: string | undefined;
  args?: unknown;
  env?: unknown;
  url?: string | undefined;
  headers?: unknown;
};

/** Exactly one of command (stdio) and url (http, sse), each with its own fields only. */
function endpointProblem(server: EndpointFields): string | null {
  if ((server.command === undefined) === (server.url === undefined))
    return 'an MCP server gives either a command (stdio) or a url (http, sse)';
  if (server.command !== undefined) {
    if (server.type !== undefined && server.type !== 'stdio')
      return 'a server with a command is of type stdio';
    if (server.headers !== undefined) return 'headers go with a url, not a command';
  } else {
    if (server.type === 'stdio') return 'a stdio server gives a command, not a url';
    if (server.args !== undefined || server.env !== undefined)
      return 'args and env go with a command, not a url';
  }
  return null;
}

const checkEndpoint = (server: EndpointFields, context: z.RefinementCtx): void => {
  const problem = endpointProblem(server);
  if (problem) context.addIssue({ code: 'custom', message: problem });
};

/** Where a server is: a command the agent spawns, or a URL it connects to. */
export const McpEndpoint = z.object(endpointShape).strict().superRefine(checkEndpoint);
export type McpEndpoint = z.infer<typeof McpEndpoint>;

export const McpAllowedTools = z
  .array(McpToolName)
  .min(1, `allowed_tools lists 1 to ${MCP_ALLOWED_TOOLS_MAX} tool names`)
  .max(MCP_ALLOWED_TOOLS_MAX, `allowed_tools lists 1 to ${MCP_ALLOWED_TOOLS_MAX} tool names`)
  .refine((names) => new Set(names).size === names.length, 'allowed_tools lists a name twice');

/** One server of a launch: its endpoint and the only tools of it the session may see and use. */
export const McpServer = z
  .object({ ...endpointShape, allowed_tools: McpAllowedTools })
  .strict()
  .superRefine(checkEndpoint);
export type McpServer = z.infer<typeof McpServer>;

export const McpServers = z
  .record(z.string().max(200), McpServer)
  .superRefine((servers, context) => {
    const names = Object.keys(servers);
    if (names.length < 1 || names.length > MCP_SERVERS_MAX)
      context.addIssue({
        code: 'custom',
        message: `mcp_servers gives 1 to ${MCP_SERVERS_MAX} servers`,
      });
    for (const name of names) {
      const named = McpServerName.safeParse(name);
      if (!named.success)
        context.addIssue({ code: 'custom', path: [name], message: named.error.issues[0]!.message });
    }
  })
  .describe(
    `MCP servers for this session only (the agent loads no other), at most ${MCP_SERVERS_MAX}; each names the tools it may use`,
  );

/** The full name an agent gives one tool of one server. */
export const mcpToolId = (server: string, tool: string): string => `mcp__${server}__${tool}`;

export const McpToolsQuery = z.object({ server: McpEndpoint }).strict();

export const McpToolInfo = z.object({
  name: z.string(),
  description: z.string().nullable(),
});
export type McpToolInfo = z.infer<typeof McpToolInfo>;

export const McpToolList = z.object({
  tools: z.array(McpToolInfo),
  skipped: z
    .array(z.object({ name: z.string(), reason: z.string() }))
    .default([])
    .describe('Tools the server offered whose names break the tool-name rule: never passed on'),
});
export type McpToolList = z.infer<typeof McpToolList>;
