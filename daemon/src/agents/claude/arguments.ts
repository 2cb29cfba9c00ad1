import type { Effort, McpServer, PermissionMode } from '../../../../contract/api.js';

export interface ClaudeLaunch {
  model: string;
  effort: Effort | null;
  permissionMode: PermissionMode;
  mcpServers?: Record<string, McpServer>;
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
  if (launch.mcpServers && Object.keys(launch.mcpServers).length > 0) {
    args.push(
      '--mcp-config',
      JSON.stringify({ mcpServers: launch.mcpServers }),
      '--strict-mcp-config',
    );
  }
  // Read-only sessions run without the project's hooks and settings files.
  if (launch.permissionMode === 'read_only') args.push('--setting-sources', '');
  return args;
}
