// Over 400 lines: admission, queue, lifecycle and state publishing still share this class; issue 36
// splits it into those rooms behind a session repository. Kept whole until then rather than cut
// in a way that split would undo.
import type { FastifyBaseLogger } from 'fastify';
import type {
  EndReason,
  MessageResult,
  Session,
  SessionLaunch,
  SessionState,
} from '../../../contract/api.js';
import type { LaunchBrake } from '../admission/launch-brake.js';
import {
  FAILURES_BEFORE_SUSPENSION,
  type SubscriptionHealth,
} from '../admission/subscription-health.js';
import { allowedMcpTools } from '../agents/mcp-launch.js';
import { assertConversationId } from './conversation-id.js';
import type { AgentHost, AgentRegistry, PermissionGate } from '../agents/agent.js';
import { SESSION_TAG_VAR } from '../agents/session-tag.js';
import type { Db } from '../db/database.js';
import type { EventStore } from '../events/event-store.js';
import { apiError } from '../http/errors.js';
import { newId, nowIso } from '../ids.js';
import type { GlobalHub } from '../events/global-hub.js';
import type { InventoryResult } from '../mcp/inventory.js';
import type { StartInstructions } from '../../../contract/library.js';
import { appendedPrompt } from '../library/instructions-repo.js';
import type { AskContext, PermissionBroker } from '../permissions/permission-broker.js';
import type { Containment } from '../processes/containment.js';
import { endSession, membersOf, type SessionProcesses } from '../processes/process-groups.js';
import type { SubscriptionService } from '../subscriptions/subscription-service.js';
import { stateOf, type LiveSession } from './live-session.js';
import type { QueueRepo } from './queue-repo.js';
import type { SessionRepo } from './session-repo.js';
import { titleFromPrompt } from './session-title.js';
import { assertWorkingFolder } from './working-folder.js';
import { mcpSummary } from './mcp-summary.js';
import type { IsolationGate } from '../isolation/isolation-gate.js';

export interface SessionManagerDeps {
  db: Db;
  sessions: SessionRepo;
  queue: QueueRepo;
  events: EventStore;
  broker: PermissionBroker;
  hub: GlobalHub;
  subscriptions: SubscriptionService;
  agents: AgentRegistry;
  brake: LaunchBrake;
  /** Throws when the subscription's quota cannot take one more session. */
  admitQuota: (subscriptionId: string) => void;
  health: SubscriptionHealth;
  log: FastifyBaseLogger;
  stopGraceMs: number;
  maxTtlSeconds: number;
  /** Relais's data folder: no session may work in it. */
  dataHome: string;
  /** Where each session's processes are kept (processes/containment.ts). */
  containment: Containment;
  /** Before a start: the library placed in the subscription's folder, the instructions read. */
  prelaunch: Prelaunch;
  /** Refuses a launch that must be confined and cannot be (isolation/). */
  isolation: IsolationGate;
}

export interface Prelaunch {
  placeLibrary(subscriptionId: string): void;
  instructions(subscriptionId: string): StartInstructions;
}

type LaunchBody = Omit<SessionLaunch, 'permission_mode'> &
  Required<Pick<SessionLaunch, 'permission_mode'>>;

/** The deadline of a launch that names none, unless the daemon's maximum is shorter. */
const DEFAULT_TTL_SECONDS = 3600;

/** How long an interrupt asked through the API waits for the agent's acknowledgement. */
const INTERRUPT_TIMEOUT_MS = 10_000;
/** How long the processes of a session get between SIGTERM and SIGKILL to clean up after themselves. */
const TERM_BEFORE_KILL_MS = 500;

/**
 * Owns the sessions' lives: launch, turns, queue draining, deadlines, stop, and restart recovery.
 * The agent behind a session is an AgentProcess; its wire format stays in its own folder.
 */
export class SessionManager {
  private readonly live = new Map<string, LiveSession>();

  constructor(private readonly deps: SessionManagerDeps) {}

  get(id: string): Session {
    const session = this.deps.sessions.get(id);
    if (!session) throw apiError('not_found', 'No such session.');
    return session;
  }

  hasRunning(subscriptionId: string): boolean {
    return [...this.live.values()].some((s) => s.subscriptionId === subscriptionId);
  }

