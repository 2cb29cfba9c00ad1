import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { findProcessesByEnv, killProcessGroup } from '../processes/process-groups.js';

/**
 * Every process of a listing carries this variable (value: the listing's own id): one that left
 * the group (setsid) is still found by it, as a session's processes are.
 */
const LISTING_TAG = 'RELAIS_MCP_LISTING';

export interface GroupStdioOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** The most bytes of one message, and half of all the bytes read before the server is cut. */
  maxMessageBytes: number;
}

/**
 * A listing exchanges a few messages (one per page of tools): a server that sends more is
 * flooding, and each message costs the daemon a parse on its event loop.
 */
const MAX_MESSAGES = 2000;

/** How long close() waits for the killed group's streams to end before it stops waiting. */
const CLOSE_WAIT_MS = 2000;

/**
 * An MCP stdio client transport whose server runs in its own process group (spawned detached), so
 * that close() ends the server and everything it started (`sleep 40 &` included) with one SIGKILL,
 * along with any process that left the group but carries the listing's tag, and destroys the
 * three pipes: nothing of a listing outlives it, whether it ended well or not.
 * The SDK's own transport signals the direct child only, and only after four seconds.
 */
export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcess | undefined;
  private closed: Promise<void> | undefined;
  private readonly buffer: ReadBuffer;
  /** Why the transport cut the server (its own words, safe to show), if it did. */
  failure: string | null = null;
  private bytesRead = 0;
  private messages = 0;
  private readonly tag = randomUUID();

  constructor(private readonly options: GroupStdioOptions) {
    this.buffer = new ReadBuffer({ maxBufferSize: options.maxMessageBytes });
  }

  /** The group id (the server's pid), while it runs. */
  get pgid(): number | null {
    return this.child?.pid ?? null;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('already started');
    return new Promise((resolve, reject) => {
      const child = spawn(this.options.command, this.options.args, {
        cwd: this.options.cwd,
        env: { ...this.options.env, [LISTING_TAG]: this.tag },
        stdio: ['pipe', 'pipe', 'ignore'],
        detached: true,
        shell: false,
      });
      this.child = child;
      this.closed = new Promise((done) => child.once('close', () => done()));
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => resolve());
      child.once('close', () => this.onclose?.());
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => this.receive(chunk));
    });
  }

  private receive(chunk: Buffer): void {
    this.bytesRead += chunk.byteLength;
    try {
      if (this.bytesRead > this.options.maxMessageBytes * 2)
        throw new Error(`the server wrote over ${this.options.maxMessageBytes * 2} bytes`);
      this.buffer.append(chunk);
      for (let message = this.buffer.readMessage(); message; message = this.buffer.readMessage()) {
        if (++this.messages > MAX_MESSAGES)
          throw new Error(`the server wrote over ${MAX_MESSAGES} messages`);
        this.onmessage?.(message);
      }
    } catch (error: unknown) {
      const reason = error instanceof Error ? error : new Error(String(error));
      this.failure ??= /^the server wrote over/.test(reason.message)
        ? reason.message
        : 'the server wrote something that is not JSON-RPC';
      this.onerror?.(reason);
      void this.close();
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed) return Promise.reject(new Error('not connected'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Kills the whole group, destroys the pipes, and waits (bounded) for the child to be reaped. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    if (child.pid !== undefined) {
      try {
        killProcessGroup(child.pid, 'SIGKILL');
      } catch {
        // EPERM: not ours any more; the pipes are closed below all the same.
      }
    }
    for (const pid of findProcessesByEnv(LISTING_TAG, this.tag)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
    }
    child.stdin?.destroy();
    child.stdout?.destroy();
    this.buffer.clear();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.closed,
      new Promise<void>((done) => (timer = setTimeout(done, CLOSE_WAIT_MS))),
    ]);
    clearTimeout(timer);
  }
}
