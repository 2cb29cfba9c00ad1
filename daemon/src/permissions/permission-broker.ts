import type { PermissionDecisionBody } from '../../../contract/api.js';
import type { PermissionAnswer, PermissionAsk } from '../agents/agent.js';
import type { EventStore } from '../events/event-store.js';
import { apiError } from '../http/errors.js';
import { newId, nowIso } from '../ids.js';
import type { GlobalHub } from '../events/global-hub.js';
import type { AuditLog } from './audit-log.js';
import { destinationOf, type AllowedHosts } from './allowed-hosts.js';
import {
  publicPermission,
  type PermissionRepo,
  type PermissionScope,
  type StoredPermission,
} from './permission-repo.js';
import type { PermissionPolicy, PolicyDecision } from '../agents/permission-policy.js';
import { AskVerdicts, QUESTION_TOOLS, sessionMatch, type AskContext } from './ask-verdict.js';

export type { PermissionAnswer };
export type { AskContext } from './ask-verdict.js';

interface Waiting {
  context: AskContext;
  timer: NodeJS.Timeout;
  verdict: PolicyDecision;
}

export interface BrokerDeps {
  repo: PermissionRepo;
  events: EventStore;
  hub: GlobalHub;
  audit: AuditLog;
  policy: () => PermissionPolicy;
  timeoutMs: number;
  /** Whether a console or another client is listening for prompts of this session. */
  someoneListening: (sessionId: string) => boolean;
  /** Destinations allowed "always"; without it, a Network prompt cannot be answered so. */
  allowedHosts?: AllowedHosts;
}

const NOBODY =
  'Nobody is listening for prompts (no console or client attached), so a request that needs a person is refused.';

function scopeNote(scope: PermissionScope | null): string | null {
  if (scope === 'session') return 'for this session';
  return scope === 'always' ? 'always for this host' : null;
}

/**
 * Turns every can_use_tool request into a decision: the policy first, then a session rule, then a
 * pending request a person answers (or the timeout refuses).
 */
export class PermissionBroker {
  private readonly waiting = new Map<string, Waiting>();

  private readonly repo: PermissionRepo;
  private readonly events: EventStore;
  private readonly hub: GlobalHub;
  private readonly timeoutMs: number;
  private readonly verdicts: AskVerdicts;

  constructor(private readonly deps: BrokerDeps) {
    this.verdicts = new AskVerdicts(deps);
    this.repo = deps.repo;
    this.events = deps.events;
    this.hub = deps.hub;
    this.timeoutMs = deps.timeoutMs;
  }

  /**
   * The rules alone, before the agent asks (Claude's PreToolUse hook): every tool call passes
   * here first, even those the agent would allow by itself. Allow and deny are final and recorded;
   * ask lets the agent send its request.
   */
  check(
    toolName: string,
    input: Record<string, unknown>,
    toolUseId: string | null,
    context: AskContext,
  ): PolicyDecision {
    const verdict = this.verdicts.of(context, toolName, input, QUESTION_TOOLS.has(toolName));
    if (verdict.decision !== 'ask')
      this.auto(context, toolName, input, toolUseId, verdict, 'rules');
    return verdict;
  }

