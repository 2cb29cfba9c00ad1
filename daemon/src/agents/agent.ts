import type { Effort, McpServer, ModelInfo, PermissionMode } from '../../../contract/api.js';
import type { LibraryKind } from '../../../contract/library.js';
import type { NetworkGatePool } from '../isolation/network-gate.js';
import type { IsolationPlanner } from '../isolation/session-isolation.js';
import type { McpInventory } from './mcp-launch.js';
import type { TranscriptReader } from './transcript-reader.js';
import type { StoredEvent } from '../events/event-store.js';
import type { OutlineReader } from '../events/outline.js';
import type { TextReader } from '../events/search-text.js';
import type { PolicyDecision } from './permission-policy.js';
import type { SessionMeta, TurnRecord } from './turn-record.js';

/** One quota window as an agent's account reports it (usage endpoint or stream). */
export interface QuotaReading {
  window: string;
  /** Percent 0–100 (may pass 100). */
  utilization: number;
  resets_at_ms: number | null;
  read_at_ms: number;
  source: 'usage_endpoint' | 'stream';
}

/** Where an agent reads a command and a skill, relative to its configuration folder. */
export interface LibraryLayout {
  file(kind: LibraryKind, name: string): string;
}

/**
 * What an agent needs of the subscription it runs under (subscriptions/ stores more): its id, the
 * folder that holds the agent's own configuration, and whether it is the built-in demo one.
 */
export interface AgentSubscription {
  id: string;
  config_dir: string;
  builtin: boolean;
}

/**
 * The seam between Relais and an agent: everything that knows a wire format (stream-json for
 * Claude, JSON-RPC for Codex) lives behind these interfaces, in the agent's own folder. The
 * session manager, the permission broker, the usage recorder and the quota service speak only this.
 */
export interface AgentDriver {
  readonly kind: string;
  /** Spawns the agent for one session, in an environment prepared for the subscription. */
  start(subscription: AgentSubscription, input: AgentLaunch, host: AgentHost): AgentProcess;
  /** Who the subscription is and which models it offers, without generating anything. */
  detect(subscription: AgentSubscription): Promise<AgentIdentity>;
  /** Reads the agent's stored events for the usage recorder and the quota service. */
  readonly reader: AgentReader;
  /** Where, in the subscription's folder, the agent reads a command and a skill of the library. */
  readonly libraryLayout: LibraryLayout;
}

export interface AgentLaunch {
  cwd: string;
  model: string;
  effort: Effort | null;
  permissionMode: PermissionMode;
  /** Marks every process of the session (SESSION_TAG_VAR) so leftovers can be found. */
  sessionTag: string;
  /** The cgroup the agent starts in (processes/containment.ts), when the machine gives one. */
  cage?: string | null;
  mcpServers?: Record<string, McpServer>;
  /** What each of those servers offered when Relais listed it at launch (to hide the rest). */
  mcpInventory?: McpInventory;
  /** The permanent instructions appended to the system prompt (new conversations only). */
  instructions?: string | null;
  /** The agent's own id of an earlier conversation to continue, when the user asks to resume. */
  resumeId?: string | null;
}

/** What a running agent asks of the session that owns it; nothing here names a wire format. */
export interface AgentHost {
  /** Stores one line verbatim: `agent` for what the agent printed, `host` for what Relais wrote. */
  record(source: 'agent' | 'host', data: string, receivedAtMs?: number): void;
  /** The permission engine, bound to this session. */
  permissions: PermissionGate;
  /** The agent's own id of the conversation (Claude's session_id, Codex's thread id). */
  onConversationId(id: string): void;
  /** The model produced an answer: the start worked. */
  onAnswered(): void;
  /** The turn ended; `error` is the agent's message when it ended in failure. */
  onTurnEnd(error: string | null): void;
  onExit(code: number | null, signal: NodeJS.Signals | null, stderrTail: string[]): void;
}

/** One request of the agent to use a tool (or to ask the person a question). */
export interface PermissionAsk {
  /** The agent's id for the request, to answer it or to learn it was withdrawn. */
  requestId: string;
  toolName: string;
  toolUseId: string | null;
  input: Record<string, unknown>;
  description: string | null;
  blockedPath: string | null;
}

