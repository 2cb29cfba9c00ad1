import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EVENTS_PAGE_MAX, type SessionEvent } from '../../../contract/api.js';
import { insertSessionRow } from '../testing/fixtures.js';
import { startTestDaemon, type TestDaemon } from '../testing/harness.js';

interface Page {
  items: SessionEvent[];
  next_cursor: string | null;
  first_seq: number | null;
  last_seq: number;
}

/** Reads NDJSON lines from the live stream until `stopAfter` events arrived, then disconnects. */
async function readStream(
  daemon: TestDaemon,
  sessionId: string,
  after: number,
  stopAfter: number,
): Promise<number[]> {
  const controller = new AbortController();
  const response = await fetch(`${daemon.base}/api/sessions/${sessionId}/stream?after=${after}`, {
    headers: { authorization: `Bearer ${daemon.key}` },
    signal: controller.signal,
  });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /application\/x-ndjson/);
  const seqs: number[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = response.body!.getReader();
  while (seqs.length < stopAfter) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = JSON.parse(buffer.slice(0, newline)) as { type: string; event?: SessionEvent };
      buffer = buffer.slice(newline + 1);
      if (line.type === 'event') seqs.push(line.event!.seq);
      if (seqs.length >= stopAfter) break;
    }
  }
  controller.abort();
  return seqs;
}

