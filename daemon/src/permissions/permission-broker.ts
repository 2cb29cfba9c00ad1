import type { PermissionDecisionBody, PermissionMode } from '../../../contract/api.js';
import type { ControlRequestLine } from '../agents/claude/claude-process.js';
import type { EventStore } from '../events/event-store.js';
import { apiError } from '../http/errors.js';
import { newId, nowIso } from '../ids.js';
import type { GlobalHub } from '../live/global-hub.js';
import { publicPermission, type PermissionRepo, type StoredPermission } from './permission-repo.js';
import type { PermissionPolicy, PolicyDecision } from './policy.js';

/** What goes back to the agent for one can_use_tool request. */
export type PermissionAnswer =
  | { behavior: 'allow'; updatedInput: Record<string, unknown> }
  | { behavior: 'deny'; message: string };

export interface AskContext {
  sessionId: string;
  cwd: string;
  permissionMode: PermissionMode;
  answer(answer: PermissionAnswer): void;
  onPendingChange(): void;
}

interface Waiting {
  context: AskContext;
  timer: NodeJS.Timeout;
}

const QUESTION_TOOLS = new Set(['AskUserQuestion']);

/** The match key of an "allow for this session" rule: the exact command for Bash, any use otherwise. */
function sessionMatch(toolName: string, input: Record<string, unknown>): string {
  return toolName === 'Bash' && typeof input['command'] === 'string' ? `command:${input['command']}` : '*';
}

/**
 * Turns every can_use_tool request into a decision: the policy first, then a session rule, then a
 * pending request a person answers (or the timeout refuses).
 */
export class PermissionBroker {
  private readonly waiting = new Map<string, Waiting>();

  constructor(
    private readonly repo: PermissionRepo,
    private readonly events: EventStore,
    private readonly hub: GlobalHub,
    private readonly policy: () => PermissionPolicy,
    private readonly timeoutMs: number,
  ) {}

  open(line: ControlRequestLine, context: AskContext): void {
    const request = line.request;
    const toolName = typeof request['tool_name'] === 'string' ? request['tool_name'] : 'unknown';
    const input = (request['input'] && typeof request['input'] === 'object' ? request['input'] : {}) as Record<string, unknown>;
    const isQuestion = QUESTION_TOOLS.has(toolName);
    const verdict = this.evaluate(context, toolName, input, isQuestion);
    if (verdict.decision !== 'ask') {
      this.record(context.sessionId, { subtype: 'permission_auto', tool_name: toolName, tool_use_id: request['tool_use_id'] ?? null, ...verdict });
      context.answer(
        verdict.decision === 'allow'
          ? { behavior: 'allow', updatedInput: input }
          : { behavior: 'deny', message: verdict.reason },
      );
      return;
    }
    const createdAt = Date.now();
    const permission: StoredPermission = {
      id: newId('perm'),
      session_id: context.sessionId,
      control_request_id: line.request_id,
      tool_name: toolName,
      tool_use_id: typeof request['tool_use_id'] === 'string' ? request['tool_use_id'] : null,
      input,
      description: typeof request['description'] === 'string' ? request['description'] : null,
      blocked_path: typeof request['blocked_path'] === 'string' ? request['blocked_path'] : null,
      is_question: isQuestion,
      state: 'pending',
      created_at: nowIso(createdAt),
      expires_at: nowIso(createdAt + this.timeoutMs),
      decided_at: null,
      decided_by: null,
      scope: null,
      message: null,
    };
    this.repo.insert(permission);
    const timer = setTimeout(() => this.expire(permission.id), this.timeoutMs);
    this.waiting.set(permission.id, { context, timer });
    this.record(context.sessionId, {
      subtype: 'permission_asked',
      permission_id: permission.id,
      tool_name: toolName,
      tool_use_id: permission.tool_use_id,
    });
    this.hub.publish({ type: 'permission', permission: publicPermission(permission) });
    context.onPendingChange();
  }

  decide(permissionId: string, body: PermissionDecisionBody, decidedBy = 'console'): StoredPermission {
    const permission = this.repo.get(permissionId);
    if (!permission) throw apiError('not_found', 'No such permission request.');
    const waiting = this.waiting.get(permissionId);
    if (permission.state !== 'pending' || !waiting) throw apiError('permission_not_pending');
    const scope = body.scope ?? 'once';
    if (body.decision === 'allow') {
      const updatedInput = permission.is_question && body.answers ? { ...permission.input, answers: body.answers } : permission.input;
      if (scope === 'session') {
        this.repo.addSessionRule(permission.session_id, permission.tool_name, sessionMatch(permission.tool_name, permission.input), nowIso());
      }
      return this.settle(permission, waiting, { behavior: 'allow', updatedInput }, 'allowed', decidedBy, scope, body.message ?? null);
    }
    const message = body.message?.trim() ? body.message.trim() : 'The person refused this request in the Relais console.';
    return this.settle(permission, waiting, { behavior: 'deny', message }, 'denied', decidedBy, scope, message);
  }

