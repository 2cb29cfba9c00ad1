import type { Effort, McpServer, PermissionMode } from '../../../../contract/api.js';
import { hiddenMcpTools, mcpEndpointOf, type McpInventory } from '../mcp-launch.js';

export interface ClaudeLaunch {
  model: string;
  effort: Effort | null;
  permissionMode: PermissionMode;
  mcpServers?: Record<string, McpServer>;
  mcpInventory?: McpInventory;
  /** Claude's own session id of an earlier conversation to continue. */
  resumeId?: string | null;
  /** Relais' permanent instructions, appended to Claude Code's own system prompt. */
  instructions?: string | null;
  /** Settings of this launch alone (the command sandbox), as JSON. */
  settings?: Record<string, unknown> | null;
}

/** The argument array (no shell ever parses it). */
export function claudeArguments(launch: ClaudeLaunch): string[] {
  const args = [
    '-p',
    '--input-format',
    'stream-json',
    '--output-format',
    'stream-json',
    '--verbose',
    '--permission-prompt-tool',
    'stdio',
    '--permission-mode',
    'default',
    `--model=${launch.model}`,
    // Without this the pinned Claude Code has no Grep or Glob (it searches with grep and find through
    // Bash, which read-only sessions refuse). Every search still passes the gate's PreToolUse hook
    // first, which narrows it or refuses it (and never leaves a search to a person).
    '--allowedTools',
    'Grep,Glob',
  ];
  if (launch.effort) args.push(`--effort=${launch.effort}`);
  if (launch.resumeId) args.push(`--resume=${launch.resumeId}`);
  // Only the launch's servers, never the user's, the project's or a plugin's; of those, the tools
  // the launch did not allow are taken out of the agent's sight (the engine refuses them as well).
  const servers = Object.fromEntries(
    Object.entries(launch.mcpServers ?? {}).map(([name, spec]) => [name, mcpEndpointOf(spec)]),
  );
  args.push('--mcp-config', JSON.stringify({ mcpServers: servers }), '--strict-mcp-config');
  const hidden = hiddenMcpTools(launch.mcpServers, launch.mcpInventory);
  if (hidden.length > 0) args.push('--disallowedTools', hidden.join(','));
  // One argument (name=value): a text that starts with a dash stays the value.
  if (launch.instructions) args.push(`--append-system-prompt=${launch.instructions}`);
  // Read-only sessions run without the project's hooks and settings files.
  if (launch.permissionMode === 'read_only') args.push('--setting-sources', '');
  if (launch.settings) args.push('--settings', JSON.stringify(launch.settings));
  return args;
}
