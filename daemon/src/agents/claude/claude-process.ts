import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { killProcessGroup } from '../../processes/process-groups.js';
import { spawnAgent, type SpawnSpec } from '../../processes/spawn-agent.js';
import { decodeClaudeControl, type ClaudeControl, type ResponseOutcome } from './claude-control.js';

/** A control request of the agent, for the caller to answer. */
export type ControlRequest = Extract<ClaudeControl, { kind: 'permission' | 'hook' | 'unhandled' }>;

export interface ClaudeProcessHandlers {
  /** Every stdout line, as printed, with what it says when it is a JSON object (null otherwise). */
  onLine(text: string, control: ClaudeControl | null, receivedAtMs: number): void;
  onControlRequest(request: ControlRequest): void;
  onControlCancel(requestId: string): void;
  onExit(code: number | null, signal: NodeJS.Signals | null, stderrTail: string[]): void;
}

const STDERR_TAIL = 20;

/**
 * One running Claude Code process in stream-json mode: NDJSON in, NDJSON out, and the control
 * protocol on the same pipes. Spawned detached so that it leads its own process group.
 */
export class ClaudeProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly pending = new Map<
    string,
    { resolve(value: unknown): void; reject(error: Error): void }
  >();
  private readonly stderrTail: string[] = [];
  private nextRequest = 1;
  private exited = false;
  readonly pid: number;

  constructor(
    spec: SpawnSpec,
    private readonly handlers: ClaudeProcessHandlers,
  ) {
    this.child = spawnAgent(spec);
    if (this.child.pid === undefined) throw new Error('the agent process could not be spawned');
    this.pid = this.child.pid;
    this.child.stdin.on('error', () => {
      // EPIPE when the agent has exited while we write: the exit handler reports it.
    });
    createInterface({ input: this.child.stdout }).on('line', (line) => this.readLine(line));
    createInterface({ input: this.child.stderr }).on('line', (line) => {
      this.stderrTail.push(line);
      if (this.stderrTail.length > STDERR_TAIL) this.stderrTail.shift();
    });
    this.child.on('error', (error) => this.finish(null, null, [`spawn error: ${error.message}`]));
    this.child.on('exit', (code, signal) => {
      // Let the last stdout lines drain before reporting the exit.
      setImmediate(() => this.finish(code, signal, this.stderrTail));
    });
  }

  get alive(): boolean {
    return !this.exited;
  }

  lastErrorLine(): string | null {
    return this.stderrTail.findLast((line) => line.trim() !== '') ?? null;
  }

  /** Writes one JSON line to the agent; returns the exact text written. */
  write(value: unknown): string {
    const text = JSON.stringify(value);
    if (!this.exited && this.child.stdin.writable) this.child.stdin.write(`${text}\n`);
    return text;
  }

  userMessageLine(text: string): Record<string, unknown> {
    return {
      type: 'user',
      session_id: '',
      message: { role: 'user', content: [{ type: 'text', text }] },
      parent_tool_use_id: null,
    };
  }

  /** Sends a control request and resolves with its response payload. */
  request(
    subtype: string,
    payload: Record<string, unknown> = {},
    timeoutMs = 30_000,
  ): Promise<unknown> {
    const requestId = `relais_${this.nextRequest++}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(requestId);
        reject(new Error(`no answer to ${subtype} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(requestId, {
        resolve: (value) => (clearTimeout(timer), resolve(value)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      this.write({
        type: 'control_request',
        request_id: requestId,
        request: { subtype, ...payload },
      });
    });
  }

  respond(requestId: string, response: Record<string, unknown>): Record<string, unknown> {
    const line = {
      type: 'control_response',
      response: { subtype: 'success', request_id: requestId, response },
    };
    this.write(line);
    return line;
  }

  closeInput(): void {
    if (!this.child.stdin.destroyed) this.child.stdin.end();
  }

  killGroup(signal: NodeJS.Signals = 'SIGKILL'): void {
    killProcessGroup(this.pid, signal);
  }

  private readLine(text: string): void {
    const receivedAtMs = Date.now();
    let value: unknown = null;
    try {
      value = JSON.parse(text);
    } catch {
      // Not JSON (a stray print): kept as text by the caller.
    }
    const isObject = !!value && typeof value === 'object' && !Array.isArray(value);
    const control = isObject ? decodeClaudeControl(value) : null;
    this.handlers.onLine(text, control, receivedAtMs);
    switch (control?.kind) {
      case 'response':
        return this.settle(control.requestId, control.outcome);
      case 'permission':
      case 'hook':
      case 'unhandled':
        return this.handlers.onControlRequest(control);
      case 'cancel':
        return this.handlers.onControlCancel(control.requestId);
      default:
        return;
    }
  }

  private settle(requestId: string, outcome: ResponseOutcome): void {
    const waiter = this.pending.get(requestId);
    if (!waiter) return;
    this.pending.delete(requestId);
    if (outcome.ok) waiter.resolve(outcome.payload);
    else waiter.reject(new Error(outcome.error));
  }

  private finish(code: number | null, signal: NodeJS.Signals | null, stderrTail: string[]): void {
    if (this.exited) return;
    this.exited = true;
    for (const waiter of this.pending.values()) waiter.reject(new Error('the agent exited'));
    this.pending.clear();
    this.handlers.onExit(code, signal, [...stderrTail]);
  }
}
