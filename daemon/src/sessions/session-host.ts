import type { AgentHost, PermissionGate } from '../agents/agent.js';
import type { EventStore } from '../events/event-store.js';
import type { AskContext, PermissionBroker } from '../permissions/permission-broker.js';
import type { LiveSession } from './live-session.js';
import type { SessionRepo } from './session-repo.js';

/** What the session manager does when its agent reports (the host calls these). */
export interface HostEvents {
  onAnswered(live: LiveSession): void;
  onFailedStart(live: LiveSession, errorLine: string): void;
  onTurnEnd(live: LiveSession): void;
  onExit(
    live: LiveSession,
    code: number | null,
    signal: NodeJS.Signals | null,
    stderr: string[],
  ): void;
  /** A permission request of the session was opened or settled: its state may change. */
  refreshState(live: LiveSession): void;
}

export interface HostDeps {
  events: EventStore;
  sessions: SessionRepo;
  broker: PermissionBroker;
}

/** What a running agent asks of its session: storage of its lines, permissions, its turns. */
export function sessionHost(live: LiveSession, deps: HostDeps, on: HostEvents): AgentHost {
  return {
    record: (source, data, receivedAtMs) =>
      deps.events.append(live.id, source, data, receivedAtMs ?? Date.now()),
    permissions: permissionGate(live, deps.broker, on),
    onConversationId: (agentSessionId) =>
      deps.sessions.update(live.id, { agent_session_id: agentSessionId }),
    onAnswered: () => on.onAnswered(live),
    onTurnEnd: (error) => {
      if (error !== null && !live.interruptRequested) on.onFailedStart(live, error);
      on.onTurnEnd(live);
    },
    onExit: (code, signal, stderr) => on.onExit(live, code, signal, stderr),
  };
}

/** The permission engine as the agent sees it: bound to this session, its folder and mode. */
function permissionGate(
  live: LiveSession,
  broker: PermissionBroker,
  on: HostEvents,
): PermissionGate {
  const context = (answer: AskContext['answer']): AskContext => ({
    sessionId: live.id,
    subscriptionId: live.subscriptionId,
    cwd: live.cwd,
    permissionMode: live.permissionMode,
    mcpTools: live.mcpTools,
    confinedWithoutAsking: live.confinedWithoutAsking,
    answer,
    onPendingChange: () => on.refreshState(live),
  });
  return {
    check: (toolName, input, toolUseId) =>
      broker.check(
        toolName,
        input,
        toolUseId,
        context(() => undefined),
      ),
    ask: (request, answer) => broker.open(request, context(answer)),
    withdraw: (requestId) => broker.withdraw(live.id, requestId),
  };
}
