import type { FastifyBaseLogger } from 'fastify';
import type { EndReason, Session, SessionState } from '../../../contract/api.js';
import type { LaunchBrake } from '../admission/launch-brake.js';
import type { SubscriptionHealth } from '../admission/subscription-health.js';
import type { AgentRegistry } from '../agents/agent.js';
import { SESSION_TAG_VAR } from '../agents/session-tag.js';
import type { Db } from '../db/database.js';
import type { EventStore } from '../events/event-store.js';
import { apiError } from '../http/errors.js';
import { nowIso } from '../ids.js';
import type { GlobalHub } from '../events/global-hub.js';
import type { StartInstructions } from '../../../contract/library.js';
import type { PermissionBroker } from '../permissions/permission-broker.js';
import type { Containment } from '../processes/containment.js';
import { endSession, membersOf, type SessionProcesses } from '../processes/process-groups.js';
import type { SubscriptionService } from '../subscriptions/subscription-service.js';
import { AgentProcessRepo } from './agent-process-repo.js';
import { stateOf, type LiveSession } from './live-session.js';
import { type HostEvents } from './session-host.js';
import type { QueueRepo } from './queue-repo.js';
import type { SessionRepo } from './session-repo.js';
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

/** How long the processes of a session get between SIGTERM and SIGKILL to clean up after themselves. */
const TERM_BEFORE_KILL_MS = 500;

/**
 * The lives of the running sessions: their agents' exits, deadlines, state changes and their
 * publication, the end of their processes, recovery after a restart and shutdown. SessionManager
 * adds what the API asks of them (launch, messages, steering, interrupts).
 */
export abstract class SessionLives {
  protected readonly live = new Map<string, LiveSession>();

  protected readonly processes: AgentProcessRepo;

  /** What the host of each session's agent calls back (session-host.ts). */
  protected readonly hostEvents: HostEvents = {
    onAnswered: (live) => this.onAnswered(live),
    onFailedStart: (live, errorLine) => this.onFailedStart(live, errorLine),
    onTurnEnd: (live) => this.onTurnEnd(live),
    onExit: (live, code, signal, stderr) => this.onExit(live, code, signal, stderr),
    refreshState: (live) => this.refreshState(live),
  };

  constructor(protected readonly deps: SessionManagerDeps) {
    this.processes = new AgentProcessRepo(deps.db);
  }

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
    this.processes.clear();
    this.deps.broker.cancelOrphans();
    await Promise.all(ending);
  }

  protected markRestarted(id: string, killed: number): void {
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

  protected async initialize(live: LiveSession, prompt: string | undefined): Promise<void> {
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

  protected onTurnEnd(live: LiveSession): void {
    this.deps.sessions.incrementTurns(live.id);
    live.turnOpen = false;
    if (live.state === 'stopping') return;
    this.refreshState(live);
    this.drainQueue(live);
  }

  protected onExit(
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

  protected settleExit(
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

  protected onAnswered(live: LiveSession): void {
    if (live.outcome !== 'pending') return;
    live.outcome = 'answered';
    if (this.deps.health.recordSuccess(live.subscriptionId))
      this.record(live.id, {
        subtype: 'subscription_reopened',
        subscription_id: live.subscriptionId,
      });
  }

  protected onFailedStart(live: LiveSession, errorLine: string): void {
    if (live.outcome !== 'pending') return;
    live.outcome = 'failed';
    const suspended = this.deps.health.recordFailure(live.subscriptionId, errorLine);
    this.record(live.id, { subtype: 'failed_start', error: errorLine, suspended });
  }

  protected async endProcesses(live: LiveSession, endAfter: boolean): Promise<void> {
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

  protected processesOf(id: string, pgid: number | null): SessionProcesses {
    return { pgid, tagName: SESSION_TAG_VAR, tagValue: id, containment: this.deps.containment };
  }

  protected deliver(live: LiveSession, text: string): void {
    if (!live.agent) return;
    live.agent.send(text);
    live.turnOpen = true;
    this.refreshState(live);
  }

  protected drainQueue(live: LiveSession): void {
    if (live.turnOpen || live.state !== 'idle') return;
    const steered = live.steerNext.shift();
    if (steered !== undefined) return this.deliver(live, steered);
    const next = this.deps.queue.shift(live.id);
    if (!next) return;
    this.record(live.id, { subtype: 'message_dequeued', entry_id: next.id });
    this.deliver(live, next.text);
  }

  protected end(live: LiveSession, reason: EndReason, detail: string | null): void {
    if (live.state === 'ended') return;
    if (live.deadlineTimer) clearTimeout(live.deadlineTimer);
    if (live.killTimer) clearTimeout(live.killTimer);
    live.state = 'ended';
    this.live.delete(live.id);
    this.deps.broker.cancelSession(live.id, 'The session ended.');
    const dropped = this.deps.queue.clear(live.id);
    if (dropped) this.record(live.id, { subtype: 'queue_dropped', count: dropped });
    this.processes.ended(live.id);
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

  protected armDeadline(live: LiveSession): void {
    if (live.deadlineTimer) clearTimeout(live.deadlineTimer);
    live.deadlineTimer = setTimeout(
      () => this.stop(live.id, 'expired'),
      Math.max(0, live.deadlineAtMs - Date.now()),
    );
  }

  protected refreshState(live: LiveSession): void {
    const next = stateOf(live, this.deps.broker.pendingCount(live.id));
    if (next !== live.state) this.setState(live, next);
    else this.publish(live.id);
  }

  protected setState(live: LiveSession, state: SessionState): void {
    live.state = state;
    this.deps.sessions.update(live.id, { state });
    this.record(live.id, { subtype: 'state', state });
    this.publish(live.id);
  }

  protected requireLive(id: string): LiveSession {
    const live = this.live.get(id);
    // An agent that exited is being cleaned up: its session is about to end.
    const exited = live?.agent ? !live.agent.alive : false;
    if (live && live.state !== 'stopping' && !exited) return live;
    this.get(id);
    throw apiError('session_ended', 'The session has ended or is stopping.');
  }

  protected record(sessionId: string, fields: Record<string, unknown>): void {
    this.deps.events.appendJson(sessionId, 'relais', { type: 'relais', ...fields });
  }

  protected publish(id: string): void {
    const session = this.deps.sessions.get(id);
    if (session) this.deps.hub.publish({ type: 'session', session });
  }
}
