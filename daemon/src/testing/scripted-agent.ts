import type {
  AgentEntry,
  AgentHost,
  AgentLaunch,
  AgentProcess,
  AgentReader,
  PermissionAnswer,
} from '../agents/agent.js';
import type { Db } from '../db/database.js';
import { nowIso } from '../ids.js';

/**
 * Above any Linux pid_max (2^22): the session manager signals the agent's process group when it
 * ends, and a group that cannot exist is the one a process-less fake may safely name.
 */
const NO_SUCH_PID = 2 ** 30;

/**
 * An agent with no process: the test plays it, calling the host as a real driver would (an
 * answer, the turn's end, a permission request, an exit). What Relais wrote to it is kept.
 */
export class ScriptedProcess implements AgentProcess {
  readonly pid = NO_SUCH_PID;
  alive = true;
  readonly sent: string[] = [];
  inputClosed = false;
  /** Ends by itself once its input is closed, as a real agent does at the end of its stdin. */
  exitOnClose = false;
  interrupts = 0;
  private ready!: () => void;
  private failed!: (error: Error) => void;
  private readonly handshake = new Promise<void>((resolve, reject) => {
    this.ready = resolve;
    this.failed = reject;
  });

  constructor(
    readonly host: AgentHost,
    readonly launch: AgentLaunch,
  ) {
    // An exit before the handshake rejects it; the session manager awaits it, a test may not.
    this.handshake.catch(() => undefined);
  }

  initialize(): Promise<void> {
    return this.handshake;
  }

  /** The handshake ends: the session may take its first message. */
  greet(): void {
    this.ready();
  }

  send(text: string): void {
    this.sent.push(text);
  }

  interrupt(): Promise<void> {
    this.interrupts++;
    return Promise.resolve();
  }

  steer(): Promise<boolean> {
    return Promise.resolve(false);
  }

  closeInput(): void {
    this.inputClosed = true;
    if (this.exitOnClose) queueMicrotask(() => this.alive && this.exit(0));
  }

  /** The model answered and the turn ended (with an error line, when given). */
  finishTurn(error: string | null = null): void {
    this.host.record('agent', JSON.stringify({ type: 'answer', turn: this.sent.length }));
    if (error === null) this.host.onAnswered();
    this.host.onTurnEnd(error);
  }

  /** Asks to run a tool; resolves with what the rules or a person answered. */
  ask(toolName: string, input: Record<string, unknown>): Promise<PermissionAnswer> {
    const requestId = `req-${this.sent.length}-${toolName}`;
    return new Promise((resolve) =>
      this.host.permissions.ask(
        { requestId, toolName, toolUseId: requestId, input, description: null, blockedPath: null },
        resolve,
      ),
    );
  }

  /** The agent is gone: a failed handshake rejects, and the session hears the exit. */
  exit(code: number | null, stderr: string[] = [], signal: NodeJS.Signals | null = null): void {
    if (!this.alive) return;
    this.alive = false;
    this.failed(new Error('the agent exited'));
    this.host.onExit(code, signal, stderr);
  }
}

/** A reader that finds no quota, outline or turn in any event: for agents that say nothing of them. */
export const silentReader: AgentReader = {
  quotaReadings: () => [],
  outline: () => null,
  text: () => [],
  turnCounter: () => ({
    setMeta: () => undefined,
    hear: () => null,
    permission: () => undefined,
    abandon: () => null,
  }),
};

/** The scripted agent's catalog entry and every process it started, newest last. */
export function scriptedAgent(kind = 'scripted'): {
  entry: AgentEntry;
  started: ScriptedProcess[];
} {
  const started: ScriptedProcess[] = [];
  const entry: AgentEntry = {
    kind,
    reader: silentReader,
    transcripts: null,
    pinned: null,
    driver: () => ({
      kind,
      reader: silentReader,
      libraryLayout: { file: (libraryKind, name) => `${kind}/${libraryKind}/${name}` },
      detect: () => Promise.resolve({ account: {}, accountKey: null, models: [], version: null }),
      start: (_subscription, launch, host) => {
        const process = new ScriptedProcess(host, launch);
        started.push(process);
        return process;
      },
    }),
  };
  return { entry, started };
}

/** A subscription of the given agent, as the subscriptions service would store it. */
export function insertSubscription(db: Db, id: string, agent: string, configDir: string): void {
  db.prepare(
    `INSERT INTO subscriptions (id, name, agent, config_dir, builtin, models_json, created_at)
     VALUES (?, ?, ?, ?, 0, '[]', ?)`,
  ).run(id, id, agent, configDir, nowIso());
}
