import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { codexMcpOverride } from './mcp-overrides.js';

describe("Codex's MCP servers come from the launch only", () => {
  it('replaces the whole table, even with no server', () => {
    assert.deepEqual(codexMcpOverride(undefined), ['-c', 'mcp_servers={  }']);
  });

  it('gives each server its allowed tools as enabled_tools, quoted as TOML', () => {
    const [, value] = codexMcpOverride({
      shop: { url: 'http://127.0.0.1:9/mcp', headers: { 'X-Key': 'a"b' }, allowed_tools: ['buy'] },
      local: { command: 'srv', args: ['--x'], allowed_tools: ['read', 'list'] },
    });
    assert.equal(
      value,
      'mcp_servers={ "shop" = { url = "http://127.0.0.1:9/mcp", http_headers = { "X-Key" = "a\\"b" }, enabled_tools = ["buy"] }, "local" = { command = "srv", args = ["--x"], enabled_tools = ["read", "list"] } }',
    );
  });

  it('refuses an SSE server, which Codex cannot reach', () => {
    assert.throws(
      () =>
        codexMcpOverride({
          s: { type: 'sse', url: 'https://x.example/sse', allowed_tools: ['a'] },
        }),
      /SSE/,
    );
  });
});
