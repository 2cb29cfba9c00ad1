/** What the browser benchmarks share: the built daemon on a free port, and the system Chromium. */
import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
/** BENCH_DIST names another build folder of this checkout (e.g. a copy of main's build), default dist. */
export const DIST = resolve(ROOT, process.env.BENCH_DIST ?? 'dist');
export const MAIN = join(DIST, 'daemon/daemon/src/main.js');
export const CONSOLE = join(DIST, 'console/browser');

export function requireBuilt(...paths) {
  for (const path of [MAIN, join(CONSOLE, 'index.html'), ...paths])
    if (!existsSync(path)) throw new Error(`${path} missing: npm run build`);
}

function freePort() {
  return new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

/**
 * Starts the built daemon on `home`, serving `consoleDir` (this build's console by default);
 * resolves with the printed URL, its origin, the key and stop().
 */
export async function startBuiltDaemon(home, consoleDir = CONSOLE) {
  const port = await freePort();
  const daemon = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      RELAIS_HOME: home,
      RELAIS_AGENT_HOME: mkdtempSync(join(tmpdir(), 'relais-agent-home-')),
      RELAIS_PORT: String(port),
      RELAIS_CONSOLE_DIR: consoleDir,
      RELAIS_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = async () => {
    if (daemon.exitCode !== null) return;
    const exited = new Promise((done) => daemon.once('exit', done));
    daemon.kill('SIGTERM');
    await exited;
  };
  try {
    const url = await new Promise((done, fail) => {
      let out = '';
      daemon.stdout.on('data', (chunk) => {
        out += chunk;
        const match = /http:\/\/127\.0\.0\.1:\d+\/#key=\S+/.exec(out);
        if (match) done(match[0]);
      });
      daemon.once('exit', (code) => fail(new Error(`daemon exited ${code}`)));
    });
    const parsed = new URL(url);
    return {
      url,
      base: parsed.origin,
      key: new URLSearchParams(parsed.hash.slice(1)).get('key'),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

export function launchChromium() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
