import type {
  AgentHost,
  AgentLaunch,
  AgentProcess,
  PermissionAnswer,
  PermissionAsk,
} from '../agent.js';
import type { SpawnSpec } from '../../processes/spawn-agent.js';
import { CodexRpc, type RpcMessage } from './codex-rpc.js';
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
  private readonly items = new Map<string, Json>();
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
      onLine: (text, message, receivedAtMs) => this.onLine(text, message, receivedAtMs),
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

  private onLine(text: string, message: RpcMessage | null, receivedAtMs: number): void {
    const data = message ? text : JSON.stringify({ type: 'relais', subtype: 'agent_text', text });
    this.host.record('agent', data, receivedAtMs);
    if (!message?.method) return;
    const params = obj(message.params);
    if (message.id !== undefined) return this.onServerRequest(message.id, message.method, params);
    this.onNotification(message.method, params);
  }

  private onNotification(method: string, params: Json): void {
    switch (method) {
      case 'turn/started':
        this.turnId = str(obj(params['turn'])['id']) ?? this.turnId;
        return;
      case 'item/started': {
        const item = obj(params['item']);
        const id = str(item['id']);
        if (id) this.items.set(id, item);
        return;
      }
      case 'item/completed': {
        const item = obj(params['item']);
        const id = str(item['id']);
        if (id) this.items.delete(id);
        if (item['type'] === 'agentMessage') this.host.onAnswered();
        return;
      }
      case 'error':
        if (params['willRetry'] !== true)
          this.turnError = str(obj(params['error'])['message']) ?? 'Codex reported an error';
        return;
      case 'serverRequest/resolved': {
        const id = params['requestId'];
        if (typeof id === 'number' || typeof id === 'string')
          this.host.permissions.withdraw(String(id));
        return;
      }
      case 'turn/completed':
        return this.onTurnCompleted(obj(params['turn']));
      default:
        return;
    }
  }

  private onTurnCompleted(turn: Json): void {
    this.turnId = null;
    this.items.clear();
    const failed = turn['status'] === 'failed';
    const error = failed
      ? (str(obj(turn['error'])['message']) ?? this.turnError ?? 'the turn failed')
      : null;
    this.turnError = null;
    this.host.onTurnEnd(error);
  }

  private onServerRequest(id: number | string, method: string, params: Json): void {
    const requestId = String(id);
    const itemId = str(params['itemId']);
    if (method === 'item/commandExecution/requestApproval') {
      const raw = str(params['command']) ?? '';
      const reason = str(params['reason']);
      if (this.jailed && !runsWrappedShell(raw))
        return this.answerDecision(id, {
          behavior: 'deny',
          message: 'Relais runs commands through the system shells only.',
        });
      const ask: PermissionAsk = {
        requestId,
        toolName: 'Bash',
        toolUseId: itemId,
        input: { command: unwrapShell(raw), ...(reason ? { description: reason } : {}) },
        description: reason,
        blockedPath: null,
      };
      return this.host.permissions.ask(ask, (answer) => this.answerDecision(id, answer));
    }
    if (method === 'item/fileChange/requestApproval')
      return this.askFileChanges(id, requestId, itemId, str(params['reason']));
    if (method === 'item/tool/requestUserInput')
      return this.askQuestions(id, requestId, itemId, params);
    // Anything else Codex asks (dynamic tools, elicitations, extra permissions): refused.
    this.reply(id, { error: { code: -32601, message: `Relais does not handle ${method}` } });
  }

  /** One prompt per changed file, in order: the change goes through only if every file is allowed. */
  private askFileChanges(
    id: number | string,
    requestId: string,
    itemId: string | null,
    reason: string | null,
  ): void {
    const item = itemId ? this.items.get(itemId) : undefined;
    const changes = Array.isArray(item?.['changes']) ? (item['changes'] as unknown[]).map(obj) : [];
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
      const kind = str(obj(change['kind'])['type']) ?? 'update';
      const path = str(change['path']) ?? '';
      this.host.permissions.ask(
        {
          requestId,
          toolName: kind === 'add' ? 'Write' : 'Edit',
          toolUseId: itemId,
          input: { file_path: path, diff: str(change['diff']) ?? '', kind },
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
  private askQuestions(
    id: number | string,
    requestId: string,
    itemId: string | null,
    params: Json,
  ): void {
    const questions = Array.isArray(params['questions'])
      ? (params['questions'] as unknown[]).map(obj)
      : [];
    const shown = questions.map((q) => ({
      question: str(q['question']) ?? '',
      header: str(q['header']) ?? '',
      options: (Array.isArray(q['options']) ? (q['options'] as unknown[]) : []).map((o) => ({
        label: str(obj(o)['label']) ?? '',
        description: str(obj(o)['description']) ?? '',
      })),
      multiSelect: false,
    }));
    this.host.permissions.ask(
      {
        requestId,
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
        const answers: Json = {};
        questions.forEach((q, index) => {
          const text = str(given[shown[index]!.question]);
          const qid = str(q['id']);
          if (qid && text !== null) answers[qid] = { answers: text.split(', ') };
        });
        this.reply(id, { result: { answers } });
      },
    );
  }

  private answerDecision(id: number | string, answer: PermissionAnswer): void {
    this.reply(id, { result: { decision: answer.behavior === 'allow' ? 'accept' : 'decline' } });
  }

  private reply(id: number | string, body: Json): void {
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