  open(ask: PermissionAsk, context: AskContext): void {
    const { toolName, input, toolUseId } = ask;
    const isQuestion = QUESTION_TOOLS.has(toolName);
    let verdict = this.verdicts.of(context, toolName, input, isQuestion);
    let decidedBy = 'rules';
    if (verdict.decision === 'ask' && !this.deps.someoneListening(context.sessionId)) {
      verdict = { ...verdict, decision: 'deny', reason: NOBODY, report: NOBODY };
      decidedBy = 'nobody_listening';
    }
    if (verdict.decision !== 'ask') {
      this.auto(context, toolName, input, toolUseId, verdict, decidedBy);
      context.answer(
        verdict.decision === 'allow'
          ? { behavior: 'allow', updatedInput: verdict.updatedInput ?? input }
          : { behavior: 'deny', message: verdict.report ?? verdict.reason },
      );
      return;
    }
    const createdAt = Date.now();
    const permission: StoredPermission = {
      id: newId('perm'),
      session_id: context.sessionId,
      control_request_id: ask.requestId,
      tool_name: toolName,
      tool_use_id: toolUseId,
      input,
      description: ask.description,
      blocked_path: ask.blockedPath,
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
    this.waiting.set(permission.id, { context, timer, verdict });
    this.record(context.sessionId, {
      subtype: 'permission_asked',
      permission_id: permission.id,
      tool_name: toolName,
      tool_use_id: permission.tool_use_id,
    });
    this.hub.publish({ type: 'permission', permission: publicPermission(permission) });
    context.onPendingChange();
  }

  decide(
    permissionId: string,
    body: PermissionDecisionBody,
    decidedBy = 'console',
    /** The caller key answering (the audit names it); null: the owner. */
    keyId: string | null = null,
  ): StoredPermission {
    const permission = this.repo.get(permissionId);
    if (!permission) throw apiError('not_found', 'No such permission request.');
    const waiting = this.waiting.get(permissionId);
    if (permission.state !== 'pending' || !waiting) throw apiError('permission_not_pending');
    const scope = body.scope ?? 'once';
    if (scope === 'always') this.rememberHost(permission, body.decision, decidedBy);
    if (body.decision === 'allow') {
      const updatedInput =
        permission.is_question && body.answers
          ? { ...permission.input, answers: body.answers }
          : (waiting.verdict.updatedInput ?? permission.input);
      if (scope === 'session') {
        this.repo.addSessionRule(
          permission.session_id,
          permission.tool_name,
          sessionMatch(permission.tool_name, permission.input),
          nowIso(),
        );
      }
      return this.settle(
        permission,
        waiting,
        { behavior: 'allow', updatedInput },
        'allowed',
        decidedBy,
        scope,
        body.message ?? null,
        keyId,
      );
    }
    const message = body.message?.trim()
      ? body.message.trim()
      : 'The person refused this request in the Relais console.';
    return this.settle(
      permission,
      waiting,
      { behavior: 'deny', message },
      'denied',
      decidedBy,
      scope,
      message,
      keyId,
    );
  }

  /**
   * "Always" only for a destination the network gate asked about, and only to allow it; refused
   * before anything is settled, so the prompt stays pending for another answer.
   */
  private rememberHost(
    permission: StoredPermission,
    decision: 'allow' | 'deny',
    decidedBy: string,
  ): void {
    const destination =
      permission.tool_name === 'Network' && permission.control_request_id.startsWith('network-')
        ? destinationOf(permission.input)
        : null;
    if (!destination || decision !== 'allow' || !this.deps.allowedHosts)
      throw apiError(
        'scope_not_allowed',
        'Only a Network prompt can be answered "always", and only to allow its host and port.',
      );
    this.deps.allowedHosts.add(destination.host, destination.port, nowIso(), decidedBy);
  }

  /** The agent withdrew its own request. */
  withdraw(sessionId: string, controlRequestId: string): void {
    for (const [id, waiting] of this.waiting) {
      const permission = this.repo.get(id);
      if (
        permission?.session_id === sessionId &&
        permission.control_request_id === controlRequestId
      ) {
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
      this.repo.settle(id, {
        state: 'cancelled',
        decided_at: nowIso(),
        decided_by: 'relais',
        scope: null,
        message: 'The daemon restarted.',
      });
    }
  }

  pendingCount(sessionId: string): number {
    let count = 0;
    for (const waiting of this.waiting.values())
      if (waiting.context.sessionId === sessionId) count++;
    return count;
  }

  private auto(
    context: AskContext,
    toolName: string,
    input: Record<string, unknown>,
    toolUseId: string | null,
    verdict: PolicyDecision,
    decidedBy: string,
  ): void {
    this.record(context.sessionId, {
      subtype: 'permission_auto',
      tool_name: toolName,
      tool_use_id: toolUseId,
      decision: verdict.decision,
      step: verdict.step,
      rule: verdict.rule,
      reason: verdict.reason,
      decided_by: decidedBy,
    });
    this.deps.audit.record({
      kind: 'decision',
      session_id: context.sessionId,
      subscription_id: context.subscriptionId,
      tool_name: toolName,
      input,
      step: verdict.step,
      rule: verdict.rule,
      decision: verdict.decision,
      decided_by: decidedBy,
      detail: verdict.reason,
    });
  }

  private expire(permissionId: string): void {
    const waiting = this.waiting.get(permissionId);
    const permission = this.repo.get(permissionId);
    if (!waiting || !permission) return;
    const seconds = Math.round(this.timeoutMs / 1000);
    const message = `Nobody answered within ${seconds} s, so the request was refused.`;
    this.settle(
      permission,
      waiting,
      { behavior: 'deny', message },
      'denied',
      'timeout',
      null,
      message,
    );
  }

  private settle(
    permission: StoredPermission,
    waiting: Waiting,
    answer: PermissionAnswer,
    state: 'allowed' | 'denied',
    decidedBy: string,
    scope: PermissionScope | null,
    message: string | null,
    keyId: string | null = null,
  ): StoredPermission {
    const settled = this.close(permission, waiting, state, decidedBy, message, scope);
    this.deps.audit.record({
      key_id: keyId,
      kind: 'decision',
      session_id: permission.session_id,
      subscription_id: waiting.context.subscriptionId,
      tool_name: permission.tool_name,
      input: permission.input,
      step: waiting.verdict.step,
      rule: waiting.verdict.rule,
      decision: state === 'allowed' ? 'allow' : 'deny',
      decided_by: decidedBy,
      detail: [scopeNote(scope), message].filter(Boolean).join(': ') || null,
    });
    waiting.context.answer(answer);
    return settled;
  }

  private close(
    permission: StoredPermission,
    waiting: Waiting,
    state: 'allowed' | 'denied' | 'cancelled',
    decidedBy: string,
    message: string | null,
    scope: PermissionScope | null = null,
  ): StoredPermission {
    clearTimeout(waiting.timer);
    this.waiting.delete(permission.id);
    const decidedAt = nowIso();
    this.repo.settle(permission.id, {
      state,
      decided_at: decidedAt,
      decided_by: decidedBy,
      scope,
      message,
    });
    const settled: StoredPermission = {
      ...permission,
      state,
      decided_at: decidedAt,
      decided_by: decidedBy,
      scope,
      message,
    };
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
