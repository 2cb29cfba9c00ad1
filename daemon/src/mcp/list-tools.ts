import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { mcpUrlProblem, type McpEndpoint, type McpToolInfo } from '../../../contract/mcp.js';
import { GroupStdioTransport } from './group-stdio-transport.js';
import { ListingSlots } from './listing-slots.js';
import { ListingError, cleanListingReason, toolNameProblem } from './listing-reasons.js';

export interface ListLimits {
  timeoutMs: number;
  /** The most bytes of one HTTP answer read from the server. */
  maxResponseBytes: number;
  /** The most tools kept (and pages read). */
  maxTools: number;
}

/** A tool a server offered that Relais will not pass on, and why (its name is shown cut and escaped). */
export interface SkippedTool {
  name: string;
  reason: string;
}

export interface ToolListing {
  tools: McpToolInfo[];
  skipped: SkippedTool[];
}

/** At most this many listings run at once (each may be a process); the others wait their turn. */
export const LISTING_SLOTS = new ListingSlots(4, 16);

export const LIST_LIMITS: ListLimits = {
  timeoutMs: 5000,
  maxResponseBytes: 1024 * 1024,
  maxTools: 500,
};

const DESCRIPTION_MAX = 1000;

/** Where a stdio server runs while it is listed: the folder and the HOME the agents get. */
export interface StdioPlace {
  cwd: string;
  home: string;
}

/**
 * Connects to one MCP server as a client (the official SDK) and lists its tools. Bounded: one
 * deadline for everything (the wait for a slot included), answers capped in size, no redirect
 * followed, at most maxTools tools, a stdio server in its own process group that is killed on every
 * way out. A tool whose name breaks the agents' rule is skipped with its reason. Every error thrown
 * is a ListingError whose message is short and clean (never what the server wrote).
 */
export async function listMcpTools(
  server: McpEndpoint,
  place: StdioPlace,
  limits: ListLimits = LIST_LIMITS,
  slots: ListingSlots = LISTING_SLOTS,
  /** Ends the listing early (the client went away): the same way out as the deadline. */
  cancel?: AbortSignal,
): Promise<ToolListing> {
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const deadline = cancel ? AbortSignal.any([timeout, cancel]) : timeout;
  const release = await slots.acquire(deadline);
  try {
    return await listWithin(server, place, limits, deadline);
  } catch (error: unknown) {
    if (cancel?.aborted) throw new ListingError('the listing was cancelled');
    if (deadline.aborted)
      throw new ListingError(`the server did not answer within ${limits.timeoutMs} ms`);
    throw new ListingError(cleanListingReason(error));
  } finally {
    release();
  }
}

async function listWithin(
  server: McpEndpoint,
  place: StdioPlace,
  limits: ListLimits,
  deadline: AbortSignal,
): Promise<ToolListing> {
  const transport = transportFor(server, place, limits, deadline);
  const client = new Client({ name: 'relais', version: '0.1.0' });
  const work = (async () => {
    await client.connect(transport, { signal: deadline, timeout: limits.timeoutMs });
    const listing: ToolListing = { tools: [], skipped: [] };
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor }, {
        signal: deadline,
        timeout: limits.timeoutMs,
      });
      for (const tool of page.tools) {
        if (listing.tools.length + listing.skipped.length >= limits.maxTools) return listing;
        const problem = toolNameProblem(tool.name);
        if (problem)
          listing.skipped.push({ name: JSON.stringify(tool.name.slice(0, 80)), reason: problem });
        else
          listing.tools.push({
            name: tool.name,
            description: tool.description?.slice(0, DESCRIPTION_MAX) ?? null,
          });
      }
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return listing;
  })();
  const timedOut = new Promise<never>((_, reject) => {
    deadline.addEventListener('abort', () => reject(new Error('deadline')), { once: true });
  });
  try {
    return await Promise.race([work, timedOut]);
  } catch (error: unknown) {
    if (transport instanceof GroupStdioTransport && transport.failure)
      throw new ListingError(transport.failure);
    throw error;
  } finally {
    work.catch(() => undefined);
    timedOut.catch(() => undefined);
    await client.close().catch(() => undefined);
    // The client closes a connected transport; one that failed to connect is closed here.
    await transport.close().catch(() => undefined);
  }
}

function transportFor(
  server: McpEndpoint,
  place: StdioPlace,
  limits: ListLimits,
  deadline: AbortSignal,
): Transport {
  if (server.command !== undefined) {
    return new GroupStdioTransport({
      command: server.command,
      args: server.args ?? [],
      // Nothing of the daemon's own environment (its key among others) reaches the server.
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: place.home, ...server.env },
      cwd: place.cwd,
      maxMessageBytes: limits.maxResponseBytes,
    });
  }
  const url = server.url ?? '';
  const problem = mcpUrlProblem(url);
  if (problem) throw new Error(`url ${problem}`);
  const init: RequestInit = { headers: server.headers ?? {}, redirect: 'error' };
  const fetch = cappedFetch(limits.maxResponseBytes, deadline);
  return server.type === 'sse'
    ? new SSEClientTransport(new URL(url), { requestInit: init, fetch })
    : new StreamableHTTPClientTransport(new URL(url), { requestInit: init, fetch });
}

/** fetch that never follows a redirect, stops at the deadline and cuts an answer past maxBytes. */
function cappedFetch(maxBytes: number, deadline: AbortSignal) {
  return async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    const response = await fetch(input, { ...init, redirect: 'error', signal });
    if (!response.body) return response;
    let seen = 0;
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBytes) controller.error(new Error(`the answer is over ${maxBytes} bytes`));
        else controller.enqueue(chunk);
      },
    });
    return new Response(response.body.pipeThrough(counter), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
