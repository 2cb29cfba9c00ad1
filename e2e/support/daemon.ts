import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface RunningDaemon {
  /** The URL the daemon printed, with the key in the fragment. */
  url: string;
  base: string;
  key: string;
  home: string;
  stop(): Promise<void>;
}

const ROOT = resolve(process.cwd());
export const DAEMON_MAIN = join(ROOT, 'dist/daemon/daemon/src/main.js');
export const CONSOLE_DIR = join(ROOT, 'dist/console/browser');

export const CHROMIUM = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};

export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

/**
 * Starts the built daemon (nothing is built here) on a free port with a temporary home, and
 * resolves once it printed its URL. `home` may be given pre-filled (the benchmark does).
 */
export async function startDaemon(
  options: { home?: string; env?: Record<string, string> } = {},
): Promise<RunningDaemon> {
  // The console is built per locale (en/, fr/): the English build stands for both.
  for (const path of [DAEMON_MAIN, join(CONSOLE_DIR, 'en', 'index.html')]) {
    if (!existsSync(path)) throw new Error(`${path} is missing: run \`npm run build\` first.`);
  }
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'relais-e2e-'));
  // An empty HOME: the agents' Bash tool must not source this machine's shell startup files.
  const agentHome = mkdtempSync(join(tmpdir(), 'relais-agent-home-'));
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [DAEMON_MAIN], {
    env: {
      ...process.env,
      RELAIS_HOME: home,
      RELAIS_AGENT_HOME: agentHome,
      RELAIS_PORT: String(port),
      RELAIS_CONSOLE_DIR: CONSOLE_DIR,
      // Sessions' starts and ends, for the logs a failed journey attaches (requests stay at debug).
      RELAIS_LOG_LEVEL: 'info',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`The daemon did not print its URL in 30 s:\n${output}`)),
      30_000,
    );
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+)\/#key=(\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        done(match[0]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => fail(new Error(`The daemon exited (${code}):\n${output}`)));
  });
  const parsed = new URL(url);
  const key = new URLSearchParams(parsed.hash.slice(1)).get('key') ?? '';
  return {
    url,
    base: parsed.origin,
    key,
    home,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((done) => child.once('exit', done));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((done) => setTimeout(done, 8000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(agentHome, { recursive: true, force: true });
      if (!options.home) rmSync(home, { recursive: true, force: true });
    },
  };
}
