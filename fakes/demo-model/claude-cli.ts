/**
 * Runs the pinned Claude Code binary from this repo's node_modules against a demo model.
 * Used by tests; never looks at PATH.
 */
import { claudeBinary } from '../../daemon/src/agents/claude/binary.js';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

export type JsonLine = Record<string, unknown>;
export type PermissionAnswer = Record<string, unknown>;

export interface ClaudeRunOptions {
  baseUrl: string;
  cwd: string;
  /** Used as HOME and CLAUDE_CONFIG_DIR. */
  configDir: string;
  model?: string;
  /** Answers every `can_use_tool` request; the returned object is the PermissionResult. */
  onPermission?: (request: JsonLine) => PermissionAnswer;
}

/** The pinned binary, found the way the daemon finds it. */
export function findClaudeBinary(): string {
  return claudeBinary().path;
}

export function claudeEnv(baseUrl: string, configDir: string): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: configDir,
    CLAUDE_CONFIG_DIR: configDir,
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: 'demo',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_MAX_RETRIES: '0',
  };
}

export class ClaudeRun {
  readonly lines: JsonLine[] = [];
  stderr = '';
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiters = new Set<() => void>();
  private readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private buffer = '';

  constructor(private readonly options: ClaudeRunOptions) {
    const args = [
      '-p',
      '--input-format',
      'stream-json',
      '--output-format',
      'stream-json',
      '--verbose',
    ];
    args.push('--permission-prompt-tool', 'stdio', '--model', options.model ?? 'demo-sonnet');
    this.child = spawn(findClaudeBinary(), args, {
      cwd: options.cwd,
      env: claudeEnv(options.baseUrl, options.configDir),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => this.onStdout(chunk));
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk;
    });
    // A closed pipe after exit must not crash the test process.
    this.child.stdin.on('error', () => undefined);
    this.exit = new Promise((resolve) => {
      this.child.once('close', (code, signal) => {
        resolve({ code, signal });
        this.wake();
      });
    });
  }

  send(message: unknown): void {
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  sendUserText(text: string): void {
    this.send({
      type: 'user',
      session_id: '',
      message: { role: 'user', content: [{ type: 'text', text }] },
      parent_tool_use_id: null,
    });
  }

  /** Resolves with the first line (seen so far or later) that matches. */
  waitFor(
    predicate: (line: JsonLine) => boolean,
    timeoutMs: number,
    label = 'line',
  ): Promise<JsonLine> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const found = this.lines.find(predicate);
        if (found) finish(() => resolve(found));
        else if (this.child.exitCode !== null || this.child.signalCode !== null) {
          finish(() =>
            reject(new Error(`claude exited before ${label}; stderr: ${this.stderr.slice(-2000)}`)),
          );
        }
      };
      const finish = (settle: () => void): void => {
        clearTimeout(timer);
        this.waiters.delete(check);
        settle();
      };
      const timer = setTimeout(
        () => finish(() => reject(new Error(`timed out waiting for ${label}`))),
        timeoutMs,
      );
      this.waiters.add(check);
      check();
    });
  }

  endInput(): void {
    this.child.stdin.end();
  }

  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    return this.exit;
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }

  private onStdout(chunk: string): void {
    this.buffer += chunk;
    let newline = this.buffer.indexOf('\n');
    while (newline >= 0) {
      const text = this.buffer.slice(0, newline).trim();
      this.buffer = this.buffer.slice(newline + 1);
      if (text !== '') this.onLine(text);
      newline = this.buffer.indexOf('\n');
    }
    this.wake();
  }

  private onLine(text: string): void {
    let line: JsonLine;
    try {
      line = JSON.parse(text) as JsonLine;
    } catch (error: unknown) {
      this.stderr += `[non-JSON stdout: ${String(error)}] ${text}\n`;
      return;
    }
    this.lines.push(line);
    const request = line['request'] as JsonLine | undefined;
    if (
      line['type'] === 'control_request' &&
      request?.['subtype'] === 'can_use_tool' &&
      this.options.onPermission
    ) {
      this.send({
        type: 'control_response',
        response: {
          subtype: 'success',
          request_id: line['request_id'],
          response: this.options.onPermission(request),
        },
      });
    }
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