  liveAgents(): { session_id: string; pid: number | null; state: string }[] {
    return [...this.live.values()].map((live) => ({
      session_id: live.id,
      pid: live.agent?.pid ?? null,
      state: live.state,
    }));
  }

  /** `resume`: the agent's own id of a conversation to continue, and the session it comes from. */
  launch(
    body: LaunchBody,
    app: string,
    mcp?: InventoryResult,
    resume: { agentSessionId: string; fromSessionId: string } | null = null,
  ): Session {
    const resumeId = resume?.agentSessionId ?? null;
    if (resumeId !== null) assertConversationId(resumeId);
    const subscription = this.deps.subscriptions.stored(body.subscription_id);
    if (!subscription)
      throw apiError('unknown_subscription', `No subscription has the id ${body.subscription_id}.`);
    assertWorkingFolder(body.cwd, this.deps.dataHome);
    this.deps.isolation.admit();
    const confinedWithoutAsking = body.confined_without_asking === true;
    if (confinedWithoutAsking && !this.deps.isolation.enabled)
      throw apiError(
        'isolation_unavailable',
        'Commands run unconfined here (RELAIS_ISOLATION=off): each one needs a person, so "run confined commands without asking" is not offered.',
      );
    const ttlSeconds = this.ttlOf(body.ttl_seconds);
    this.admit(subscription.id, subscription.name, app);
    const now = Date.now();
    const maxDeadline = now + this.deps.maxTtlSeconds * 1000;
    // Read once, for a new conversation only: a later change reaches new sessions, never this
    // one, and a resumed conversation keeps the instructions it started with.
    const instructions = resumeId
      ? { common: null, subscription: null }
      : this.deps.prelaunch.instructions(subscription.id);
    this.deps.prelaunch.placeLibrary(subscription.id);
    const id = newId('ses');
    this.deps.sessions.insert({
      id,
      subscription_id: subscription.id,
      agent: subscription.agent,
      model: body.model,
      cwd: body.cwd,
      effort: body.effort ?? null,
      permission_mode: body.permission_mode,
      app,
      title: titleFromPrompt(body.prompt),
      created_at: nowIso(now),
      deadline_at: nowIso(now + ttlSeconds * 1000),
      max_deadline_at: nowIso(maxDeadline),
      isolated: this.deps.isolation.enabled,
      confined_without_asking: confinedWithoutAsking,
    });
    // Known before the agent starts: the history import must take its transcript for Relais' own.
    if (resumeId) this.deps.sessions.update(id, { agent_session_id: resumeId });
    this.record(id, {
      subtype: 'session_created',
      subscription_id: subscription.id,
      agent: subscription.agent,
      model: body.model,
      cwd: body.cwd,
      effort: body.effort ?? null,
      permission_mode: body.permission_mode,
      app,
      ttl_seconds: ttlSeconds,
      ...(body.mcp_servers ? { mcp_servers: mcpSummary(body.mcp_servers, mcp) } : {}),
      instructions,
      ...(resume ? { resumed_from: resume.fromSessionId } : {}),
    });
    let markExited: () => void = () => undefined;
    const live: LiveSession = {
      id,
      subscriptionId: subscription.id,
      cwd: body.cwd,
      permissionMode: body.permission_mode,
      mcpTools: allowedMcpTools(body.mcp_servers),
      confinedWithoutAsking,
      agent: null,
      state: 'starting',
      turnOpen: false,
      outcome: 'pending',
      interruptRequested: false,
      steerNext: [],
      ttlSeconds,
      deadlineAtMs: now + ttlSeconds * 1000,
      maxDeadlineAtMs: maxDeadline,
      deadlineTimer: null,
      killTimer: null,
      stopReason: null,
      exited: new Promise<void>((resolve) => (markExited = resolve)),
      markExited: () => markExited(),
    };
    this.live.set(id, live);
    this.armDeadline(live);
    try {
      live.agent = this.deps.agents.get(subscription.agent).start(
        subscription,
        {
          cwd: body.cwd,
          model: body.model,
          effort: body.effort ?? null,
          permissionMode: body.permission_mode,
          sessionTag: id,
          cage: this.deps.containment.prepare(id),
          mcpServers: body.mcp_servers,
          ...(mcp ? { mcpInventory: mcp.inventory } : {}),
          resumeId,
          instructions: appendedPrompt(instructions),
        },
        this.hostFor(live),
      );
    } catch (error: unknown) {
      this.deps.containment.release(id);
      this.end(live, 'start_failed', error instanceof Error ? error.message : String(error));
      return this.get(id);
    }
    this.deps.db
      .prepare(
        'INSERT OR REPLACE INTO agent_processes (session_id, pid, started_at) VALUES (?, ?, ?)',
      )
      .run(id, live.agent.pid, nowIso());
    this.deps.sessions.update(id, { pid: live.agent.pid });
    this.deps.log.info(
      { session: id, pid: live.agent.pid, subscription: subscription.id, app },
      'session launched',
    );
    void this.initialize(live, body.prompt);
    return this.get(id);
  }

