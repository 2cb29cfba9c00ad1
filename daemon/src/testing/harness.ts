import type { AgentEntry } from '../agents/agent.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Relais } from '../app.js';
import { configFromEnv, type RelaisConfig } from '../config.js';
import type { PermissionPolicy } from '../agents/permission-policy.js';

export interface Answer<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  text: string;
}

export interface TestDaemon {
  relais: Relais;
  base: string;
  key: string;
  home: string;
  /** A JSON request with the key (unless headers say otherwise), over real HTTP. */
  call<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Answer<T>>;
  close(): Promise<void>;
}

export interface TestDaemonOptions {
  home?: string;
  config?: Partial<RelaisConfig>;
  policy?: PermissionPolicy;
  /** Agents beyond the catalog's, registered through the port (agents/agent.ts). */
  agents?: readonly AgentEntry[];
  keepHome?: boolean;
  /**
   * Keep a global live stream open, as an attached console would (default): without any listener,
   * a request that needs a person is refused at once.
   */
  listening?: boolean;
}

/**
 * An empty HOME for the agents of a test daemon. Their Bash tool sources the shell startup files of
 * HOME; the machine user's (pyenv and the like) must neither slow the tests down nor be changed by them.
 */
export function emptyAgentHome(): string {
  return mkdtempSync(join(tmpdir(), 'relais-agent-home-'));
}

/** A real daemon on a random loopback port with its own temporary data folder. */
export async function startTestDaemon(options: TestDaemonOptions = {}): Promise<TestDaemon> {
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'relais-test-'));
  const agentHome = emptyAgentHome();
  const config: RelaisConfig = {
    ...configFromEnv({ RELAIS_HOME: home, RELAIS_AGENT_HOME: agentHome }),
    port: 0,
    consoleDir: null,
    logLevel: 'warn',
    stopGraceMs: 1500,
    ...options.config,
  };
  const relais = await build(config, { policy: options.policy, agents: options.agents });
  const base = await relais.listen();
  const listener =
    options.listening === false ? new AbortController() : await listenGlobally(base, relais.apiKey);
  const daemon: TestDaemon = {
    relais,
    base,
    key: relais.apiKey,
    home,
    call: (method, path, body, headers) =>
      rawRequest(base, method, path, body === undefined ? undefined : JSON.stringify(body), {
        authorization: `Bearer ${relais.apiKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      }),
    async close() {
      listener.abort();
      await relais.close();
      rmSync(agentHome, { recursive: true, force: true });
      if (!options.keepHome && !options.home) rmSync(home, { recursive: true, force: true });
    },
  };
  return daemon;
}

/** Holds the global live stream open, as an attached console does; abort to leave. */
export async function listenGlobally(base: string, key: string): Promise<AbortController> {
  const controller = new AbortController();
  const response = await fetch(`${base}/api/stream`, {
    headers: { authorization: `Bearer ${key}` },
    signal: controller.signal,
  });
  // Drain it so the daemon never waits on this client.
  void response.body?.pipeTo(new WritableStream()).catch(() => undefined);
  return controller;
}

/**
 * Plain node:http so that tests can send any Host, Origin or body, as a foreign client would. The
 * path is sent as given (no normalising of dot segments, slashes or percent signs).
 */
export function rawRequest(
  base: string,
  method: string,
  path: string,
  body: string | Buffer | undefined,
  headers: Record<string, string>,
): Promise<Answer<any>> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: /^\/[\u0021-\u00ff]*$/.test(path) ? path : pathOf(new URL(path, base)),
        headers: { host: url.host, ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            // Not JSON: the test sees the text.
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed, text });
        });
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const pathOf = (url: URL): string => url.pathname + url.search;

/** Polls until `check` returns a value (not undefined/false), or fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 30_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
