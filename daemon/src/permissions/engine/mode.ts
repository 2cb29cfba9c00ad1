import { summarizeRequest, type ToolClass } from './tools.js';
import type { Decision, PermissionMode } from './types.js';

/** Families that change nothing on the machine: the only ones a read_only session lets through. */
const READ_ONLY_PASS: ReadonlySet<ToolClass> = new Set([
  'local_read',
  'network_read',
  'person',
  'bookkeeping',
]);

/** Step 1. Returns a decision, or null to go on to the path step. */
export function modeStep(
  mode: PermissionMode,
  tool: string,
  toolClass: ToolClass,
  input: Record<string, unknown>,
): Decision | null {
  if (mode === 'write' || READ_ONLY_PASS.has(toolClass)) return null;
  if (mode === 'read_only') {
    return {
      decision: 'deny',
      step: 'mode',
      rule: null,
      reason: `read-only session: ${tool} ${describe(toolClass)} is off; only reading and searching tools and questions pass`,
    };
  }
  return {
    decision: 'deny',
    step: 'mode',
    rule: null,
    reason: `dry run: would have run ${summarizeRequest(tool, input)}`,
  };
}

function describe(toolClass: ToolClass): string {
  switch (toolClass) {
    case 'bash':
      return '(shell commands)';
    case 'file_write':
      return '(file changes)';
    case 'subagent':
      return '(sub-agents)';
    case 'mcp':
      return '(MCP tools)';
    default:
      return '(not a known reading tool)';
  }
}