describe('events API and live stream', { timeout: 60_000 }, () => {
  let daemon: TestDaemon;
  let sessionId: string;
  before(async () => {
    daemon = await startTestDaemon();
    sessionId = insertSessionRow(daemon.relais.db);
  });
  after(async () => {
    await daemon.close();
  });

  it('pages newest first without knowing the count, capped by the server', async () => {
    for (let i = 1; i <= 1200; i++) daemon.relais.events.append(sessionId, 'agent', `{"i":${i}}`);
    const tail = (await daemon.call<Page>('GET', `/api/sessions/${sessionId}/events?limit=100`))
      .body;
    assert.deepEqual([tail.items[0]!.seq, tail.items[99]!.seq], [1101, 1200]);
    assert.equal(tail.last_seq, 1200);
    assert.equal(tail.first_seq, 1);
    assert.equal(tail.next_cursor, '1101');
    const earlier = (
      await daemon.call<Page>(
        'GET',
        `/api/sessions/${sessionId}/events?before=${tail.next_cursor}&limit=100`,
      )
    ).body;
    assert.deepEqual([earlier.items[0]!.seq, earlier.items[99]!.seq], [1001, 1100]);
    const capped = (
      await daemon.call<Page>('GET', `/api/sessions/${sessionId}/events?after=0&limit=100000`)
    ).body;
    assert.equal(capped.items.length, EVENTS_PAGE_MAX);
    assert.equal(capped.next_cursor, String(EVENTS_PAGE_MAX));
    const head = (await daemon.call<Page>('GET', `/api/sessions/${sessionId}/events?before=3`))
      .body;
    assert.deepEqual(
      head.items.map((e) => e.seq),
      [1, 2],
    );
    assert.equal(head.next_cursor, null);
    const bad = await daemon.call('GET', `/api/sessions/${sessionId}/events?after=-4`);
    assert.equal(bad.status, 400);
  });

  it('a range of past events is cached privately for good; the tail and open ranges are not', async () => {
    const id = insertSessionRow(daemon.relais.db);
    for (let i = 1; i <= 300; i++) daemon.relais.events.append(id, 'agent', `{"i":${i}}`);
    const cache = async (query: string): Promise<unknown> =>
      (await daemon.call('GET', `/api/sessions/${id}/events?${query}`)).headers['cache-control'];
    const immutable = 'private, max-age=604800, immutable';
    assert.equal(await cache('limit=100'), undefined, 'the newest chunk grows');
    assert.equal(await cache('before=201&limit=100'), immutable);
    assert.equal(await cache('before=301&limit=100'), immutable, 'ends at the last event');
    assert.equal(await cache('before=302&limit=100'), undefined, 'reaches past the last event');
    assert.equal(await cache('after=100&limit=100'), immutable, 'a full page forwards');
    assert.equal(await cache('after=250&limit=100'), undefined, 'a short page forwards');
    // Written events count at once, even before their batch reaches the database.
    daemon.relais.events.append(id, 'agent', '{"i":301}');
    assert.equal(await cache('before=302&limit=100'), immutable);
  });

  it('the live stream resumes from a sequence number with no gap and no duplicate', async () => {
    // A running session: the stream of an ended one closes after its catch-up.
    const id = insertSessionRow(daemon.relais.db, { state: 'working' });
    for (let i = 1; i <= 700; i++) daemon.relais.events.append(id, 'agent', `{"i":${i}}`);
    // Keep appending while clients read, as a running agent would.
    let n = 700;
    const writer = setInterval(() => {
      for (let k = 0; k < 20 && n < 1500; k++)
        daemon.relais.events.append(id, 'agent', `{"i":${++n}}`);
    }, 5);
    try {
      const first = await readStream(daemon, id, 0, 800);
      const second = await readStream(daemon, id, first[first.length - 1]!, 1500 - first.length);
      const all = [...first, ...second];
      assert.deepEqual(
        all,
        Array.from({ length: 1500 }, (_, i) => i + 1),
      );
    } finally {
      clearInterval(writer);
    }
  });

  it('the stream begins with the session as it is now, before any event', async () => {
    const id = insertSessionRow(daemon.relais.db);
    daemon.relais.events.append(id, 'agent', '{"i":1}');
    const controller = new AbortController();
    const response = await fetch(`${daemon.base}/api/sessions/${id}/stream?after=0`, {
      headers: { authorization: `Bearer ${daemon.key}` },
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    let text = '';
    while (text.split('\n').length < 3) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    controller.abort();
    const [first, second] = text.split('\n').map((line) => JSON.parse(line || 'null'));
    assert.equal(first.type, 'session');
    assert.equal(first.session.id, id);
    assert.equal(first.session.state, (await daemon.call('GET', `/api/sessions/${id}`)).body.state);
    assert.equal(second.type, 'event');
    assert.equal(second.event.seq, 1);
  });

  it('the stream of an unknown session is a 404', async () => {
    const answer = await daemon.call('GET', '/api/sessions/ses_nope/stream');
    assert.equal(answer.status, 404);
  });
});

describe('conversation outline', { timeout: 60_000 }, () => {
  it('lists the context, the turns and the tool calls with their sequence numbers, and keeps up', async () => {
    const daemon = await startTestDaemon();
    try {
      const id = insertSessionRow(daemon.relais.db);
      const append = (source: 'agent' | 'host', value: unknown): number =>
        daemon.relais.events.append(id, source, JSON.stringify(value)).seq;
      const first = append('host', {
        type: 'user',
        session_id: '',
        message: { role: 'user', content: [{ type: 'text', text: 'list files' }] },
      });
      const init = append('agent', { type: 'system', subtype: 'init', model: 'm' });
      for (let i = 0; i < 600; i++) append('agent', { type: 'stream_event', n: i });
      const tool = append('agent', {
        type: 'assistant',
        message: {
          content: [
            { type: 'text', text: 'ok' },
            { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls -la' } },
          ],
        },
      });
      const outline = (await daemon.call('GET', `/api/sessions/${id}/outline`)).body;
      assert.equal(outline.init_seq, init);
      assert.deepEqual(
        outline.turns.map((t: { turn: number; seq: number; text: string }) => [
          t.turn,
          t.seq,
          t.text,
        ]),
        [[1, first, 'list files']],
      );
      assert.deepEqual(outline.tools, [
        { seq: tool, tool_use_id: 'toolu_1', name: 'Bash', summary: 'ls -la' },
      ]);
      const second = append('host', {
        type: 'user',
        session_id: '',
        message: { role: 'user', content: [{ type: 'text', text: 'again' }] },
      });
      const updated = (await daemon.call('GET', `/api/sessions/${id}/outline`)).body;
      assert.deepEqual(
        updated.turns.map((t: { seq: number }) => t.seq),
        [first, second],
      );
      assert.equal(updated.last_seq, second);

      // Slices keep the global turn numbers; a slice wholly in the past may be cached for good.
      const slice = await daemon.call(
        'GET',
        `/api/sessions/${id}/outline?after=${first}&before=${second + 1}`,
      );
      assert.deepEqual(
        slice.body.turns.map((t: { turn: number; seq: number }) => [t.turn, t.seq]),
        [[2, second]],
      );
      assert.deepEqual(
        slice.body.tools.map((t: { seq: number }) => t.seq),
        [tool],
      );
      assert.equal(slice.headers['cache-control'], 'private, max-age=604800, immutable');
      const open = await daemon.call('GET', `/api/sessions/${id}/outline?after=${first}`);
      assert.equal(open.headers['cache-control'], undefined);
      const future = await daemon.call('GET', `/api/sessions/${id}/outline?before=${second + 2}`);
      assert.equal(future.headers['cache-control'], undefined);
      const bad = await daemon.call('GET', `/api/sessions/${id}/outline?after=-1`);
      assert.equal(bad.status, 400);
    } finally {
      await daemon.close();
    }
  });
});
