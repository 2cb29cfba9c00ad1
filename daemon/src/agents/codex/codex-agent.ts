import type {
  AgentHost,
  AgentLaunch,
  AgentProcess,
  PermissionAnswer,
  PermissionAsk,
} from '../agent.js';
import type { SpawnSpec } from '../../processes/spawn-agent.js';
import type { CodexControl, FileChange, Question, RequestId } from './codex-control.js';
import { CodexRpc } from './codex-rpc.js';
import { unwrapShell } from './shell.js';
import { runsWrappedShell } from '../../isolation/codex-shell.js';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json =>
  (value && typeof value === 'object' && !Array.isArray(value) ? value : {}) as Json;
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

const INIT_TIMEOUT_MS = 60_000;
const REQUEST_TIMEOUT_MS = 30_000;
/** Codex efforts by Relais' names; `max` is Codex's `xhigh`. */
const EFFORTS: Record<string, string> = {
  low: 'low',
  medium: 'medium',
  high: 'high',
  xhigh: 'xhigh',
  max: 'xhigh',
};

/**
 * One `codex app-server` of a session: a thread started under `untrusted`, so Codex asks for every
 * command and file change, and each request decided by Relais' permission engine (PROTOCOLS §3.5).
 */
export class CodexSession implements AgentProcess {
  private readonly rpc: CodexRpc;
  private threadId: string | null = null;
  private turnId: string | null = null;
  /** Items seen started, by id: a file change's paths come with its item, not its request. */
  private readonly items = new Map<string, FileChange[]>();
  /** The last error Codex reported in this turn, for a failed turn's message. */
  private turnError: string | null = null;

  constructor(
    spec: SpawnSpec,
    private readonly launch: AgentLaunch,
    private readonly host: AgentHost,
    /**
     * Started in Relais' jail (isolation/codex-jail.ts): each command then runs in a nested jail,
     * which Codex's own sandbox would forbid (it refuses new namespaces), so Codex's stays off.
     */
    private readonly jailed = false,
  ) {
    this.rpc = new CodexRpc(spec, {
      onLine: (text, control, receivedAtMs) => this.onLine(text, control, receivedAtMs),
      onExit: (code, signal, stderr) => host.onExit(code, signal, stderr),
    });
  }

  get pid(): number {
    return this.rpc.pid;
  }

  get alive(): boolean {
    return this.rpc.alive;
  }

  async initialize(): Promise<void> {
    await this.call(
      'initialize',
      {
        clientInfo: { name: 'relais', title: 'Relais', version: '0.1.0' },
        capabilities: { experimentalApi: true },
      },
      INIT_TIMEOUT_MS,
    );
    this.host.record('host', this.rpc.write({ method: 'initialized' }));
    const threadParams: Json = {
      cwd: this.launch.cwd,
      // Every command and file change is asked (under on-request a command inside the workspace runs without asking).
      approvalPolicy: 'untrusted',
      sandbox: this.jailed
        ? 'danger-full-access'
        : this.launch.permissionMode === 'read_only'
          ? 'read-only'
          : 'workspace-write',
    };
    if (this.launch.model && this.launch.model !== 'default')
      threadParams['model'] = this.launch.model;
    // Relais' permanent instructions, as Codex's developer instructions of a new thread only.
    if (this.launch.instructions && !this.launch.resumeId)
      threadParams['developerInstructions'] = this.launch.instructions;
    const started = obj(
      this.launch.resumeId
        ? await this.call(
            'thread/resume',
            { threadId: this.launch.resumeId, ...threadParams },
            INIT_TIMEOUT_MS,
          )
        : await this.call('thread/start', threadParams, INIT_TIMEOUT_MS),
    );
    const threadId = str(obj(started['thread'])['id']);
    if (!threadId) throw new Error('Codex started no thread');
    this.threadId = threadId;
    this.host.onConversationId(threadId);
  }

  send(text: string): void {
    const params: Json = { threadId: this.threadId, input: [textInput(text)] };
    const effort = this.launch.effort ? EFFORTS[this.launch.effort] : undefined;
    if (effort) params['effort'] = effort;
    this.turnError = null;
    this.call('turn/start', params, REQUEST_TIMEOUT_MS)
      .then((result) => {
        const id = str(obj(obj(result)['turn'])['id']);
        if (id) this.turnId ??= id;
      })
      .catch((error: unknown) => {
        // The turn never started: end it here so the session does not wait forever.
        if (this.rpc.alive) this.host.onTurnEnd(messageOf(error));
      });
  }

  async interrupt(timeoutMs: number): Promise<void> {
    if (!this.threadId || !this.turnId) return;
    await this.call('turn/interrupt', { threadId: this.threadId, turnId: this.turnId }, timeoutMs);
  }

  async steer(text: string): Promise<boolean> {
    if (!this.threadId || !this.turnId) return false;
    await this.call(
      'turn/steer',
      { threadId: this.threadId, input: [textInput(text)], expectedTurnId: this.turnId },
      REQUEST_TIMEOUT_MS,
    );
    return true;
  }

  closeInput(): void {
    this.rpc.closeInput();
  }

