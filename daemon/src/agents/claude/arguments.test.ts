import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { claudeArguments } from './arguments.js';

describe('Claude Code arguments', () => {
  it('always streams JSON both ways and asks the host for permissions', () => {
    const args = claudeArguments({ model: 'sonnet', effort: null, permissionMode: 'write' });
    for (const flag of [
      '-p',
      '--verbose',
      '--input-format',
      '--output-format',
      '--permission-prompt-tool',
    ])
      assert.ok(args.includes(flag), flag);
    assert.equal(args[args.indexOf('--permission-prompt-tool') + 1], 'stdio');
    assert.ok(args.includes('--model=sonnet'), 'values in equals form cannot inject a flag');
  });

  it('a value that starts with a dash stays a value', () => {
    const args = claudeArguments({
      model: '--dangerously-skip-permissions',
      effort: null,
      permissionMode: 'write',
    });
    assert.ok(!args.includes('--dangerously-skip-permissions'));
  });

  it('read-only sessions load no project settings or hooks; MCP servers are only those given', () => {
    const args = claudeArguments({
      model: 'x',
      effort: 'high',
      permissionMode: 'read_only',
      mcpServers: { docs: { command: 'docs-server', args: ['--stdio'], allowed_tools: ['find'] } },
      mcpInventory: { docs: ['find', 'erase'] },
    });
    assert.equal(args[args.indexOf('--setting-sources') + 1], '');
    assert.ok(args.includes('--effort=high'));
    assert.deepEqual(JSON.parse(args[args.indexOf('--mcp-config') + 1]!), {
      mcpServers: { docs: { type: 'stdio', command: 'docs-server', args: ['--stdio'], env: {} } },
    });
    assert.ok(args.includes('--strict-mcp-config'));
    assert.equal(args[args.indexOf('--disallowedTools') + 1], 'mcp__docs__erase');
  });

  it("without MCP servers the agent still loads none of the user's or the project's", () => {
    const args = claudeArguments({ model: 'x', effort: null, permissionMode: 'write' });
    assert.deepEqual(JSON.parse(args[args.indexOf('--mcp-config') + 1]!), { mcpServers: {} });
    assert.ok(args.includes('--strict-mcp-config'));
    assert.ok(!args.includes('--disallowedTools'));
  });

  it('a listed tool name off the tool-name rule is never joined into the arguments', () => {
    const offered = ['erase', 'x,Bash', 'a b', 'y'.repeat(65), 'ok-2', '名前'];
    const args = claudeArguments({
      model: 'x',
      effort: null,
      permissionMode: 'write',
      mcpServers: { docs: { command: 'docs-server', allowed_tools: ['find'] } },
      mcpInventory: { docs: offered },
    });
    assert.equal(args[args.indexOf('--disallowedTools') + 1], 'mcp__docs__erase,mcp__docs__ok-2');
  });

  it('a server that could not be listed at launch is hidden whole', () => {
    const args = claudeArguments({
      model: 'x',
      effort: null,
      permissionMode: 'write',
      mcpServers: { shop: { url: 'https://shop.example/mcp', allowed_tools: ['buy'] } },
      mcpInventory: { shop: null },
    });
    assert.equal(args[args.indexOf('--disallowedTools') + 1], 'mcp__shop');
    assert.deepEqual(JSON.parse(args[args.indexOf('--mcp-config') + 1]!).mcpServers.shop, {
      type: 'http',
      url: 'https://shop.example/mcp',
      headers: {},
    });
  });

  it('a resume continues the conversation by its id, in equals form', () => {
    const args = claudeArguments({
      model: 'x',
      effort: null,
      permissionMode: 'write',
      resumeId: '--fork-session',
    });
    assert.ok(args.includes('--resume=--fork-session'));
    assert.ok(!args.includes('--fork-session'));
    assert.ok(
      !claudeArguments({ model: 'x', effort: null, permissionMode: 'write' }).some((a) =>
        a.startsWith('--resume'),
      ),
    );
  });

  it('permanent instructions are appended to the system prompt, as one argument', () => {
    const text = '--dangerously-skip-permissions\nAnswer in French.';
    const args = claudeArguments({
      model: 'x',
      effort: null,
      permissionMode: 'write',
      instructions: text,
    });
    assert.ok(args.includes(`--append-system-prompt=${text}`));
    assert.ok(!args.includes('--dangerously-skip-permissions'));
    const none = claudeArguments({ model: 'x', effort: null, permissionMode: 'write' });
    assert.ok(!none.some((arg) => arg.startsWith('--append-system-prompt')));
  });
});
