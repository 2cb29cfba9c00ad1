import type { PermissionMode, SessionState } from '../../../contract/api.js';
import type { AgentProcess } from '../agents/agent.js';

/** What the daemon holds in memory for a session whose agent is running. */
export interface LiveSession {
  id: string;
  subscriptionId: string;
  cwd: string;
  permissionMode: PermissionMode;
  /** The only MCP tools the session may use (`mcp__server__tool`), as its launch allowed them. */
  mcpTools: readonly string[];
  /** Commands no rule decides run without a prompt (they run confined). */
  confinedWithoutAsking: boolean;
  agent: AgentProcess | null;
  state: SessionState;
  /** A user message was sent and its turn has not ended yet. */
  turnOpen: boolean;
  /** Whether the agent has answered yet, for failed-start accounting. */
  outcome: 'pending' | 'answered' | 'failed';
  interruptRequested: boolean;
  /** Text to send as soon as the interrupted turn ends ("steer now" on an agent that cannot steer). */
  steerNext: string[];
  /** The lifetime asked at launch: what a heartbeat without a figure extends by. */
  ttlSeconds: number;
  deadlineAtMs: number;
  maxDeadlineAtMs: number;
  deadlineTimer: NodeJS.Timeout | null;
  killTimer: NodeJS.Timeout | null;
  stopReason: 'stopped' | 'expired' | 'daemon_shutdown' | null;
  exited: Promise<void>;
  markExited(): void;
}

/** A session about to start its agent: its deadline from now, its maximum from the daemon's. */
export function newLiveSession(
  fields: Pick<
    LiveSession,
    | 'id'
    | 'subscriptionId'
    | 'cwd'
    | 'permissionMode'
    | 'mcpTools'
    | 'confinedWithoutAsking'
    | 'ttlSeconds'
  > & { maxTtlSeconds: number },
): LiveSession {
  const { maxTtlSeconds, ...given } = fields;
  const now = Date.now();
  let markExited: () => void = () => undefined;
  return {
    ...given,
    agent: null,
    state: 'starting',
    turnOpen: false,
    outcome: 'pending',
    interruptRequested: false,
    steerNext: [],
    deadlineAtMs: now + given.ttlSeconds * 1000,
    maxDeadlineAtMs: now + maxTtlSeconds * 1000,
    deadlineTimer: null,
    killTimer: null,
    stopReason: null,
    exited: new Promise<void>((resolve) => (markExited = resolve)),
    markExited: () => markExited(),
  };
}

export function stateOf(live: LiveSession, pendingPermissions: number): SessionState {
  if (live.state === 'stopping' || live.state === 'ended' || live.state === 'starting')
    return live.state;
  if (!live.turnOpen) return 'idle';
  return pendingPermissions > 0 ? 'waiting' : 'working';
}
