import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { mcpUrlProblem, type McpEndpoint, type McpToolInfo } from '../../../contract/mcp.js';

export interface ListLimits {
  timeoutMs: number;
  /** The most bytes of one HTTP answer read from the server. */
  maxResponseBytes: number;
  /** The most tools kept (and pages read). */
  maxTools: number;
}

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
 * deadline for everything, answers capped in size, no redirect followed, at most maxTools tools.
 */
export async function listMcpTools(
  server: McpEndpoint,
  place: StdioPlace,
  limits: ListLimits = LIST_LIMITS,
): Promise<McpToolInfo[]> {
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  const transport = transportFor(server, place, limits, deadline);
  const client = new Client({ name: 'relais', version: '0.1.0' });
  const work = (async () => {
    await client.connect(transport, { signal: deadline, timeout: limits.timeoutMs });
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor }, {
        signal: deadline,
        timeout: limits.timeoutMs,
      });
      for (const tool of page.tools) {
        if (tools.length >= limits.maxTools) return tools;
        tools.push({
          name: tool.name.slice(0, 200),
          description: tool.description?.slice(0, DESCRIPTION_MAX) ?? null,
        });
      }
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools;
  })();
  const timedOut = new Promise<never>((_, reject) => {
    deadline.addEventListener('abort', () =>
      reject(new Error(`the server did not answer within ${limits.timeoutMs} ms`)),
    );
  });
  try {
    return await Promise.race([work, timedOut]);
  } finally {
    work.catch(() => undefined);
    await client.close().catch(() => undefined);
  }
}

function transportFor(
  server: McpEndpoint,
  place: StdioPlace,
  limits: ListLimits,
  deadline: AbortSignal,
): Transport {
  if (server.command !== undefined) {
    return new StdioClientTransport({
      command: server.command,
      args: server.args ?? [],
      // Nothing of the daemon's own environment (its key among others) reaches the server.
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: place.home, ...server.env },
      cwd: place.cwd,
      stderr: 'ignore',
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