  send(id: string, text: string): MessageResult {
    const live = this.requireLive(id);
    if (this.get(id).title === null)
      this.deps.sessions.update(id, { title: titleFromPrompt(text) });
    if (live.state === 'idle') {
      this.deliver(live, text);
      return { delivery: 'sent', entry: null };
    }
    const entry = this.deps.queue.add(id, text);
    this.record(id, { subtype: 'message_queued', entry_id: entry.id, text });
    this.publish(id);
    return { delivery: 'queued', entry };
  }

  /**
   * "Steer now": the text joins the running turn rather than waiting for it to end. An agent that
   * cannot add to a turn (Claude) has the turn interrupted and gets the text first thereafter.
   */
  async steer(id: string, text: string): Promise<MessageResult> {
    const live = this.requireLive(id);
    if (live.state === 'idle') {
      this.deliver(live, text);
      return { delivery: 'sent', entry: null };
    }
    if (!live.agent || !live.turnOpen) return this.send(id, text);
    this.record(id, { subtype: 'steer_requested', text });
    const steered = await live.agent.steer(text).catch((error: unknown) => {
      this.deps.log.warn({ session: id, err: error }, 'the agent refused to steer');
      return false;
    });
    if (steered) return { delivery: 'steered', entry: null };
    live.steerNext.push(text);
    if (!live.turnOpen) {
      this.drainQueue(live);
      return { delivery: 'steered', entry: null };
    }
    live.interruptRequested = true;
    await live.agent.interrupt(INTERRUPT_TIMEOUT_MS).catch((error: unknown) => {
      this.deps.log.warn({ session: id, err: error }, 'interrupt was not acknowledged');
    });
    return { delivery: 'steered', entry: null };
  }

  /** "Steer now" on a queued instruction: out of the queue, into the running turn. */
  async steerQueued(id: string, entryId: string): Promise<MessageResult> {
    this.requireLive(id);
    const entry = this.deps.queue.list(id).find((e) => e.id === entryId);
    if (!entry || !this.deps.queue.remove(id, entryId))
      throw apiError('not_found', 'No such queue entry.');
    this.record(id, { subtype: 'message_dequeued', entry_id: entry.id });
    return this.steer(id, entry.text);
  }

  /** Names the session (null removes the name); the title is validated by the contract. */
  rename(id: string, title: string | null): Session {
    this.get(id);
    this.deps.sessions.update(id, { title });
    this.publish(id);
    return this.get(id);
  }

  async interrupt(id: string): Promise<Session> {
    const live = this.requireLive(id);
    if (!live.agent || !live.turnOpen)
      throw apiError('session_not_ready', 'No turn is running; there is nothing to interrupt.');
    live.interruptRequested = true;
    this.record(id, { subtype: 'interrupt_requested' });
    await live.agent.interrupt(INTERRUPT_TIMEOUT_MS).catch((error: unknown) => {
      this.deps.log.warn({ session: id, err: error }, 'interrupt was not acknowledged');
    });
    return this.get(id);
  }

  /**
   * A launch's TTL: one above the daemon's maximum is refused rather than shortened, so a client
   * never holds a deadline other than the one it asked for; none asked means an hour, or the
   * maximum when it is shorter.
   */
  private ttlOf(asked: number | undefined): number {
    const max = this.deps.maxTtlSeconds;
    if (asked === undefined) return Math.min(DEFAULT_TTL_SECONDS, max);
    if (asked > max)
      throw apiError(
        'invalid_request',
        `ttl_seconds ${asked} is above this daemon's maximum of ${max} (RELAIS_MAX_TTL_SECONDS).`,
        { max_ttl_seconds: max },
      );
    return asked;
  }

