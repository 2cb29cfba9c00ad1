import { TestBed } from '@angular/core/testing';
import { FakeApi, provideFakeApi } from '../testing/fake-api';
import { EVENT_CLIP, PAGE } from '../conversation/conversation-paging';
import { SessionsApi } from '../sessions/sessions-api';
import { sampleSession } from '../testing/sample-session';
import {
  SHELL_READS,
  clearEarlyReads,
  earlyReadsFor,
  peekEarlyRead,
  startEarlyReads,
  takeArrivedEarlyRead,
  takeEarlyRead,
} from './early-reads';

const session = sampleSession({ id: 'ses_abc', last_seq: 3, turns: 1 });

/** A fetch that answers each URL from `answers` and records what it was asked. */
function fakeFetch(answers: Record<string, { status: number; body?: unknown } | 'network-error'>) {
  const asked: { url: string; headers: Record<string, string> }[] = [];
  const get = ((input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    asked.push({ url, headers: (init?.headers ?? {}) as Record<string, string> });
    const answer = answers[url];
    if (!answer || answer === 'network-error') return Promise.reject(new TypeError('offline'));
    return Promise.resolve(
      new Response(JSON.stringify(answer.body ?? {}), {
        status: answer.status,
        headers: { 'content-type': 'application/json' },
      }),
    );
  }) as typeof fetch;
  return { get, asked };
}

