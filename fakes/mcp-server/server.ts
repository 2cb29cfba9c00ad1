import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/** One tool call the fake server ran: what a test checks to prove a refused tool never ran. */
export interface RecordedCall {
  tool: string;
  args: Record<string, unknown>;
}

export interface FakeMcpServer {
  /** The streamable HTTP endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  calls: RecordedCall[];
  /** How many `tools/list` requests it answered. */
  listings: number;
  close(): Promise<void>;
}

/** The three tools of the catalogue: a test allows some and proves the others never run. */
export const CATALOGUE_TOOLS = ['lookup', 'stock', 'delete_item'] as const;

const ITEMS: Record<string, { name: string; stock: number }> = {
  A1: { name: 'blue mug', stock: 12 },
  B2: { name: 'red kettle', stock: 0 },
};

export interface FakeMcpOptions {
  port?: number;
  /**
   * From the second tools/list on, a fourth tool (`restock`) appears: a server whose tools change
   * after Relais listed them at launch, which only the permission engine can then stop.
   */
  lateTool?: boolean;
}

function catalogue(recorded: FakeMcpServer, lateTool: boolean): McpServer {
  const server = new McpServer({ name: 'catalogue', version: '1.0.0' });
  const record = (tool: string, args: Record<string, unknown>): void => {
    recorded.calls.push({ tool, args });
  };
  const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
  server.registerTool(
    'lookup',
    {
      description: 'Finds an item of the catalogue by its code.',
      inputSchema: { code: z.string() },
    },
    ({ code }) => {
      record('lookup', { code });
      const item = ITEMS[code];
      return text(item ? `${code}: ${item.name}` : `${code}: no such item`);
    },
  );
  server.registerTool(
    'stock',
    { description: 'Tells how many of an item are in stock.', inputSchema: { code: z.string() } },
    ({ code }) => {
      record('stock', { code });
      return text(`${code}: ${ITEMS[code]?.stock ?? 0} in stock`);
    },
  );
  server.registerTool(
    'delete_item',
    { description: 'Removes an item from the catalogue.', inputSchema: { code: z.string() } },
    ({ code }) => {
      record('delete_item', { code });
      return text(`${code}: deleted`);
    },
  );
  if (lateTool && recorded.listings >= 2)
    server.registerTool(
      'restock',
      { description: 'Orders more of an item.', inputSchema: { code: z.string() } },
      ({ code }) => {
        record('restock', { code });
        return text(`${code}: ordered`);
      },
    );
  return server;
}

/** A real MCP server (the official SDK, streamable HTTP, stateless) on loopback. */
export function startFakeMcpServer(options: FakeMcpOptions = {}): Promise<FakeMcpServer> {
  const state: FakeMcpServer = { url: '', calls: [], listings: 0, close: async () => undefined };
  // Idle connections stay for minutes, as the demo model's do: an agent's next call may come on
  // its last connection after a person took longer than Node's default 5 s to allow a tool.
  const http = createServer({ keepAliveTimeout: 10 * 60_000 }, (req, res) => {
    void handle(state, options.lateTool === true, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });
  return new Promise((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, '127.0.0.1', () => {
      const address = http.address() as AddressInfo;
      state.url = `http://127.0.0.1:${address.port}/mcp`;
      state.close = () =>
        new Promise<void>((done) => {
          http.closeAllConnections();
          http.close(() => done());
        });
      resolve(state);
    });
  });
}

async function handle(
  state: FakeMcpServer,
  lateTool: boolean,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (new URL(req.url ?? '/', 'http://x').pathname !== '/mcp') {
    res.writeHead(404).end();
    return;
  }
  const body = req.method === 'POST' ? await readJson(req) : undefined;
  if (isToolsList(body)) state.listings++;
  const server = catalogue(state, lateTool);
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}

function isToolsList(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some(
    (m) =>
      m !== null && typeof m === 'object' && (m as { method?: unknown }).method === 'tools/list',
  );
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    req.on('error', reject);
  });
}
