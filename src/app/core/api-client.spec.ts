import { TestBed } from '@angular/core/testing';
import * as z from 'zod';
import { FakeApi, provideFakeApi } from '../testing/fake-api';
import { API_FETCH, ApiClient, ApiError } from './api-client';
import { toApiFailure } from './api-error';
import { ApiKey } from './api-key';
import { Navigator } from './routing/navigator';

const Thing = z.object({ id: z.string() });
const settle = () => new Promise((resolve) => setTimeout(resolve));

describe('ApiClient', () => {
  let client: ApiClient;
  let daemon: FakeApi;

  beforeEach(() => {
    sessionStorage.clear();
    localStorage.clear();
    TestBed.configureTestingModule({ providers: [provideFakeApi()] });
    TestBed.inject(ApiKey).use('secret-key');
    client = TestBed.inject(ApiClient);
    daemon = TestBed.inject(FakeApi);
  });

  afterEach(() => daemon.verify());

  it('sends the bearer key and names the console as the app, on reads and writes', async () => {
    const read = client.read('/api/things', Thing);
    const write = client.write('PUT', '/api/rules', Thing, { rules: [] });
    const get = daemon.expectOne('/api/things');
    expect(get.method).toBe('GET');
    expect(get.headers.get('Authorization')).toBe('Bearer secret-key');
    expect(get.headers.get('X-Relais-App')).toBe('console');
    const put = daemon.expectOne('/api/rules');
    expect(put.method).toBe('PUT');
    expect(put.headers.get('X-Relais-App')).toBe('console');
    expect(put.headers.get('Content-Type')).toBe('application/json');
    expect(put.body).toEqual({ rules: [] });
    get.flush({ id: 'a' });
    put.flush({ id: 'b' });
    expect(await read).toEqual({ id: 'a' });
    expect(await write).toEqual({ id: 'b' });
  });

  it('writes the query so that the daemon reads back exactly what was given', async () => {
    const odd = 'a b&c=d+e/é?#%';
    const read = client.read('/api/audit', Thing, { q: odd, from: '2026-01-01T00:00:00Z' });
    const call = daemon.expectOne((c) => c.url.startsWith('/api/audit?'));
    const query = new URL(call.url, 'http://x').searchParams;
    expect(query.get('q')).toBe(odd);
    expect(query.get('from')).toBe('2026-01-01T00:00:00Z');
    call.flush({ id: 'a' });
    await read;
  });

  it('an answer that does not fit the contract is a failure, never data', async () => {
    const read = client.read('/api/things', Thing).catch((error: unknown) => error);
    daemon.expectOne('/api/things').flush({ id: 42 });
    expect(toApiFailure(await read).code).toBe('client_error');
  });

  it('keeps the daemon’s error code, message and wait', async () => {
    const read = client.read('/api/things', Thing).catch((error: unknown) => error);
    daemon
      .expectOne('/api/things')
      .flush(
        { error_code: 'rate_limited', message: 'Slow down.' },
        { status: 429, headers: { 'Retry-After': '12' } },
      );
    expect(toApiFailure(await read)).toEqual({
      status: 429,
      code: 'rate_limited',
      message: 'Slow down.',
      retryAfterSeconds: 12,
    });
  });

  it('names a daemon that does not answer, and a refusal that is not JSON by its status', async () => {
    const gone = client.read('/api/things', Thing).catch((error: unknown) => error);
    daemon.expectOne('/api/things').fail();
    expect(toApiFailure(await gone).code).toBe('daemon_unreachable');

    const proxied = client.remove('/api/things/1').catch((error: unknown) => error);
    const call = daemon.expectOne('/api/things/1');
    expect(call.method).toBe('DELETE');
    call.flush('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' });
    const failure = toApiFailure(await proxied);
    expect(failure.code).toBe('http_502');
    expect(failure.message).toContain('502 Bad Gateway');
  });

  it('a refused download speaks with the daemon’s own words; a good one is a Blob', async () => {
    const refused = client
      .download('/api/analytics/export', { format: 'csv' })
      .catch((error: unknown) => error);
    daemon
      .expectOne('/api/analytics/export?format=csv')
      .flush(
        { error_code: 'invalid_request', message: 'from must be earlier than to' },
        { status: 400 },
      );
    const failure = toApiFailure(await refused);
    expect(failure.code).toBe('invalid_request');
    expect(failure.message).toBe('from must be earlier than to');

    const file = client.download('/api/analytics/export', { format: 'json' });
    daemon.expectOne('/api/analytics/export?format=json').flush([{ turn: 1 }]);
    expect(await (await file).text()).toBe('[{"turn":1}]');
  });

  it('sends the person to the key page on 401, marks the key rejected, and brings them back', async () => {
    const navigator = TestBed.inject(Navigator);
    vi.spyOn(navigator, 'url').mockReturnValue('/sessions/ses_42?from=x');
    const navigate = vi.spyOn(navigator, 'navigate').mockResolvedValue(true);
    const read = client.read('/api/things', Thing).catch((error: unknown) => error);
    daemon
      .expectOne('/api/things')
      .flush({ error_code: 'unauthorized', message: 'no' }, { status: 401 });
    expect(await read).toBeInstanceOf(ApiError);
    expect(TestBed.inject(ApiKey).rejected()).toBe(true);
    expect(navigate).toHaveBeenCalledWith('/key', { next: '/sessions/ses_42?from=x' });
  });

  it('a 403 or 404 is not a reason to ask for the key again', async () => {
    const navigate = vi.spyOn(TestBed.inject(Navigator), 'navigate');
    const read = client.read('/api/things', Thing).catch((error: unknown) => error);
    daemon
      .expectOne('/api/things')
      .flush({ error_code: 'forbidden', message: 'no' }, { status: 403 });
    expect(toApiFailure(await read).code).toBe('forbidden');
    expect(TestBed.inject(ApiKey).rejected()).toBe(false);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('an aborted write stops waiting and rejects as an abort, not as an unreachable daemon', async () => {
    const abort = new AbortController();
    const write = client
      .write('POST', '/api/rules/check', Thing, {}, abort.signal)
      .catch((error: unknown) => error);
    daemon.expectOne('/api/rules/check');
    abort.abort();
    await settle();
    const error = await write;
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as Error).name).toBe('AbortError');
  });
});

describe("ApiClient's connections", () => {
  it("asks without credentials, apart from the page's scripts (the key is in a header)", async () => {
    const inits: RequestInit[] = [];
    const send = (async (_input: RequestInfo | URL, init?: RequestInit) => {
      inits.push(init ?? {});
      return new Response(JSON.stringify({ id: 'a' }), { status: 200 });
    }) as typeof fetch;
    TestBed.configureTestingModule({ providers: [{ provide: API_FETCH, useValue: send }] });
    TestBed.inject(ApiKey).use('secret-key');
    const client = TestBed.inject(ApiClient);
    await client.read('/api/things', Thing);
    await client.write('POST', '/api/things', Thing, {});
    expect(inits.map((init) => init.credentials)).toEqual(['omit', 'omit']);
  });
});
