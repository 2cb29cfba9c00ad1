import type { PermissionMode } from '../../../contract/api.js';
import type { PermissionAnswer } from '../agents/agent.js';
import type { PermissionPolicy, PolicyDecision } from '../agents/permission-policy.js';
import { destinationOf, type AllowedHosts } from './allowed-hosts.js';
import type { PermissionRepo } from './permission-repo.js';

/** The session a tool call comes from, and how to answer its agent. */
export interface AskContext {
  sessionId: string;
  subscriptionId: string;
  cwd: string;
  permissionMode: PermissionMode;
  /** The MCP tools the session's launch allowed; every other MCP tool is refused. */
  mcpTools: readonly string[];
  /** The session's choice: commands no rule decides run without a prompt (they run confined). */
  confinedWithoutAsking?: boolean;
  answer(answer: PermissionAnswer): void;
  onPendingChange(): void;
}

export const QUESTION_TOOLS = new Set(['AskUserQuestion']);

/**
 * The match key of an "allow for this session" rule: the exact command for Bash, the destination
 * for a command's connection (isolation/network-gate.ts), any use otherwise.
 */
export function sessionMatch(toolName: string, input: Record<string, unknown>): string {
  if (toolName === 'Network') return `host:${String(input['host'])}:${String(input['port'])}`;
  return toolName === 'Bash' && typeof input['command'] === 'string'
    ? `command:${input['command']}`
    : '*';
}

export interface VerdictDeps {
  repo: PermissionRepo;
  policy: () => PermissionPolicy;
  allowedHosts?: AllowedHosts;
}

interface Call {
  context: AskContext;
  toolName: string;
  input: Record<string, unknown>;
}

/** An allow that keeps the input the policy rewrote, if it did. */
const allow = (verdict: PolicyDecision, step: string, rule: string | null, reason: string) => ({
  decision: 'allow' as const,
  step,
  rule,
  reason,
  ...(verdict.updatedInput === undefined ? {} : { updatedInput: verdict.updatedInput }),
});

/**
 * A tool call's verdict before any person: the rules (the policy), then what the session's own
 * choices turn an ask into: commands confined without asking, a session rule, a host allowed always.
 */
export class AskVerdicts {
  constructor(private readonly deps: VerdictDeps) {}

  of(
    context: AskContext,
    toolName: string,
    input: Record<string, unknown>,
    isQuestion: boolean,
  ): PolicyDecision {
    const call = { context, toolName, input };
    const verdict = this.policyVerdict(call);
    const lifted = verdict.decision === 'ask' ? this.liftedAsk(call, verdict, isQuestion) : null;
    if (lifted) return lifted;
    return isQuestion && verdict.decision === 'allow' ? { ...verdict, decision: 'ask' } : verdict;
  }

  private policyVerdict({ context, toolName, input }: Call): PolicyDecision {
    try {
      return this.deps.policy()({
        session_id: context.sessionId,
        tool_name: toolName,
        input,
        cwd: context.cwd,
        permission_mode: context.permissionMode,
        mcp_tools: context.mcpTools,
      });
    } catch (error: unknown) {
      // Fail closed: a broken policy refuses rather than lets through.
      return {
        decision: 'deny',
        step: 'engine_error',
        rule: null,
        reason: `The permission engine failed: ${String(error)}`,
      };
    }
  }

  /** The allow a session's choices give an ask, or null when a person is still needed. */
  private liftedAsk(
    { context, toolName, input }: Call,
    verdict: PolicyDecision,
    isQuestion: boolean,
  ): PolicyDecision | null {
    // Only the ask of "no rule decided": an ask or deny rule (git push, rm -rf) still applies.
    if (verdict.step === 'default' && toolName === 'Bash' && context.confinedWithoutAsking === true)
      return allow(
        verdict,
        'confined',
        null,
        'Runs confined by the operating system; this session runs such commands without asking.',
      );
    const match = sessionMatch(toolName, input);
    if (!isQuestion && this.deps.repo.hasSessionRule(context.sessionId, toolName, match))
      return allow(
        verdict,
        'session_rule',
        `session:${toolName}`,
        'Allowed for this session by a person.',
      );
    const destination = toolName === 'Network' ? destinationOf(input) : null;
    if (destination && this.deps.allowedHosts?.has(destination.host, destination.port))
      return {
        decision: 'allow',
        step: 'allowed_host',
        rule: `host:${destination.host}:${destination.port}`,
        reason: 'Allowed always for this host and port by a person.',
      };
    return null;
  }
}