/** What a person or the rules answered. */
export type PermissionAnswer =
  | { behavior: 'allow'; updatedInput: Record<string, unknown> }
  | { behavior: 'deny'; message: string };

export interface PermissionGate {
  /** The rules alone, before the agent asks: allow and deny are final, ask lets it ask. */
  check(toolName: string, input: Record<string, unknown>, toolUseId: string | null): PolicyDecision;
  /** The full path: rules, session rules, then a person; `answer` is called exactly once. */
  ask(request: PermissionAsk, answer: (answer: PermissionAnswer) => void): void;
  /** The agent withdrew a request it made. */
  withdraw(requestId: string): void;
}

/** A running agent process for one session. */
export interface AgentProcess {
  readonly pid: number;
  readonly alive: boolean;
  /** The handshake; resolves when the agent can take a message. */
  initialize(): Promise<void>;
  /** Starts a turn with the person's message. */
  send(text: string): void;
  /** Ends the running turn; resolves when the agent acknowledged (or the timeout passed). */
  interrupt(timeoutMs: number): Promise<void>;
  /**
   * Adds the text to the running turn now, rather than after it. False when the agent cannot
   * (then the session interrupts the turn and sends the text as the next one).
   */
  steer(text: string): Promise<boolean>;
  /** First step of a stop: no more input; the agent may end by itself. */
  closeInput(): void;
}

export interface AgentIdentity {
  account: Record<string, unknown>;
  /** A fingerprint of who the account is; null when the agent does not say (API keys). */
  accountKey: string | null;
  models: ModelInfo[];
  version: string | null;
}

/** Usage, quota and outline readings out of an agent's stored events. */
export interface AgentReader {
  /** Quota windows carried by one stored event (none for most). */
  quotaReadings(event: StoredEvent): QuotaReading[];
  /** What one stored event adds to the conversation's outline (turns, tool calls, context). */
  outline: OutlineReader;
  /** The texts of one stored event a person reads in its rows, for finding them. */
  text: TextReader;
  /** A follower of one session's events that closes turns into records. */
  turnCounter(sessionId: string, meta: SessionMeta): TurnCounter;
}

export interface TurnCounter {
  setMeta(meta: SessionMeta): void;
  /** An `agent` or `host` event of the session; returns a turn when one closed. */
  hear(event: StoredEvent): TurnRecord | null;
  /** Relais' decision on a tool call (allowed, denied, auto_allowed…). */
  permission(toolUseId: string, decision: string): void;
  /** The session ended with a turn open. */
  abandon(atMs: number, reason: string): TurnRecord | null;
}

/** What a driver is built with: the daemon's settings an agent may need. */
export interface AgentContext {
  /** The scripted model's base URL, for the built-in demo subscription. */
  demoModelUrl: () => string | null;
  /** HOME of the agents' processes. */
  agentHome: string;
  /** Confines a session's agent and commands; null runs them unconfined. */
  planner: IsolationPlanner | null;
  /** Network gates for confined sessions; null when commands run unconfined. */
  gates: NetworkGatePool | null;
}

/** One agent as the catalog lists it (agents/catalog.ts): a kind, its reader, its driver. */
export interface AgentEntry {
  kind: string;
  /** Stateless reader of the agent's stored events (usage, quotas, outline). */
  reader: AgentReader;
  /** Reads the transcripts the agent writes outside Relais (history import); null when none. */
  transcripts: TranscriptReader | null;
  /** The package Relais runs from its own node_modules, for the version check and diagnostics. */
  pinned: { package: string; version: () => string | null } | null;
  driver(context: AgentContext): AgentDriver;
}

/** The agents Relais knows, by kind. */
export class AgentRegistry {
  private readonly drivers = new Map<string, AgentDriver>();

  constructor(entries: readonly AgentEntry[], context: AgentContext) {
    for (const entry of entries) this.drivers.set(entry.kind, entry.driver(context));
  }

  kinds(): string[] {
    return [...this.drivers.keys()];
  }

  get(kind: string): AgentDriver {
    const driver = this.drivers.get(kind);
    if (!driver) throw new Error(`no agent of kind ${kind}`);
    return driver;
  }
}
