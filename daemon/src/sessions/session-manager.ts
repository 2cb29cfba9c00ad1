import type { MessageResult, Session, SessionLaunch } from '../../../contract/api.js';
import { allowedMcpTools } from '../agents/mcp-launch.js';
import { assertConversationId } from './conversation-id.js';
import { apiError } from '../http/errors.js';
import { newId, nowIso } from '../ids.js';
import type { InventoryResult } from '../mcp/inventory.js';
import type { StartInstructions } from '../../../contract/library.js';
import type { StoredSubscription } from '../subscriptions/subscription-repo.js';
import { appendedPrompt } from '../library/instructions-repo.js';
import { LaunchAdmission } from './launch-admission.js';
import { newLiveSession, type LiveSession } from './live-session.js';
import { sessionHost } from './session-host.js';
import { titleFromPrompt } from './session-title.js';
import { assertWorkingFolder } from './working-folder.js';
import { mcpSummary } from './mcp-summary.js';
import { SessionLives, type SessionManagerDeps } from './session-lives.js';

export type { Prelaunch, SessionManagerDeps } from './session-lives.js';

type LaunchBody = Omit<SessionLaunch, 'permission_mode'> &
  Required<Pick<SessionLaunch, 'permission_mode'>>;

/** How long an interrupt asked through the API waits for the agent's acknowledgement. */
const INTERRUPT_TIMEOUT_MS = 10_000;

/**
 * Owns the sessions' lives: launch, turns, queue draining, deadlines, stop, and restart recovery.
 * The agent behind a session is an AgentProcess; its wire format stays in its own folder.
 */
export class SessionManager extends SessionLives {
  private readonly admission: LaunchAdmission;

  constructor(deps: SessionManagerDeps) {
    super(deps);
    this.admission = new LaunchAdmission(deps);
  }

  /** `resume`: the agent's own id of a conversation to continue, and the session it comes from. */
  launch(
    body: LaunchBody,
    app: string,
    mcp?: InventoryResult,
    resume: { agentSessionId: string; fromSessionId: string } | null = null,
    /** The caller key launching it (its name is `app`); null: the owner. */
    callerKeyId: string | null = null,
  ): Session {
    const resumeId = resume?.agentSessionId ?? null;
    if (resumeId !== null) assertConversationId(resumeId);
    const { subscription, ttlSeconds } = this.admit(body, app);
    // Read once, for a new conversation only: a later change reaches new sessions, never this
    // one, and a resumed conversation keeps the instructions it started with.
    const instructions = resumeId
      ? { common: null, subscription: null }
      : this.deps.prelaunch.instructions(subscription.id);
    this.deps.prelaunch.placeLibrary(subscription.id);
    const live = newLiveSession({
      id: newId('ses'),
      subscriptionId: subscription.id,
      cwd: body.cwd,
      permissionMode: body.permission_mode,
      mcpTools: allowedMcpTools(body.mcp_servers),
      confinedWithoutAsking: body.confined_without_asking === true,
      ttlSeconds,
      maxTtlSeconds: this.deps.maxTtlSeconds,
    });
    this.insert(live, subscription.agent, body, { app, keyId: callerKeyId });
    const id = live.id;
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
      ...(callerKeyId ? { key_id: callerKeyId } : {}),
      ttl_seconds: ttlSeconds,
      ...(body.mcp_servers ? { mcp_servers: mcpSummary(body.mcp_servers, mcp) } : {}),
      instructions,
      ...(resume ? { resumed_from: resume.fromSessionId } : {}),
    });
    this.live.set(id, live);
    this.armDeadline(live);
    if (this.startAgent(live, subscription, body, { app, mcp, resumeId, instructions }))
      void this.initialize(live, body.prompt);
    return this.get(id);
  }

  /** Starts the session's agent; false when it could not start (the session has ended). */
  private startAgent(
    live: LiveSession,
    subscription: StoredSubscription,
    body: LaunchBody,
    start: {
      app: string;
      mcp?: InventoryResult;
      resumeId: string | null;
      instructions: StartInstructions;
    },
  ): boolean {
    const { id } = live;
    const { app, mcp, resumeId, instructions } = start;
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
        sessionHost(live, this.deps, this.hostEvents),
      );
    } catch (error: unknown) {
      this.deps.containment.release(id);
      this.end(live, 'start_failed', error instanceof Error ? error.message : String(error));
      return false;
    }
    this.processes.started(id, live.agent.pid);
    this.deps.sessions.update(id, { pid: live.agent.pid });
    this.deps.log.info(
      { session: id, pid: live.agent.pid, subscription: subscription.id, app },
      'session launched',
    );
    return true;
  }

  /** The checks of a launch, before anything is written: subscription, folder, isolation, admission. */
  private admit(body: LaunchBody, app: string) {
    const subscription = this.deps.subscriptions.stored(body.subscription_id);
    if (!subscription)
      throw apiError('unknown_subscription', `No subscription has the id ${body.subscription_id}.`);
    assertWorkingFolder(body.cwd, this.deps.dataHome);
    this.deps.isolation.admit();
    if (body.confined_without_asking === true && !this.deps.isolation.enabled)
      throw apiError(
        'isolation_unavailable',
        'Commands run unconfined here (RELAIS_ISOLATION=off): each one needs a person, so "run confined commands without asking" is not offered.',
      );
    const ttlSeconds = this.admission.ttlOf(body.ttl_seconds);
    this.admission.admit(subscription.id, subscription.name, app);
    return { subscription, ttlSeconds };
  }

  /** `caller`: the launching tool's name and its caller key (null: the owner). */
  private insert(
    live: LiveSession,
    agent: Session['agent'],
    body: LaunchBody,
    caller: { app: string; keyId: string | null },
  ): void {
    const now = live.deadlineAtMs - live.ttlSeconds * 1000;
    this.deps.sessions.insert({
      id: live.id,
      subscription_id: live.subscriptionId,
      agent,
      model: body.model,
      cwd: body.cwd,
      effort: body.effort ?? null,
      permission_mode: body.permission_mode,
      app: caller.app,
      title: titleFromPrompt(body.prompt),
      created_at: nowIso(now),
      deadline_at: nowIso(live.deadlineAtMs),
      max_deadline_at: nowIso(live.maxDeadlineAtMs),
      isolated: this.deps.isolation.enabled,
      confined_without_asking: live.confinedWithoutAsking,
      key_id: caller.keyId,
    });
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

  /** Seconds until the brake lets a launch of this app on this subscription through (0: now). */
  launchWaitSeconds(subscriptionId: string, app: string): number {
    if (!this.deps.subscriptions.stored(subscriptionId))
      throw apiError('not_found', 'No such subscription.');
    return this.admission.waitSeconds(subscriptionId, app);
  }
}
