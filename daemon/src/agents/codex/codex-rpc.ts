import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { killProcessGroup } from '../../processes/process-groups.js';
import { spawnAgent } from '../../processes/spawn-agent.js';
import type { SpawnSpec } from '../../processes/spawn-agent.js';
import { decodeCodexControl, type CodexControl, type RpcOutcome } from './codex-control.js';

type Json = Record<string, unknown>;

export interface CodexRpcHandlers {
  /** Every stdout line as printed, with what it says when it is a JSON object (null otherwise). */
  onLine(text: string, control: CodexControl | null, receivedAtMs: number): void;
  onExit(code: number | null, signal: NodeJS.Signals | null, stderrTail: string[]): void;
}

export class RpcError extends Error {
  constructor(
    readonly code: number | undefined,
    message: string,
  ) {
    super(message);
  }
}

const STDERR_TAIL = 20;

/**
 * One `codex app-server` over stdio: requests with integer ids and their answers, notifications
 * and server requests handed to the caller. Spawned detached so that it leads its own group.
 */
export class CodexRpc {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly pending = new Map<
    number,
    { resolve(value: unknown): void; reject(error: Error): void }
  >();
  private readonly stderrTail: string[] = [];
  private nextId = 1;
  private exited = false;
  readonly pid: number;

  constructor(
    spec: SpawnSpec,
    private readonly handlers: CodexRpcHandlers,
  ) {
    this.child = spawnAgent(spec);
    if (this.child.pid === undefined) throw new Error('the agent process could not be spawned');
    this.pid = this.child.pid;
    this.child.stdin.on('error', () => {
      // EPIPE when the agent has exited while we write: the exit handler reports it.
    });
    createInterface({ input: this.child.stdout, crlfDelay: Infinity }).on('line', (line) =>
      this.readLine(line),
    );
    createInterface({ input: this.child.stderr }).on('line', (line) => {
      this.stderrTail.push(line);
      if (this.stderrTail.length > STDERR_TAIL) this.stderrTail.shift();
    });
    this.child.on('error', (error) => this.finish(null, null, [`spawn error: ${error.message}`]));
    this.child.on('exit', (code, signal) => {
      setImmediate(() => this.finish(code, signal, this.stderrTail));
    });
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** Writes one message; returns the exact text written. */
  write(message: Json): string {
    const text = JSON.stringify(message);
    if (!this.exited && this.child.stdin.writable) this.child.stdin.write(`${text}\n`);
    return text;
  }

  /** Sends a request; `written` receives the line as sent (for the event store). */
  request(
    method: string,
    params: Json,
    timeoutMs: number,
    written: (text: string) => void = () => undefined,
  ): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.exited) return reject(new Error('the agent exited'));
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`no answer to ${method} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (value) => (clearTimeout(timer), resolve(value)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      written(this.write({ method, id, params }));
    });
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
    const control = isObject ? decodeCodexControl(value) : null;
    this.handlers.onLine(text, control, receivedAtMs);
    if (control?.kind === 'response') this.settle(control.id, control.outcome);
  }

  private settle(id: number, outcome: RpcOutcome): void {
    const waiter = this.pending.get(id);
    if (!waiter) return;
    this.pending.delete(id);
    if (outcome.ok) waiter.resolve(outcome.result);
    else waiter.reject(new RpcError(outcome.code, outcome.message));
  }

  private finish(code: number | null, signal: NodeJS.Signals | null, stderrTail: string[]): void {
    if (this.exited) return;
    this.exited = true;
    for (const waiter of this.pending.values()) waiter.reject(new Error('the agent exited'));
    this.pending.clear();
    this.handlers.onExit(code, signal, [...stderrTail]);
  }
}
