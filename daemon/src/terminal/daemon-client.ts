import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** A failure the command explains to the person, with the exit code it ends with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export interface DaemonAddress {
  home: string;
  baseUrl: string;
  key: string;
}

/** The data folder the daemon uses: $RELAIS_HOME, else ~/.relais. */
export function relaisHome(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env['RELAIS_HOME'] || join(homedir(), '.relais'));
}

function readOrExplain(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error: unknown) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      throw new CliError(
        `No ${what} at ${path}: the Relais daemon has not been started with this data folder ` +
          '(start it with `npm start`, or set RELAIS_HOME to its folder).',
      );
    throw new CliError(`Cannot read ${what} at ${path}: ${code ?? String(error)}.`);
  }
}

/** Finds the daemon through daemon.json and the key file of its data folder. */
export function findDaemon(home = relaisHome()): DaemonAddress {
  const recordPath = join(home, 'daemon.json');
  let baseUrl: unknown;
  try {
    baseUrl = (JSON.parse(readOrExplain(recordPath, 'daemon record')) as { base_url?: unknown })
      .base_url;
  } catch (error: unknown) {
    if (error instanceof CliError) throw error;
    throw new CliError(`${recordPath} is not valid JSON.`);
  }
  if (typeof baseUrl !== 'string' || !/^http:\/\/[^/]+$/.test(baseUrl))
    throw new CliError(`${recordPath} names no base_url.`);
  const key = readOrExplain(join(home, 'api-key'), 'key file').trim();
  return { home, baseUrl, key };
}

export interface ApiFailure {
  status: number;
  error_code: string;
  message: string;
}

/** The keyed API, with every failure turned into a sentence a person can act on. */
export class DaemonClient {
  constructor(readonly address: DaemonAddress) {}

  get consoleUrl(): string {
    return `${this.address.baseUrl}/#key=${this.address.key}`;
  }

  async call<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<T> {
    const response = await this.fetch(path, {
      method,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = {};
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      parsed = { message: text.slice(0, 200) };
    }
    if (!response.ok) throw this.failure(response.status, parsed as Partial<ApiFailure>);
    return parsed as T;
  }

  /** A raw request (the live stream), keyed, with the same explanations when it cannot start. */
  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(`${this.address.baseUrl}${path}`, {
        ...init,
        headers: {
          authorization: `Bearer ${this.address.key}`,
          'x-relais-app': 'relais-terminal',
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
      });
    } catch (error: unknown) {
      if ((error as Error).name === 'AbortError') throw error;
      throw new CliError(
        `The Relais daemon is not running: nothing answers at ${this.address.baseUrl} ` +
          `(from ${join(this.address.home, 'daemon.json')}). Start it with \`npm start\`.`,
      );
    }
    if (response.status === 401 || response.status === 403) {
      const parsed = (await response.json().catch(() => ({}))) as Partial<ApiFailure>;
      throw this.failure(response.status, parsed);
    }
    return response;
  }

  private failure(status: number, body: Partial<ApiFailure>): CliError {
    if (status === 401)
      return new CliError(
        `The daemon at ${this.address.baseUrl} refused the key in ` +
          `${join(this.address.home, 'api-key')} (is another daemon on that port?).`,
      );
    const code = body.error_code ?? `http_${status}`;
    return new ApiError(status, code, body.message ?? '');
  }
}

/** An answer of the API that is not a success: its status, error_code and message. */
export class ApiError extends CliError {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    readonly detail: string,
  ) {
    super(`${errorCode}: ${detail}`.replace(/: $/, ''));
  }
}
