import { Injectable, InjectionToken, inject } from '@angular/core';
import type * as z from 'zod';
import { ApiKey } from './api-key';
import { ApiQuery, withQuery } from './api-query';
import { CONSOLE_APP } from './console-app';
import { takeArrivedEarlyRead, takeEarlyRead } from './early-reads';
import { returnTo } from './return-url';
import { Navigator } from './routing/navigator';

/** The fetch the client sends with; a test gives its own backend. */
export const API_FETCH = new InjectionToken<typeof fetch>('API_FETCH', {
  providedIn: 'root',
  factory: () => (input, init) => fetch(input, init),
});

/**
 * A call the daemon refused (`status` ≥ 400) or never answered (`status` 0). `body` is the
 * answer's JSON when it is JSON (`{"error_code","message"}` from the daemon), else its text.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly retryAfter: string | null,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type WriteMethod = 'POST' | 'PUT' | 'PATCH';

/**
 * The console's one door to the daemon's API, over fetch. Every call carries the key and names
 * the console as its app; a 401 sends the person to the key page, which brings them back.
 * Answers are read against the contract's schemas, so a page only ever sees valid data.
 */
@Injectable({ providedIn: 'root' })
export class ApiClient {
  private readonly send = inject(API_FETCH);
  private readonly apiKey = inject(ApiKey);
  private readonly navigator = inject(Navigator);

  /**
   * GET `path` read with `schema`. An answer the page's early reads already hold is used once,
   * when it still fits the contract.
   */
  read<S extends z.ZodType>(path: string, schema: S, query: ApiQuery = {}): Promise<z.infer<S>> {
    const url = withQuery(path, query);
    const early = takeEarlyRead(url);
    const read = (): Promise<z.infer<S>> => this.json(url, { method: 'GET' }, schema);
    if (!early) return read();
    return early.then((body) => {
      const data = fitting(schema, body);
      return data === undefined ? read() : data;
    });
  }

  /**
   * The answer to GET `path` when the page's early reads already hold it and it fits `schema`,
   * else undefined (read() then asks as usual): a page can render it without waiting a task.
   */
  readArrived<S extends z.ZodType>(
    path: string,
    schema: S,
    query: ApiQuery = {},
  ): z.infer<S> | undefined {
    return takeArrivedEarlyRead(withQuery(path, query), (body) => fitting(schema, body));
  }

  /** `method` with a JSON body, the answer read with `schema`. */
  write<S extends z.ZodType>(
    method: WriteMethod,
    path: string,
    schema: S,
    body: unknown,
    signal?: AbortSignal,
  ): Promise<z.infer<S>> {
    const init: RequestInit = {
      method,
      body: JSON.stringify(body),
      headers: { 'Content-Type': 'application/json' },
      signal,
    };
    return this.json(path, init, schema);
  }

  /** DELETE `path`; whatever the answer says beyond its status is not needed. */
  async remove(path: string): Promise<void> {
    await this.call(path, { method: 'DELETE' });
  }

  /** A file (an export) as a Blob: fetched with the key in the header, never in a URL. */
  async download(path: string, query: ApiQuery): Promise<Blob> {
    const response = await this.call(withQuery(path, query), { method: 'GET' });
    return response.blob();
  }

  private async json<S extends z.ZodType>(
    url: string,
    init: RequestInit,
    schema: S,
  ): Promise<z.infer<S>> {
    const response = await this.call(url, init);
    const text = await response.text();
    let body: unknown;
    try {
      body = text === '' ? null : JSON.parse(text);
    } catch {
      throw new ApiError(response.status, text, null, $localize`The answer to ${url} is not JSON.`);
    }
    return schema.parse(body);
  }

  /** The answer when it is a 2xx; an ApiError otherwise. */
  private async call(url: string, init: RequestInit): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('X-Relais-App', CONSOLE_APP);
    const key = this.apiKey.key();
    if (key) headers.set('Authorization', `Bearer ${key}`);
    let response: Response;
    try {
      // Apart from the console's scripts on the page's six connections (api-connections.ts).
      response = await this.send(url, { ...init, headers, credentials: 'omit' });
    } catch (error) {
      if (init.signal?.aborted) throw error;
      throw new ApiError(0, null, null, $localize`No answer from the daemon for ${url}.`);
    }
    if (response.ok) return response;
    if (response.status === 401) {
      this.apiKey.reject();
      void this.navigator.navigate('/key', returnTo(this.navigator.url()));
    }
    throw new ApiError(
      response.status,
      await errorBody(response),
      response.headers.get('Retry-After'),
      $localize`The daemon answered ${[response.status, response.statusText].filter(Boolean).join(' ')} for ${url}.`,
    );
  }
}

/** An early answer read with `schema`; undefined when there is none or it does not fit. */
function fitting<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> | undefined {
  const parsed = body === undefined ? null : schema.safeParse(body);
  return parsed?.success ? (parsed.data as z.infer<S>) : undefined;
}

/** A refusal's JSON when it is JSON (the daemon's own words), else its text. */
async function errorBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
