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
  for (const path of [MAIN, join(CONSOLE, 'en', 'index.html'), ...paths])
    if (!existsSync(path)) throw new Error(`${path} missing: npm run build`);
}

export function freePort() {
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

const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Chromium features a benchmark's fresh browser goes without. Since Chromium 15x a new browser
 * builds its address bar's popup as a web page of its own (some 400 files) while the first page
 * opens: on this 2-core machine that took 0.4–0.6 s of the measured open. A person's browser built
 * it when it started, so it is no part of opening a page (Puppeteer turns it off by default too).
 * BENCH_BROWSER_AS_LAUNCHED=1 keeps it, to compare with figures taken before 2026-12-04.
 */
const WITHOUT = process.env.BENCH_BROWSER_AS_LAUNCHED
  ? []
  : ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

let launchArgs;

export async function launchChromium() {
  launchArgs ??= argsWithout(WITHOUT);
  const { ignoreDefaultArgs, args } = await launchArgs;
  return chromium.launch({ executablePath: '/usr/bin/chromium', ignoreDefaultArgs, args });
}

/**
 * Chromium reads only the last --disable-features it is given, and Playwright gives one of its
 * own: the list is read off a browser Playwright launched (chrome://version), and handed back
 * with `features` added, in place of Playwright's.
 */
async function argsWithout(features) {
  if (!features.length) return { ignoreDefaultArgs: [], args: FLAGS };
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: FLAGS });
  try {
    const page = await browser.newPage();
    await page.goto('chrome://version');
    const commandLine = (await page.textContent('#command_line')) ?? '';
    const defaults = commandLine.split(/\s+/).find((arg) => arg.startsWith('--disable-features='));
    if (!defaults)
      return { ignoreDefaultArgs: [], args: [...FLAGS, `--disable-features=${features}`] };
    return { ignoreDefaultArgs: [defaults], args: [...FLAGS, `${defaults},${features}`] };
  } finally {
    await browser.close();
  }
}
