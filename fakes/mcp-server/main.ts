import { CATALOGUE_TOOLS, startFakeMcpServer } from './server.js';

// `node dist/daemon/fakes/mcp-server/main.js [port]`: the catalogue MCP server for trying launches by hand.
const port = Number.parseInt(process.argv[2] ?? '9500', 10);
const server = await startFakeMcpServer({ port: Number.isFinite(port) ? port : 9500 });
process.stdout.write(
  `catalogue MCP server on ${server.url} (tools: ${CATALOGUE_TOOLS.join(', ')})\n`,
);