  heartbeat(id: string, extendSeconds?: number): Session {
    const live = this.requireLive(id);
    const ttl = extendSeconds ?? live.ttlSeconds;
    const wanted = Math.max(live.deadlineAtMs, Date.now() + ttl * 1000);
    live.deadlineAtMs = Math.min(wanted, live.maxDeadlineAtMs);
    this.deps.sessions.update(id, { deadline_at: nowIso(live.deadlineAtMs) });
    this.armDeadline(live);
    this.record(id, { subtype: 'heartbeat', deadline_at: nowIso(live.deadlineAtMs) });
    this.publish(id);
    return this.get(id);
  }

  /** Tells the agent to stop, then kills its whole process group after the grace period. */
  stop(id: string, reason: 'stopped' | 'expired' | 'daemon_shutdown' = 'stopped'): Session {
    const live = this.live.get(id);
    if (!live) return this.get(id);
    if (live.state === 'stopping') return this.get(id);
    live.stopReason = reason;
    this.setState(live, 'stopping');
    if (live.agent?.alive) {
      if (live.turnOpen) void live.agent.interrupt(this.deps.stopGraceMs).catch(() => undefined);
      live.agent.closeInput();
      // SIGTERM lands TERM_BEFORE_KILL_MS before the end of the grace period, SIGKILL at its end.
      live.killTimer = setTimeout(
        () => void this.endProcesses(live, true),
        Math.max(0, this.deps.stopGraceMs - TERM_BEFORE_KILL_MS),
      );
    } else {
      this.end(live, reason, null);
    }
    return this.get(id);
  }

  /**
   * Marks sessions a previous run left open as ended, and ends the processes they left behind; the
   * daemon serves only once they are gone (SIGTERM, a short wait, then SIGKILL to whole cages).
   */
  async recoverAfterRestart(): Promise<void> {
    const stale = this.deps.sessions.idsInState([
      'starting',
      'idle',
      'working',
      'waiting',
      'stopping',
    ]);
    // Cages of sessions already ended (a crash while one was ending), and of detections.
    const tags = new Set([...stale, ...this.deps.containment.leftovers()]);
    const ending: Promise<unknown>[] = [];
    for (const tag of tags) {
      const killed = membersOf(this.processesOf(tag, null)).length;
      ending.push(
        endSession(this.processesOf(tag, null), TERM_BEFORE_KILL_MS).catch((error: unknown) =>
          this.deps.log.error({ session: tag, err: error }, 'could not end leftover processes'),
        ),
      );
      if (stale.includes(tag)) this.markRestarted(tag, killed);
    }
    this.deps.db.prepare('DELETE FROM agent_processes').run();
    this.deps.broker.cancelOrphans();
    await Promise.all(ending);
  }

  private markRestarted(id: string, killed: number): void {
    this.deps.sessions.update(id, {
      state: 'ended',
      end_reason: 'daemon_restart',
      end_detail: killed ? `ended ${killed} leftover process(es)` : null,
      ended_at: nowIso(),
      pid: null,
    });
    this.deps.queue.clear(id);
    this.record(id, { subtype: 'state', state: 'ended', end_reason: 'daemon_restart' });
  }

  async shutdown(): Promise<void> {
    const all = [...this.live.values()];
    for (const live of all) this.stop(live.id, 'daemon_shutdown');
    await Promise.all(all.map((live) => live.exited));
  }

  private async initialize(live: LiveSession, prompt: string | undefined): Promise<void> {
    const agent = live.agent!;
    try {
      await agent.initialize();
    } catch {
      // The exit handler ends the session with the agent's own last error line.
      if (agent.alive) this.stop(live.id, 'stopped');
      return;
    }
    if (live.state !== 'starting') return;
    this.setState(live, 'idle');
    if (prompt) this.deliver(live, prompt);
    else this.drainQueue(live);
  }

  private hostFor(live: LiveSession): AgentHost {
    return {
      record: (source, data, receivedAtMs) =>
        this.deps.events.append(live.id, source, data, receivedAtMs ?? Date.now()),
      permissions: this.gateFor(live),
      onConversationId: (agentSessionId) =>
        this.deps.sessions.update(live.id, { agent_session_id: agentSessionId }),
      onAnswered: () => this.onAnswered(live),
      onTurnEnd: (error) => {
        if (error !== null && !live.interruptRequested) this.onFailedStart(live, error);
        this.onTurnEnd(live);
      },
      onExit: (code, signal, stderr) => this.onExit(live, code, signal, stderr),
    };
  }