describe('early reads', () => {
  afterEach(() => clearEarlyReads());

  it('a conversation address asks for its session and last page; any page for the recent sessions', () => {
    expect(earlyReadsFor('/sessions/ses_abc')).toEqual([
      '/api/sessions/ses_abc',
      `/api/sessions/ses_abc/events?limit=${PAGE}&clip=${EVENT_CLIP}`,
      ...SHELL_READS,
    ]);
    expect(earlyReadsFor('/sessions/ses_abc/')).toHaveLength(3);
    for (const path of [
      '/',
      '/sessions',
      '/sessions/new',
      '/sessions/a/b',
      '/sessions/..%2F..%2Fapi%2Fkeys',
      '/sessions/a%00b',
      `/sessions/${'x'.repeat(129)}`,
      '/analytics',
      '/SESSIONS/ses_abc',
    ])
      expect(earlyReadsFor(path), path).toEqual(SHELL_READS);
  });

  it('sends the key and the console app name, and hands each answer over once', async () => {
    const { get, asked } = fakeFetch({
      '/api/sessions/ses_abc': { status: 200, body: session },
      [`/api/sessions/ses_abc/events?limit=${PAGE}&clip=${EVENT_CLIP}`]: {
        status: 200,
        body: { items: [] },
      },
    });
    startEarlyReads('/sessions/ses_abc', 'k-1', get);
    expect(asked.map((a) => a.url)).toEqual(earlyReadsFor('/sessions/ses_abc'));
    expect(asked[0]!.headers).toEqual({ Authorization: 'Bearer k-1', 'X-Relais-App': 'console' });
    expect(await takeEarlyRead('/api/sessions/ses_abc')).toEqual(session);
    expect(takeEarlyRead('/api/sessions/ses_abc')).toBeNull();
  });

  it('a read started before (by the first paint, from its own bundle) is not asked twice, and a peek leaves it', async () => {
    const events = `/api/sessions/ses_abc/events?limit=${PAGE}&clip=${EVENT_CLIP}`;
    const { get, asked } = fakeFetch({ [events]: { status: 200, body: { items: [] } } });
    let now = 1_000;
    startEarlyReads('/sessions/ses_abc', 'k', get, () => now);
    const shared = (globalThis as Record<symbol, unknown>)[Symbol.for('relais.early-reads')];
    expect((shared as Map<string, unknown>).has(events)).toBe(true);
    expect(await peekEarlyRead(events)).toEqual({ items: [] });
    startEarlyReads('/sessions/ses_abc', 'k', get, () => now);
    expect(asked.filter((a) => a.url === events)).toHaveLength(1);
    expect(await takeEarlyRead(events, () => now)).toEqual({ items: [] });
    expect(peekEarlyRead(events)).toBeNull();

    startEarlyReads('/sessions/ses_abc', 'k', get, () => now);
    now += 60_000; // A read too old to stand for a first one is asked again.
    startEarlyReads('/sessions/ses_abc', 'k', get, () => now);
    expect(asked.filter((a) => a.url === events)).toHaveLength(3);
  });

  it('without a key, nothing is asked', () => {
    const { get, asked } = fakeFetch({});
    startEarlyReads('/sessions/ses_abc', null, get);
    expect(asked).toEqual([]);
    expect(takeEarlyRead('/api/sessions/ses_abc')).toBeNull();
  });

  it('a refused or failed read, or an old one, is not an answer', async () => {
    const { get } = fakeFetch({
      '/api/sessions/ses_abc': { status: 401, body: { error_code: 'unauthorized' } },
      [`/api/sessions/ses_abc/events?limit=${PAGE}&clip=${EVENT_CLIP}`]: 'network-error',
    });
    let now = 1_000;
    startEarlyReads('/sessions/ses_abc', 'k', get, () => now);
    expect(await takeEarlyRead('/api/sessions/ses_abc', () => now)).toBeUndefined();
    expect(
      await takeEarlyRead(
        `/api/sessions/ses_abc/events?limit=${PAGE}&clip=${EVENT_CLIP}`,
        () => now,
      ),
    ).toBeUndefined();
    startEarlyReads('/sessions/ses_abc', 'k', get, () => now);
    now += 60_000;
    expect(takeEarlyRead('/api/sessions/ses_abc', () => now)).toBeNull();
  });

  it('an answer that has arrived can be taken at once, once, and only when it is accepted', async () => {
    const url = '/api/sessions/ses_abc';
    const { get } = fakeFetch({ [url]: { status: 200, body: session } });
    let now = 1_000;
    startEarlyReads('/sessions/ses_abc', 'k', get, () => now);
    const accept = (body: unknown) => (body as { id?: string }).id;
    expect(takeArrivedEarlyRead(url, accept, () => now)).toBeUndefined(); // still on its way
    await new Promise((resolve) => setTimeout(resolve));
    expect(
      takeArrivedEarlyRead(
        url,
        () => undefined,
        () => now,
      ),
    ).toBeUndefined(); // refused: kept
    expect(takeArrivedEarlyRead(url, accept, () => now)).toBe('ses_abc');
    expect(takeArrivedEarlyRead(url, accept, () => now)).toBeUndefined();
    expect(takeEarlyRead(url, () => now)).toBeNull();

    startEarlyReads('/sessions/ses_abc', 'k', get, () => now);
    await new Promise((resolve) => setTimeout(resolve));
    now += 60_000;
    expect(takeArrivedEarlyRead(url, accept, () => now)).toBeUndefined(); // too old
  });

  describe('through SessionsApi', () => {
    let api: SessionsApi;
    let daemon: FakeApi;

    beforeEach(() => {
      TestBed.configureTestingModule({
        providers: [...provideFakeApi()],
      });
      api = TestBed.inject(SessionsApi);
      daemon = TestBed.inject(FakeApi);
    });
    afterEach(() => daemon.verify());

    it('uses the early answer instead of asking again', async () => {
      startEarlyReads(
        '/sessions/ses_abc',
        'k',
        fakeFetch({ '/api/sessions/ses_abc': { status: 200, body: session } }).get,
      );
      expect((await api.get('ses_abc')).id).toBe('ses_abc');
      daemon.expectNone('/api/sessions/ses_abc');
    });

    it('the shell’s list of recent sessions is one of them', async () => {
      startEarlyReads(
        '/analytics',
        'k',
        fakeFetch({
          [SHELL_READS[0]!]: { status: 200, body: { items: [session], next_cursor: null } },
        }).get,
      );
      expect((await api.list({}, 200)).map((s) => s.id)).toEqual(['ses_abc']);
      daemon.expectNone(() => true);
    });

    it('an arrived answer is handed over in the same call, parsed; one that does not fit stays for read()', async () => {
      const events = `/api/sessions/ses_abc/events?limit=${PAGE}&clip=${EVENT_CLIP}`;
      startEarlyReads(
        '/sessions/ses_abc',
        'k',
        fakeFetch({
          '/api/sessions/ses_abc': { status: 200, body: session },
          [events]: { status: 200, body: { items: 'not a list' } },
        }).get,
      );
      await new Promise((resolve) => setTimeout(resolve));
      expect(api.getArrived('ses_abc')?.id).toBe('ses_abc');
      expect(api.getArrived('ses_abc')).toBeUndefined();
      expect(api.eventsArrived('ses_abc', { limit: PAGE, clip: EVENT_CLIP })).toBeUndefined();
      const read = api.events('ses_abc', { limit: PAGE, clip: EVENT_CLIP });
      await new Promise((resolve) => setTimeout(resolve));
      daemon
        .expectOne(events)
        .flush({ items: [], next_cursor: null, first_seq: null, last_seq: 0 });
      expect((await read).items).toEqual([]);
    });

    it('asks again when the early answer failed or does not fit the contract', async () => {
      startEarlyReads(
        '/sessions/ses_abc',
        'k',
        fakeFetch({ '/api/sessions/ses_abc': { status: 200, body: { id: 42 } } }).get,
      );
      const read = api.get('ses_abc');
      await new Promise((resolve) => setTimeout(resolve));
      daemon.expectOne('/api/sessions/ses_abc').flush(session);
      expect((await read).state).toBe('idle');
    });
  });
});
