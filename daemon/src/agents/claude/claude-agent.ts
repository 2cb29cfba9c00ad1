import type { AgentSubscription as StoredSubscription, LibraryLayout } from '../agent.js';
import type {
  AgentDriver,
  AgentHost,
  AgentIdentity,
  AgentLaunch,
  AgentProcess,
  PermissionAnswer,
} from '../agent.js';
import { ClaudeProcess, type ControlRequestLine } from './claude-process.js';
import { detectIdentity } from './detect.js';
import type { ClaudeLauncher } from './launcher.js';
import { claudeReader } from './claude-reader.js';
import type { NetworkGatePool } from '../../isolation/network-gate.js';
import { networkAsk } from '../../isolation/network-ask.js';

const INIT_TIMEOUT_MS = 60_000;
const PRE_TOOL_USE_HOOK = 'relais_pre_tool_use';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' ? value : {}) as Json;
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** Claude Code over stream-json: the launcher's spawn, the control protocol, the stream's meaning. */
export class ClaudeDriver implements AgentDriver {
  readonly kind = 'claude' as const;
  readonly reader = claudeReader;
  /** CLAUDE_CONFIG_DIR/commands/<name>.md and CLAUDE_CONFIG_DIR/skills/<name>/SKILL.md. */
  readonly libraryLayout: LibraryLayout = {
    file: (kind, name) => (kind === 'command' ? `commands/${name}.md` : `skills/${name}/SKILL.md`),
  };

  constructor(
    private readonly launcher: ClaudeLauncher,
    /** Network gates for confined sessions; null when commands run unconfined. */
    private readonly gates: NetworkGatePool | null = null,
  ) {}

  start(subscription: StoredSubscription, input: AgentLaunch, host: AgentHost): AgentProcess {
    const gate = this.gates?.take() ?? null;
    try {
      const spec = this.launcher.spec(subscription, { ...input, proxyPort: gate?.port ?? null });
      gate?.bind(networkAsk(host));
      return new ClaudeSession(spec, host, () => gate?.close());
    } catch (error: unknown) {
      gate?.close();
      throw error;
    }
  }

  detect(subscription: StoredSubscription): Promise<AgentIdentity> {
    return detectIdentity(this.launcher.detectSpec(subscription, subscription.config_dir));
  }
}

/** One Claude Code process of a session, with every control message it sends answered. */
class ClaudeSession implements AgentProcess {
  private readonly process: ClaudeProcess;

  constructor(
    spec: ConstructorParameters<typeof ClaudeProcess>[0],
    private readonly host: AgentHost,
    onEnd: () => void = () => undefined,
  ) {
    this.process = new ClaudeProcess(spec, {
      onLine: (text, parsed, receivedAtMs) => this.onLine(text, parsed, receivedAtMs),
      onControlRequest: (line) => this.onControlRequest(line),
      onControlCancel: (requestId) => host.permissions.withdraw(requestId),
      onExit: (code, signal, stderr) => {
        onEnd();
        host.onExit(code, signal, stderr);
      },
    });
  }

  get pid(): number {
    return this.process.pid;
  }

  get alive(): boolean {
    return this.process.alive;
  }

  async initialize(): Promise<void> {
    // Every tool call of the agent passes through Relais' rules first, even those it would allow by itself.
    await this.process.request(
      'initialize',
      { hooks: { PreToolUse: [{ hookCallbackIds: [PRE_TOOL_USE_HOOK] }] } },
      INIT_TIMEOUT_MS,
    );
  }

  send(text: string): void {
    this.write(this.process.userMessageLine(text));
  }

  async interrupt(timeoutMs: number): Promise<void> {
    await this.process.request('interrupt', {}, timeoutMs);
  }

  /** stream-json cannot add to a running turn: the session interrupts, then sends. */
  steer(): Promise<boolean> {
    return Promise.resolve(false);
  }

  closeInput(): void {
    this.process.closeInput();
  }

  private onLine(text: string, parsed: Json | null, receivedAtMs: number): void {
    const data = parsed ? text : JSON.stringify({ type: 'relais', subtype: 'agent_text', text });
    this.host.record('agent', data, receivedAtMs);
    if (!parsed) return;
    if (parsed['type'] === 'system' && parsed['subtype'] === 'init') {
      const id = str(parsed['session_id']);
      if (id) this.host.onConversationId(id);
    }
    if (parsed['type'] === 'assistant' && parsed['error'] === undefined) this.host.onAnswered();
    if (parsed['type'] === 'result') {
      const failed = parsed['is_error'] === true;
      if (!failed) this.host.onAnswered();
      this.host.onTurnEnd(failed ? (str(parsed['result']) ?? 'the first turn failed') : null);
    }
  }

  private onControlRequest(line: ControlRequestLine): void {
    const request = line.request;
    if (request.subtype === 'hook_callback' && request['callback_id'] === PRE_TOOL_USE_HOOK) {
      const hookInput = obj(request['input']);
      const verdict = this.host.permissions.check(
        str(hookInput['tool_name']) ?? 'unknown',
        obj(hookInput['tool_input']),
        str(hookInput['tool_use_id']),
      );
      const reason =
        verdict.decision === 'deny' ? (verdict.report ?? verdict.reason) : verdict.reason;
      this.write({
        type: 'control_response',
        response: {
          subtype: 'success',
          request_id: line.request_id,
          response: {
            hookSpecificOutput: {
              hookEventName: 'PreToolUse',
              permissionDecision: verdict.decision,
              permissionDecisionReason: reason,
              ...(verdict.decision === 'allow' && verdict.updatedInput !== undefined
                ? { updatedInput: verdict.updatedInput }
                : {}),
            },
          },
        },
      });
      return;
    }
    if (request.subtype !== 'can_use_tool') {
      this.write({
        type: 'control_response',
        response: {
          subtype: 'error',
          request_id: line.request_id,
          error: `Relais does not handle ${request.subtype}`,
        },
      });
      return;
    }
    this.host.permissions.ask(
      {
        requestId: line.request_id,
        toolName: str(request['tool_name']) ?? 'unknown',
        toolUseId: str(request['tool_use_id']),
        input: obj(request['input']),
        description: str(request['description']),
        blockedPath: str(request['blocked_path']),
      },
      (answer: PermissionAnswer) => {
        if (!this.process.alive) return;
        const written = this.process.respond(line.request_id, answer as unknown as Json);
        this.host.record('host', JSON.stringify(written));
      },
    );
  }

  private write(line: Json): void {
    this.host.record('host', this.process.write(line));
  }
}
