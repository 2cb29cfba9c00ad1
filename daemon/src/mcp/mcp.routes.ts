import { McpToolList, McpToolsQuery } from '../../../contract/mcp.js';
import { apiError } from '../http/errors.js';
import type { RouteTable } from '../http/route.js';
import { listMcpTools } from './list-tools.js';
import { cleanListingReason } from './listing-reasons.js';
import { ListingsBusyError } from './listing-slots.js';

/**
 * `POST /api/mcp/tools`: the tools one server offers, for the launch form's allow-list. Keyed like
 * every route; the daemon connects as a client with a deadline, capped answers and no redirects,
 * and a plain-http URL must be on loopback (the contract refuses the rest).
 */
export function mcpRoutes(table: RouteTable, agentHome: string): void {
  table.add({
    method: 'POST',
    url: '/api/mcp/tools',
    tag: 'sessions',
    summary: "List an MCP server's tools (Relais connects to it as a client)",
    errors: [502, 503],
    body: McpToolsQuery,
    response: McpToolList,
    handler: async ({ body, reply }) => {
      // A client that goes away ends its listing (and the server's process group) at once.
      const gone = new AbortController();
      reply.raw.once('close', () => gone.abort());
      try {
        const place = { cwd: agentHome, home: agentHome };
        return await listMcpTools(body.server, place, undefined, undefined, gone.signal);
      } catch (error: unknown) {
        if (error instanceof ListingsBusyError) throw apiError('mcp_busy');
        const reason = cleanListingReason(error);
        throw apiError('mcp_unreachable', `The MCP server could not be listed: ${reason}`);
      }
    },
  });
}
