import type { PermissionMode } from '../../../contract/api.js';

export interface PolicyRequest {
  session_id: string;
  tool_name: string;
  input: Record<string, unknown>;
  cwd: string;
  permission_mode: PermissionMode;
  /** The MCP tools the session may use; when given, any other `mcp__` tool is refused. */
  mcp_tools?: readonly string[];
}

export interface PolicyDecision {
  decision: 'allow' | 'ask' | 'deny';
  step: string;
  rule: string | null;
  reason: string;
  /** What the agent is told on a refusal (the gate report); the reason when absent. */
  report?: string;
  /** The input to run instead of the agent's (a narrowed search); used by every allow. */
  updatedInput?: Record<string, unknown>;
}

/** The seam where every tool request is decided before a person is asked. */
export type PermissionPolicy = (request: PolicyRequest) => PolicyDecision;