  private call(method: string, params: Json, timeoutMs: number): Promise<unknown> {
    return this.rpc.request(method, params, timeoutMs, (text) => this.host.record('host', text));
  }

  private onLine(text: string, control: CodexControl | null, receivedAtMs: number): void {
    const data = control ? text : JSON.stringify({ type: 'relais', subtype: 'agent_text', text });
    this.host.record('agent', data, receivedAtMs);
    if (control) this.onControl(control);
  }

  private onControl(control: CodexControl): void {
    switch (control.kind) {
      case 'turn_started':
        this.turnId = control.turnId ?? this.turnId;
        return;
      case 'item_started':
        if (control.itemId) this.items.set(control.itemId, control.changes);
        return;
      case 'item_completed':
        if (control.itemId) this.items.delete(control.itemId);
        if (control.agentMessage) this.host.onAnswered();
        return;
      case 'error':
        if (!control.willRetry) this.turnError = control.message ?? 'Codex reported an error';
        return;
      case 'request_resolved':
        if (control.requestId !== null) this.host.permissions.withdraw(control.requestId);
        return;
      case 'turn_completed':
        return this.onTurnCompleted(control.failed, control.error);
      case 'command_approval':
        return this.askCommand(control);
      case 'file_change_approval':
        return this.askFileChanges(control.id, control.itemId, control.reason);
      case 'user_input':
        return this.askQuestions(control.id, control.itemId, control.questions);
      case 'unhandled':
        // Anything else Codex asks (dynamic tools, elicitations, extra permissions): refused.
        return this.reply(control.id, {
          error: { code: -32601, message: `Relais does not handle ${control.method}` },
        });
      default:
        return;
    }
  }

  private onTurnCompleted(failed: boolean, error: string | null): void {
    this.turnId = null;
    this.items.clear();
    const message = failed ? (error ?? this.turnError ?? 'the turn failed') : null;
    this.turnError = null;
    this.host.onTurnEnd(message);
  }

  private askCommand(request: Extract<CodexControl, { kind: 'command_approval' }>): void {
    const { id, itemId, command, reason } = request;
    if (this.jailed && !runsWrappedShell(command))
      return this.answerDecision(id, {
        behavior: 'deny',
        message: 'Relais runs commands through the system shells only.',
      });
    const ask: PermissionAsk = {
      requestId: String(id),
      toolName: 'Bash',
      toolUseId: itemId,
      input: { command: unwrapShell(command), ...(reason ? { description: reason } : {}) },
      description: reason,
      blockedPath: null,
    };
    this.host.permissions.ask(ask, (answer) => this.answerDecision(id, answer));
  }

  /** One prompt per changed file, in order: the change goes through only if every file is allowed. */
  private askFileChanges(id: RequestId, itemId: string | null, reason: string | null): void {
    const changes = (itemId ? this.items.get(itemId) : undefined) ?? [];
    if (changes.length === 0) {
      this.answerDecision(id, {
        behavior: 'deny',
        message: 'Relais could not see what would change.',
      });
      return;
    }
    const next = (index: number): void => {
      const change = changes[index];
      if (!change) return this.answerDecision(id, { behavior: 'allow', updatedInput: {} });
      this.host.permissions.ask(
        {
          requestId: String(id),
          toolName: change.kind === 'add' ? 'Write' : 'Edit',
          toolUseId: itemId,
          input: { file_path: change.path, diff: change.diff, kind: change.kind },
          description: reason,
          blockedPath: null,
        },
        (answer) =>
          answer.behavior === 'allow' ? next(index + 1) : this.answerDecision(id, answer),
      );
    };
    next(0);
  }

  /** Codex's questions, shown as Claude's AskUserQuestion so the console asks them the same way. */
  private askQuestions(id: RequestId, itemId: string | null, questions: Question[]): void {
    const shown = questions.map(({ question, header, options }) => ({
      question,
      header,
      options,
      multiSelect: false,
    }));
    this.host.permissions.ask(
      {
        requestId: String(id),
        toolName: 'AskUserQuestion',
        toolUseId: itemId,
        input: { questions: shown },
        description: null,
        blockedPath: null,
      },
      (answer) => {
        if (answer.behavior !== 'allow') {
          this.reply(id, { result: { answers: {} } });
          return;
        }
        const given = obj(answer.updatedInput['answers']);
        // Own keys only, both ways: a question named `constructor` or an id `__proto__` is plain text.
        const answers = Object.fromEntries(
          questions.flatMap(({ id: qid, question }) => {
            const text = Object.hasOwn(given, question) ? str(given[question]) : null;
            return qid && text !== null ? [[qid, { answers: text.split(', ') }]] : [];
          }),
        );
        this.reply(id, { result: { answers } });
      },
    );
  }

  private answerDecision(id: RequestId, answer: PermissionAnswer): void {
    this.reply(id, { result: { decision: answer.behavior === 'allow' ? 'accept' : 'decline' } });
  }

  private reply(id: RequestId, body: Json): void {
    if (!this.rpc.alive) return;
    this.host.record('host', this.rpc.write({ id, ...body }));
  }
}

function textInput(text: string): Json {
  return { type: 'text', text, text_elements: [] };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
