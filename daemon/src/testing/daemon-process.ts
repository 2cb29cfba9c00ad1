import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { emptyAgentHome, rawRequest, waitFor, type Answer } from './harness.js';

export interface DaemonProcess {
  child: ChildProcessWithoutNullStreams;
  base: string;
  key: string;
  /** Everything the daemon printed so far. */
  output(): { stdout: string; stderr: string };
  call<T = any>(method: string, path: string, body?: unknown): Promise<Answer<T>>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const MAIN = join(import.meta.dirname, '..', 'main.js');

/** The daemon as `npm start` runs it: its own process, on a random port, found by the URL it prints. */
export async function startDaemonProcess(
  home: string,
  env: Record<string, string> = {},
): Promise<DaemonProcess> {
  const agentHome = emptyAgentHome();
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      RELAIS_HOME: home,
      RELAIS_AGENT_HOME: agentHome,
      RELAIS_PORT: '0',
      RELAIS_LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await waitFor(
    'the printed console URL',
    () => /http:\/\/127\.0\.0\.1:(\d+)\/#key=(\S+)/.exec(stdout) ?? undefined,
  );
  const base = `http://127.0.0.1:${url[1]}`;
  const key = url[2]!;
  return {
    child,
    base,
    key,
    output: () => ({ stdout, stderr }),
    call: (method, path, body) =>
      rawRequest(base, method, path, body === undefined ? undefined : JSON.stringify(body), {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      }),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill(signal);
        await exited;
      }
      // After a kill -9 the daemon's agents outlive it for a moment and may still write here:
      // removal retries on ENOTEMPTY instead of failing the test that killed it.
      rmSync(agentHome, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
    },
  };
}
