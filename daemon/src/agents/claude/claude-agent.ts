import type { AgentSubscription as StoredSubscription, LibraryLayout } from '../agent.js';
import type {
  AgentDriver,
  AgentHost,
  AgentIdentity,
  AgentLaunch,
  AgentProcess,
  PermissionAnswer,
} from '../agent.js';
import type { ClaudeControl } from './claude-control.js';
import { ClaudeProcess, type ControlRequest } from './claude-process.js';
import { detectIdentity } from './detect.js';
import type { ClaudeLauncher } from './launcher.js';
import { claudeReader } from './claude-reader.js';
import type { NetworkGatePool } from '../../isolation/network-gate.js';
import { networkAsk } from '../../isolation/network-ask.js';

const INIT_TIMEOUT_MS = 60_000;
const PRE_TOOL_USE_HOOK = 'relais_pre_tool_use';

type Json = Record<string, unknown>;

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
      onLine: (text, control, receivedAtMs) => this.onLine(text, control, receivedAtMs),
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

  private onLine(text: string, control: ClaudeControl | null, receivedAtMs: number): void {
    const data = control ? text : JSON.stringify({ type: 'relais', subtype: 'agent_text', text });
    this.host.record('agent', data, receivedAtMs);
    switch (control?.kind) {
      case 'init':
        if (control.sessionId) this.host.onConversationId(control.sessionId);
        return;
      case 'assistant':
        if (!control.apiError) this.host.onAnswered();
        return;
      case 'result':
        if (!control.isError) this.host.onAnswered();
        this.host.onTurnEnd(control.isError ? (control.text ?? 'the first turn failed') : null);
        return;
      default:
        return;
    }
  }

  private onControlRequest(request: ControlRequest): void {
    if (request.kind === 'hook' && request.callbackId === PRE_TOOL_USE_HOOK)
      return this.answerHook(request);
    if (request.kind !== 'permission') {
      const subtype = request.kind === 'hook' ? 'hook_callback' : request.subtype;
      this.write({
        type: 'control_response',
        response: {
          subtype: 'error',
          request_id: request.requestId,
          error: `Relais does not handle ${subtype}`,
        },
      });
      return;
    }
    const { requestId, toolName, toolUseId, input, description, blockedPath } = request;
    this.host.permissions.ask(
      { requestId, toolName, toolUseId, input, description, blockedPath },
      (answer: PermissionAnswer) => {
        if (!this.process.alive) return;
        const written = this.process.respond(requestId, answer as unknown as Json);
        this.host.record('host', JSON.stringify(written));
      },
    );
  }

  /** Relais' rules on every tool call, through the PreToolUse hook registered at initialize. */
  private answerHook(hook: Extract<ControlRequest, { kind: 'hook' }>): void {
    const verdict = this.host.permissions.check(hook.toolName, hook.toolInput, hook.toolUseId);
    const reason =
      verdict.decision === 'deny' ? (verdict.report ?? verdict.reason) : verdict.reason;
    this.write({
      type: 'control_response',
      response: {
        subtype: 'success',
        request_id: hook.requestId,
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
  }

  private write(line: Json): void {
    this.host.record('host', this.process.write(line));
  }
}