  private onTurnEnd(live: LiveSession): void {
    this.deps.sessions.incrementTurns(live.id);
    live.turnOpen = false;
    if (live.state === 'stopping') return;
    this.refreshState(live);
    this.drainQueue(live);
  }

  /** The permission engine as the agent sees it: bound to this session, its folder and mode. */
  private gateFor(live: LiveSession): PermissionGate {
    const broker = this.deps.broker;
    return {
      check: (toolName, input, toolUseId) =>
        broker.check(
          toolName,
          input,
          toolUseId,
          this.askContext(live, () => undefined),
        ),
      ask: (request, answer) => broker.open(request, this.askContext(live, answer)),
      withdraw: (requestId) => broker.withdraw(live.id, requestId),
    };
  }

  private askContext(live: LiveSession, answer: AskContext['answer']): AskContext {
    return {
      sessionId: live.id,
      subscriptionId: live.subscriptionId,
      cwd: live.cwd,
      permissionMode: live.permissionMode,
      mcpTools: live.mcpTools,
      confinedWithoutAsking: live.confinedWithoutAsking,
      answer,
      onPendingChange: () => this.refreshState(live),
    };
  }

  private onExit(
    live: LiveSession,
    code: number | null,
    signal: NodeJS.Signals | null,
    stderr: string[],
  ): void {
    const lastError = stderr.findLast((line) => line.trim() !== '') ?? null;
    this.record(live.id, { subtype: 'agent_exit', code, signal, stderr_tail: stderr.slice(-5) });
    if (live.killTimer) clearTimeout(live.killTimer);
    // The agent is gone; anything it started in its group or with its tag goes too, before the
    // session is said to be ended.
    void this.endProcesses(live, false).finally(() =>
      this.settleExit(live, code, signal, lastError),
    );
  }

  private settleExit(
    live: LiveSession,
    code: number | null,
    signal: NodeJS.Signals | null,
    lastError: string | null,
  ): void {
    if (!live.stopReason)
      this.onFailedStart(live, lastError ?? `the agent exited with ${code ?? signal}`);
    if (live.stopReason) return this.end(live, live.stopReason, null);
    if (live.state === 'starting')
      return this.end(live, 'start_failed', lastError ?? `exit code ${code ?? signal}`);
    this.end(
      live,
      'agent_exited',
      code === 0 ? null : (lastError ?? `exit code ${code ?? signal}`),
    );
  }

  /** Seconds until the brake lets a launch of this app on this subscription through (0: now). */
  launchWaitSeconds(subscriptionId: string, app: string): number {
    if (!this.deps.subscriptions.stored(subscriptionId))
      throw apiError('not_found', 'No such subscription.');
    return Math.ceil(this.deps.brake.waitMs(this.brakeKeys(subscriptionId, app)) / 1000);
  }

  private brakeKeys(subscriptionId: string, app: string): string[] {
    return [`app:${app}`, `subscription:${subscriptionId}`];
  }

  /** Suspension before the brake: a refused launch must not spend a launch of the brake. */
  private admit(subscriptionId: string, subscriptionName: string, app: string): void {
    const refusal = this.deps.health.refusal(subscriptionId);
    if (refusal) {
      throw apiError(
        'subscription_suspended',
        `${subscriptionName} is suspended after ${FAILURES_BEFORE_SUSPENSION} failed starts in a row. Last error: ${refusal.lastError ?? 'unknown'}. Wait ${refusal.waitSeconds} s, or use Retry.`,
        { retry_after_seconds: refusal.waitSeconds, last_error: refusal.lastError },
      );
    }
    this.deps.admitQuota(subscriptionId);
    const braked = this.deps.brake.take(this.brakeKeys(subscriptionId, app));
    if (!braked.allowed) {
      const seconds = Math.max(1, Math.ceil(braked.retryAfterMs / 1000));
      throw apiError(
        'rate_limited',
        `Too many launches in a row for this application or subscription; try again in ${seconds} s.`,
        { retry_after_seconds: seconds },
      );
    }
  }

  private onAnswered(live: LiveSession): void {
    if (live.outcome !== 'pending') return;
    live.outcome = 'answered';
    if (this.deps.health.recordSuccess(live.subscriptionId))
      this.record(live.id, {
        subtype: 'subscription_reopened',
        subscription_id: live.subscriptionId,
      });
  }

