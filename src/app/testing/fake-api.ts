import { type Provider } from '@angular/core';
import { API_FETCH } from '../core/api-client';

/** What the console asked, held until the test answers it. */
export interface FakeCall {
  method: string;
  /** Path and query, as sent: `/api/sessions?limit=200`. */
  url: string;
  headers: Headers;
  /** The JSON body it sent, read back; undefined when it sent none. */
  body: unknown;
  /** Answers with `body` as JSON (a 200 unless told). */
  flush(
    body: unknown,
    answer?: { status?: number; statusText?: string; headers?: HeadersInit },
  ): void;
  /** The daemon never answers: the network failed. */
  fail(): void;
}

type CallMatch = string | ((call: FakeCall) => boolean);

/**
 * The daemon's API as a test drives it: every call the console makes waits in `pending` until the
 * test answers it, like a real daemon that takes its time. Given through `provideFakeApi()`.
 */
export class FakeApi {
  private readonly waiting: FakeCall[] = [];

  readonly fetch: typeof fetch = (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const headers = new Headers(init?.headers);
      const text = typeof init?.body === 'string' ? init.body : undefined;
      const call: FakeCall = {
        method: init?.method ?? 'GET',
        url: String(input),
        headers,
        body: text === undefined ? undefined : (JSON.parse(text) as unknown),
        flush: (body, answer = {}) =>
          resolve(
            new Response(JSON.stringify(body), {
              status: answer.status ?? 200,
              statusText: answer.statusText,
              headers: { 'Content-Type': 'application/json', ...toRecord(answer.headers) },
            }),
          ),
        fail: () => reject(new TypeError('Failed to fetch')),
      };
      init?.signal?.addEventListener('abort', () => {
        this.drop(call);
        reject(new DOMException('The call was aborted.', 'AbortError'));
      });
      this.waiting.push(call);
    });

  /** The one waiting call that matches (a URL with its query, or a test); throws otherwise. */
  expectOne(match: CallMatch): FakeCall {
    const found = this.match(match);
    if (found.length !== 1)
      throw new Error(
        `Expected one call for ${describeMatch(match)}, found ${found.length}; waiting: ${this.describeWaiting()}`,
      );
    return found[0]!;
  }

  /** Throws when a waiting call matches. */
  expectNone(match: CallMatch): void {
    const found = this.match(match);
    if (found.length > 0)
      throw new Error(`Expected no call for ${describeMatch(match)}, found ${found.length}`);
  }

  /** Every waiting call that matches, taken out of the waiting list, oldest first. */
  match(match: CallMatch): FakeCall[] {
    const test = typeof match === 'string' ? (call: FakeCall) => call.url === match : match;
    const found = this.waiting.filter(test);
    for (const call of found) this.drop(call);
    return found;
  }

  /** Throws when a call is still waiting: the test did not look at everything the console asked. */
  verify(): void {
    if (this.waiting.length > 0)
      throw new Error(`Calls nobody answered: ${this.describeWaiting()}`);
  }

  private drop(call: FakeCall): void {
    const index = this.waiting.indexOf(call);
    if (index >= 0) this.waiting.splice(index, 1);
  }

  private describeWaiting(): string {
    return this.waiting.map((call) => `${call.method} ${call.url}`).join(', ') || 'none';
  }
}

/** Gives the console `api` as its daemon (the FakeApi also reachable with TestBed.inject). */
export function provideFakeApi(api = new FakeApi()): Provider[] {
  return [
    { provide: FakeApi, useValue: api },
    { provide: API_FETCH, useValue: api.fetch },
  ];
}

function describeMatch(match: CallMatch): string {
  return typeof match === 'string' ? match : 'a test';
}

function toRecord(headers: HeadersInit | undefined): Record<string, string> {
  return Object.fromEntries(new Headers(headers).entries());
}
