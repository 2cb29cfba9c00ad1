import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export interface RelaisConfig {
  home: string;
  /**
   * The HOME the agents see (default: the daemon's own). Their Bash tool sources the shell startup
   * files found there, so the tests point it at an empty folder of their own.
   */
  agentHome: string;
  host: '127.0.0.1';
  port: number;
  /** Folder of the built console, served at `/` when it exists. */
  consoleDir: string | null;
  /** Extra origins allowed besides the daemon's own (e.g. the Angular dev server). */
  devOrigins: string[];
  permissionTimeoutMs: number;
  stopGraceMs: number;
  maxTtlSeconds: number;
  bodyLimitBytes: number;
  /** Base URL of the demo model; when null the daemon starts its own on loopback. */
  demoModelUrl: string | null;
  logLevel: string;
  compressAfterDays: number;
  deleteAfterDays: number;
  recycleIntervalMs: number;
  /** Launch brake: launches in a row per application and per subscription, then one per interval. */
  launchBurst: number;
  launchIntervalMs: number;
  /** Follow the subscriptions' transcript folders while running (RELAIS_HISTORY_WATCH=off: only on start and on request). */
  historyWatch: boolean;
  /** Confine every command of a session (RELAIS_ISOLATION=off: run them unconfined, shown in red). */
  isolation: boolean;
}

export const DEFAULT_PORT = 4317;

function int(value: string | undefined, fallback: number): number {
  const parsed = value === undefined || value === '' ? NaN : Number(value);
  return Number.isInteger(parsed) && parsed >= 0 ? parsed : fallback;
}

export function configFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  rootDir = process.cwd(),
): RelaisConfig {
  return {
    home: resolve(env['RELAIS_HOME'] || join(homedir(), '.relais')),
    agentHome: resolve(env['RELAIS_AGENT_HOME'] || env['HOME'] || homedir()),
    host: '127.0.0.1',
    port: int(env['RELAIS_PORT'], DEFAULT_PORT),
    consoleDir: env['RELAIS_CONSOLE_DIR'] ?? join(rootDir, 'dist', 'console', 'browser'),
    devOrigins: (env['RELAIS_DEV_ORIGINS'] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    permissionTimeoutMs: int(env['RELAIS_PERMISSION_TIMEOUT_MS'], 10 * 60 * 1000),
    stopGraceMs: int(env['RELAIS_STOP_GRACE_MS'], 3000),
    maxTtlSeconds: int(env['RELAIS_MAX_TTL_SECONDS'], 24 * 3600),
    bodyLimitBytes: int(env['RELAIS_BODY_LIMIT_BYTES'], 1024 * 1024),
    demoModelUrl: env['RELAIS_DEMO_MODEL_URL'] || null,
    logLevel: env['RELAIS_LOG_LEVEL'] ?? 'warn',
    compressAfterDays: int(env['RELAIS_COMPRESS_AFTER_DAYS'], 7),
    deleteAfterDays: int(env['RELAIS_DELETE_AFTER_DAYS'], 90),
    recycleIntervalMs: int(env['RELAIS_RECYCLE_INTERVAL_MS'], 60 * 60 * 1000),
    launchBurst: int(env['RELAIS_LAUNCH_BURST'], 20),
    launchIntervalMs: int(env['RELAIS_LAUNCH_INTERVAL_MS'], 3000),
    historyWatch: env['RELAIS_HISTORY_WATCH'] !== 'off',
    isolation: env['RELAIS_ISOLATION'] !== 'off',
  };
}