  private onFailedStart(live: LiveSession, errorLine: string): void {
    if (live.outcome !== 'pending') return;
    live.outcome = 'failed';
    const suspended = this.deps.health.recordFailure(live.subscriptionId, errorLine);
    this.record(live.id, { subtype: 'failed_start', error: errorLine, suspended });
  }

  private async endProcesses(live: LiveSession, endAfter: boolean): Promise<void> {
    try {
      const ended = await endSession(
        this.processesOf(live.id, live.agent?.pid ?? null),
        Math.min(TERM_BEFORE_KILL_MS, this.deps.stopGraceMs),
      );
      if (ended > 0) this.deps.log.info({ session: live.id, ended }, 'process group ended');
    } catch (error: unknown) {
      this.deps.log.error({ session: live.id, err: error }, 'could not end the process group');
    }
    if (endAfter && live.agent && !live.agent.alive)
      this.end(live, live.stopReason ?? 'stopped', null);
  }

  private processesOf(id: string, pgid: number | null): SessionProcesses {
    return { pgid, tagName: SESSION_TAG_VAR, tagValue: id, containment: this.deps.containment };
  }

  private deliver(live: LiveSession, text: string): void {
    if (!live.agent) return;
    live.agent.send(text);
    live.turnOpen = true;
    this.refreshState(live);
  }

  private drainQueue(live: LiveSession): void {
    if (live.turnOpen || live.state !== 'idle') return;
    const steered = live.steerNext.shift();
    if (steered !== undefined) return this.deliver(live, steered);
    const next = this.deps.queue.shift(live.id);
    if (!next) return;
    this.record(live.id, { subtype: 'message_dequeued', entry_id: next.id });
    this.deliver(live, next.text);
  }

  private end(live: LiveSession, reason: EndReason, detail: string | null): void {
    if (live.state === 'ended') return;
    if (live.deadlineTimer) clearTimeout(live.deadlineTimer);
    if (live.killTimer) clearTimeout(live.killTimer);
    live.state = 'ended';
    this.live.delete(live.id);
    this.deps.broker.cancelSession(live.id, 'The session ended.');
    const dropped = this.deps.queue.clear(live.id);
    if (dropped) this.record(live.id, { subtype: 'queue_dropped', count: dropped });
    this.deps.db.prepare('DELETE FROM agent_processes WHERE session_id = ?').run(live.id);
    this.deps.sessions.update(live.id, {
      state: 'ended',
      end_reason: reason,
      end_detail: detail,
      ended_at: nowIso(),
    });
    this.deps.log[reason === 'start_failed' || reason === 'agent_exited' ? 'warn' : 'info'](
      { session: live.id, reason, detail },
      'session ended',
    );
    this.record(live.id, {
      subtype: 'state',
      state: 'ended',
      end_reason: reason,
      end_detail: detail,
    });
    this.publish(live.id);
    live.markExited();
  }

  private armDeadline(live: LiveSession): void {
    if (live.deadlineTimer) clearTimeout(live.deadlineTimer);
    live.deadlineTimer = setTimeout(
      () => this.stop(live.id, 'expired'),
      Math.max(0, live.deadlineAtMs - Date.now()),
    );
  }

  private refreshState(live: LiveSession): void {
    const next = stateOf(live, this.deps.broker.pendingCount(live.id));
    if (next !== live.state) this.setState(live, next);
    else this.publish(live.id);
  }

  private setState(live: LiveSession, state: SessionState): void {
    live.state = state;
    this.deps.sessions.update(live.id, { state });
    this.record(live.id, { subtype: 'state', state });
    this.publish(live.id);
  }

  private requireLive(id: string): LiveSession {
    const live = this.live.get(id);
    // An agent that exited is being cleaned up: its session is about to end.
    const exited = live?.agent ? !live.agent.alive : false;
    if (live && live.state !== 'stopping' && !exited) return live;
    this.get(id);
    throw apiError('session_ended', 'The session has ended or is stopping.');
  }

  private record(sessionId: string, fields: Record<string, unknown>): void {
    this.deps.events.appendJson(sessionId, 'relais', { type: 'relais', ...fields });
  }

  private publish(id: string): void {
    const session = this.deps.sessions.get(id);
    if (session) this.deps.hub.publish({ type: 'session', session });
  }
}
