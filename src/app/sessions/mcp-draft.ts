import { MCP_SERVERS_MAX, McpServer, McpToolInfo } from '../../../contract/mcp';

export { MCP_SERVERS_MAX };

/** One MCP server being written in the launch form. */
export interface McpDraft {
  key: number;
  name: string;
  /** A URL (http, https), or a command line split on spaces. */
  where: string;
  /** The tools the server listed; null until listed. */
  listed: McpToolInfo[] | null;
  /** Ticked (or typed) tool names. */
  allowed: string[];
  listing: boolean;
  listError: string | null;
}

let nextKey = 1;

export function newDraft(existing: readonly McpDraft[]): McpDraft {
  const taken = new Set(existing.map((d) => d.name));
  let n = existing.length + 1;
  while (taken.has(`server${n}`)) n++;
  return {
    key: nextKey++,
    name: `server${n}`,
    where: '',
    listed: null,
    allowed: [],
    listing: false,
    listError: null,
  };
}

/** The endpoint a draft names, as the API reads it; null while it names nothing. */
export function endpointOf(
  draft: McpDraft,
): { url: string } | { command: string; args: string[] } | null {
  const text = draft.where.trim();
  if (text === '') return null;
  if (/^https?:\/\//i.test(text)) return { url: text };
  const [command = '', ...args] = text.split(/\s+/);
  return { command, args };
}

/** The launch body's `mcp_servers` (left out when there is none); the daemon validates the rest. */
export function mcpServersOf(drafts: readonly McpDraft[]): Record<string, McpServer> | undefined {
  if (drafts.length === 0) return undefined;
  return Object.fromEntries(
    drafts.map((draft) => [
      draft.name.trim(),
      { ...endpointOf(draft), allowed_tools: draft.allowed },
    ]),
  );
}

/** What the form must say before sending, or null. */
export function draftProblem(draft: McpDraft): string | null {
  if (!/^(?!.*__)[A-Za-z0-9_-]{1,64}$/.test(draft.name.trim()))
    return 'Name: letters, digits, "_" or "-" (no "__").';
  if (endpointOf(draft) === null) return $localize`Give a URL or a command.`;
  if (draft.allowed.length === 0) return $localize`Allow at least one tool.`;
  return null;
}
