import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decide } from './decide.js';
import { DEFAULT_RULES } from './default-rules.js';

const ctx = { rules: DEFAULT_RULES, dataDir: '/nonexistent-relais', homeDir: '/nonexistent-home' };
const ask = (tool_name: string, mcp_tools?: string[], permission_mode = 'write' as const) =>
  decide(
    {
      tool_name,
      input: { code: 'A1' },
      cwd: '/tmp',
      permission_mode,
      ...(mcp_tools ? { mcp_tools } : {}),
    },
    ctx,
  );

describe('MCP step: only the tools the launch allowed', () => {
  it('refuses an unlisted tool of a given server, citing the rule and the allowed ones', () => {
    const d = ask('mcp__shop__delete', ['mcp__shop__lookup', 'mcp__shop__stock']);
    assert.deepEqual([d.decision, d.step, d.rule], ['deny', 'mcp', 'mcp-allowed-tools']);
    assert.match(d.reason, /server "shop" \(lookup, stock\)/);
  });

  it('refuses a tool of a server the launch did not give, and any MCP tool when none was given', () => {
    assert.match(ask('mcp__other__x', ['mcp__shop__lookup']).reason, /no MCP server given/);
    assert.equal(ask('mcp__shop__lookup', []).decision, 'deny');
  });

  it('lets a listed tool on to the other steps (a person in write mode, refused in read_only)', () => {
    assert.equal(ask('mcp__shop__lookup', ['mcp__shop__lookup']).decision, 'ask');
    assert.equal(
      ask('mcp__shop__lookup', ['mcp__shop__lookup'], 'read_only' as 'write').step,
      'mode',
    );
  });

  it('a look-alike name is not the listed tool', () => {
    assert.equal(ask('mcp__shop__lookup2', ['mcp__shop__lookup']).decision, 'deny');
    assert.equal(ask('mcp__shop__lookup ', ['mcp__shop__lookup']).decision, 'deny');
  });
});
