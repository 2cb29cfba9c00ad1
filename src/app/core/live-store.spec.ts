import { TestBed } from '@angular/core/testing';
import { Session } from '../../../contract/api';
import { FakeApi, provideFakeApi } from '../testing/fake-api';
import { sampleSession } from '../testing/sample-session';
import { ApiKey } from './api-key';
import { LiveStore } from './live-store';
import { Navigator } from './routing/navigator';

/** The global stream as the test writes it, one line at a time; `drop()` cuts the connection. */
function fakeStream() {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  return {
    response: () => new Response(body, { headers: { 'Content-Type': 'application/x-ndjson' } }),
    line: (value: object) => controller.enqueue(encoder.encode(`${JSON.stringify(value)}\n`)),
    drop: () => controller.error(new TypeError('network')),
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const LIST = '/api/sessions?limit=200';
const page = (items: Session[]) => ({ items, next_cursor: null });

describe('LiveStore: the first list and the stream', () => {
  let store: LiveStore;
  let daemon: FakeApi;
  let streams: ReturnType<typeof fakeStream>[];

  beforeEach(() => {
    streams = [];
    vi.stubGlobal('fetch', () => {
      const stream = fakeStream();
      streams.push(stream);
      return Promise.resolve(stream.response());
    });
    TestBed.configureTestingModule({ providers: [...provideFakeApi()] });
    TestBed.inject(ApiKey).use('k'.repeat(32), 'session');
    store = TestBed.inject(LiveStore);
    daemon = TestBed.inject(FakeApi);
  });

  afterEach(() => {
    store.stop();
    daemon.verify();
    vi.unstubAllGlobals();
  });

  /** Starts the store and waits until its stream is connected and its list asked for. */
  const start = async () => {
    store.start();
    await vi.waitFor(() => expect(streams.length).toBe(1));
    await settle();
  };

  it('reads the sessions list once: the snapshot says what is open', async () => {
    await start();
    daemon.expectOne(LIST).flush(page([sampleSession({ id: 'a', state: 'working' })]));
    streams[0]!.line({ type: 'session', session: sampleSession({ id: 'a', state: 'working' }) });
    streams[0]!.line({ type: 'snapshot_end' });
    await settle();
    await settle();
    expect(store.session('a')?.state).toBe('working');
    // verify() checks that nothing else was asked: no second list, no session read.
  });

  it('a session the list showed open that ended before the stream connected is read again on its own', async () => {
    await start();
    streams[0]!.line({ type: 'session', session: sampleSession({ id: 'b', state: 'idle' }) });
    streams[0]!.line({ type: 'snapshot_end' });
    await settle();
    // The list arrives after the snapshot: it says "a" works, the snapshot did not name it.
    daemon
      .expectOne(LIST)
      .flush(
        page([
          sampleSession({ id: 'a', state: 'working' }),
          sampleSession({ id: 'b', state: 'idle' }),
          sampleSession({ id: 'c', state: 'ended', ended_at: '2026-01-01T00:30:00.000Z' }),
        ]),
      );
    const readAgain = await vi.waitFor(() => daemon.expectOne('/api/sessions/a'));
    readAgain.flush(
      sampleSession({
        id: 'a',
        state: 'ended',
        ended_at: '2026-01-01T00:40:00.000Z',
        last_seq: 9,
      }),
    );
    await vi.waitFor(() => expect(store.session('a')?.state).toBe('ended'));
    expect(store.session('b')?.state).toBe('idle');
  });

  it('a session the list showed open that was deleted before the stream connected leaves the list', async () => {
    await start();
    daemon
      .expectOne(LIST)
      .flush(
        page([
          sampleSession({ id: 'gone', state: 'idle' }),
          sampleSession({ id: 'b', state: 'idle' }),
        ]),
      );
    streams[0]!.line({ type: 'session', session: sampleSession({ id: 'b', state: 'idle' }) });
    streams[0]!.line({ type: 'snapshot_end' });
    const readAgain = await vi.waitFor(() => daemon.expectOne('/api/sessions/gone'));
    readAgain.flush(
      { error_code: 'not_found', message: 'No such session.' },
      { status: 404, statusText: 'Not Found' },
    );
    await vi.waitFor(() => expect(store.session('gone')).toBeUndefined());
    expect(store.session('b')?.state).toBe('idle');
  });

  it('a session named by a change after the snapshot is not read again', async () => {
    await start();
    streams[0]!.line({ type: 'snapshot_end' });
    streams[0]!.line({ type: 'session', session: sampleSession({ id: 'n', state: 'starting' }) });
    await settle();
    daemon.expectOne(LIST).flush(page([sampleSession({ id: 'n', state: 'starting' })]));
    await settle();
    await settle();
    expect(store.session('n')?.state).toBe('starting');
  });

  it('back after an outage, the list is read again (sessions may have come and gone)', async () => {
    await start();
    daemon.expectOne(LIST).flush(page([]));
    streams[0]!.line({ type: 'snapshot_end' });
    await settle();
    streams[0]!.drop();
    await vi.waitFor(() => expect(streams.length).toBe(2), { timeout: 2000 });
    const again = await vi.waitFor(() => daemon.expectOne(LIST));
    again.flush(page([sampleSession({ id: 'x', state: 'ended' })]));
    await vi.waitFor(() => expect(store.session('x')?.state).toBe('ended'));
  });

  it('back after an outage, a session the new list shows open and the new snapshot does not name is read on its own', async () => {
    await start();
    daemon.expectOne(LIST).flush(page([]));
    streams[0]!.line({ type: 'snapshot_end' });
    await settle();
    streams[0]!.drop();
    await vi.waitFor(() => expect(streams.length).toBe(2), { timeout: 2000 });
    const again = await vi.waitFor(() => daemon.expectOne(LIST));
    again.flush(page([sampleSession({ id: 'a', state: 'working' })]));
    streams[1]!.line({ type: 'snapshot_end' });
    const readAgain = await vi.waitFor(() => daemon.expectOne('/api/sessions/a'));
    readAgain.flush(
      sampleSession({ id: 'a', state: 'ended', ended_at: '2026-01-01T00:40:00.000Z' }),
    );
    await vi.waitFor(() => expect(store.session('a')?.state).toBe('ended'));
  });
});

describe('LiveStore: its start and stop', () => {
  let fetches: number;
  let answer: () => Response;

  beforeEach(() => {
    fetches = 0;
    answer = () => new Response(new ReadableStream(), { status: 200 });
    vi.stubGlobal('fetch', () => {
      fetches += 1;
      return Promise.resolve(answer());
    });
    TestBed.configureTestingModule({ providers: [...provideFakeApi()] });
    TestBed.inject(ApiKey).use('k'.repeat(32), 'session');
  });

  afterEach(() => vi.unstubAllGlobals());

  it('a key the stream refuses is rejected, the stream stopped, and the key page asked for', async () => {
    answer = () => new Response(null, { status: 401 });
    const navigate = vi.spyOn(TestBed.inject(Navigator), 'navigate').mockResolvedValue(true);
    const store = TestBed.inject(LiveStore);
    store.start();
    await vi.waitFor(() => expect(TestBed.inject(ApiKey).rejected()).toBe(true));
    expect(navigate).toHaveBeenCalledWith('/key');
    expect(store.status()).toBe('connecting');
    TestBed.inject(FakeApi).match(LIST);
  });

  it('stopped while its code still loads, it opens no stream; started again, one', async () => {
    const store = TestBed.inject(LiveStore);
    store.start();
    store.stop();
    await settle();
    await settle();
    expect(fetches).toBe(0);
    store.start();
    store.start();
    await vi.waitFor(() => expect(fetches).toBe(1));
    await settle();
    expect(fetches).toBe(1);
    store.stop();
    TestBed.inject(FakeApi).match(LIST);
  });
});