  /** The agent withdrew its own request. */
  cancelByControlId(sessionId: string, controlRequestId: string): void {
    for (const [id, waiting] of this.waiting) {
      const permission = this.repo.get(id);
      if (permission?.session_id === sessionId && permission.control_request_id === controlRequestId) {
        this.close(permission, waiting, 'cancelled', 'agent', 'The agent withdrew the request.');
      }
    }
  }

  /** The session ended: nothing can be answered any more. */
  cancelSession(sessionId: string, reason: string): void {
    for (const [id, waiting] of this.waiting) {
      if (waiting.context.sessionId !== sessionId) continue;
      const permission = this.repo.get(id);
      if (permission) this.close(permission, waiting, 'cancelled', 'relais', reason);
    }
  }

  /** Requests left pending by an earlier run of the daemon can never be answered. */
  cancelOrphans(): void {
    for (const id of this.repo.pendingIds()) {
      this.repo.settle(id, { state: 'cancelled', decided_at: nowIso(), decided_by: 'relais', scope: null, message: 'The daemon restarted.' });
    }
  }

  pendingCount(sessionId: string): number {
    let count = 0;
    for (const waiting of this.waiting.values()) if (waiting.context.sessionId === sessionId) count++;
    return count;
  }

  private evaluate(context: AskContext, toolName: string, input: Record<string, unknown>, isQuestion: boolean): PolicyDecision {
    let verdict: PolicyDecision;
    try {
      verdict = this.policy()({ session_id: context.sessionId, tool_name: toolName, input, cwd: context.cwd, permission_mode: context.permissionMode });
    } catch (error: unknown) {
      // Fail closed: a broken policy refuses rather than lets through.
      return { decision: 'deny', step: 'engine_error', rule: null, reason: `The permission engine failed: ${String(error)}` };
    }
    if (verdict.decision === 'ask' && !isQuestion && this.repo.hasSessionRule(context.sessionId, toolName, sessionMatch(toolName, input))) {
      return { decision: 'allow', step: 'session_rule', rule: `session:${toolName}`, reason: 'Allowed for this session by a person.' };
    }
    return isQuestion && verdict.decision === 'allow' ? { ...verdict, decision: 'ask' } : verdict;
  }

  private expire(permissionId: string): void {
    const waiting = this.waiting.get(permissionId);
    const permission = this.repo.get(permissionId);
    if (!waiting || !permission) return;
    const seconds = Math.round(this.timeoutMs / 1000);
    const message = `Nobody answered within ${seconds} s, so the request was refused.`;
    this.settle(permission, waiting, { behavior: 'deny', message }, 'denied', 'timeout', null, message);
  }

  private settle(
    permission: StoredPermission,
    waiting: Waiting,
    answer: PermissionAnswer,
    state: 'allowed' | 'denied',
    decidedBy: string,
    scope: 'once' | 'session' | null,
    message: string | null,
  ): StoredPermission {
    const settled = this.close(permission, waiting, state, decidedBy, message, scope);
    waiting.context.answer(answer);
    return settled;
  }

  private close(
    permission: StoredPermission,
    waiting: Waiting,
    state: 'allowed' | 'denied' | 'cancelled',
    decidedBy: string,
    message: string | null,
    scope: 'once' | 'session' | null = null,
  ): StoredPermission {
    clearTimeout(waiting.timer);
    this.waiting.delete(permission.id);
    const decidedAt = nowIso();
    this.repo.settle(permission.id, { state, decided_at: decidedAt, decided_by: decidedBy, scope, message });
    const settled: StoredPermission = { ...permission, state, decided_at: decidedAt, decided_by: decidedBy, scope, message };
    this.record(permission.session_id, {
      subtype: 'permission_decided',
      permission_id: permission.id,
      tool_name: permission.tool_name,
      tool_use_id: permission.tool_use_id,
      decision: state,
      decided_by: decidedBy,
      scope,
      message,
    });
    this.hub.publish({ type: 'permission', permission: publicPermission(settled) });
    waiting.context.onPendingChange();
    return settled;
  }

  private record(sessionId: string, fields: Record<string, unknown>): void {
    this.events.appendJson(sessionId, 'relais', { type: 'relais', ...fields });
  }
}
