import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  EVENT_CLIP_MIN,
  EVENTS_PAGE_MAX,
  EVENTS_PAGE_MAX_CHARS,
  type SessionEvent,
} from '../../../contract/api.js';
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
  return (await readStreamEvents(daemon, sessionId, after, '', stopAfter)).map((e) => e.seq);
}

async function readStreamEvents(
  daemon: TestDaemon,
  sessionId: string,
  after: number,
  query: string,
  stopAfter: number,
): Promise<SessionEvent[]> {
  const controller = new AbortController();
  const response = await fetch(
    `${daemon.base}/api/sessions/${sessionId}/stream?after=${after}${query}`,
    { headers: { authorization: `Bearer ${daemon.key}` }, signal: controller.signal },
  );
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /application\/x-ndjson/);
  const events: SessionEvent[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = response.body!.getReader();
  while (events.length < stopAfter) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = JSON.parse(buffer.slice(0, newline)) as { type: string; event?: SessionEvent };
      buffer = buffer.slice(newline + 1);
      if (line.type === 'event') events.push(line.event!);
      if (events.length >= stopAfter) break;
    }
  }
  controller.abort();
  return events;
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

  it('pages are cut by their weight too, and every cursor, the live catch-up and the outline still reach every event', async () => {
    const id = insertSessionRow(daemon.relais.db);
    const third = Math.floor(EVENTS_PAGE_MAX_CHARS / 3);
    const weights: number[] = [];
    for (let i = 1; i <= 40; i++) {
      // A file read every fourth event, and one line heavier than a whole page.
      const text =
        i === 21 ? 'y'.repeat(EVENTS_PAGE_MAX_CHARS + 10) : i % 4 === 0 ? 'x'.repeat(third) : 'ok';
      daemon.relais.events.append(id, 'agent', JSON.stringify({ i, text }));
      weights.push(text.length);
    }
    const url = `/api/sessions/${id}/events`;
    const read = async (query: string) => {
      const answer = await daemon.call<Page>('GET', `${url}?${query}`);
      assert.equal(answer.status, 200);
      const size = answer.body.items.reduce((sum, e) => sum + JSON.stringify(e.data).length, 0);
      assert.ok(
        answer.body.items.length === 1 || size <= EVENTS_PAGE_MAX_CHARS,
        `${query}: ${size}`,
      );
      return answer;
    };
    const backwards: number[] = [];
    for (let query = 'limit=500'; ;) {
      const { body } = await read(query);
      backwards.unshift(...body.items.map((e) => e.seq));
      if (body.next_cursor === null) break;
      query = `before=${body.next_cursor}&limit=500`;
    }
    const forwards: number[] = [];
    for (let query = 'after=0&limit=500'; ;) {
      const { body, headers } = await read(query);
      forwards.push(...body.items.map((e) => e.seq));
      if (body.next_cursor === null) break;
      assert.ok(body.items.length < 500, 'cut by weight, not by count');
      assert.equal(headers['cache-control'], 'private, max-age=604800, immutable', query);
      query = `after=${body.next_cursor}&limit=500`;
    }
    const all = weights.map((_, i) => i + 1);
    assert.deepEqual(backwards, all);
    assert.deepEqual(forwards, all);
    assert.deepEqual(
      (await read('before=22&limit=5')).body.items.map((e) => e.seq),
      [21],
    );

    daemon.relais.db.prepare("UPDATE sessions SET state = 'working' WHERE id = ?").run(id);
    assert.deepEqual(await readStream(daemon, id, 0, 40), all);
    const outline = await daemon.call<{ last_seq: number }>('GET', `/api/sessions/${id}/outline`);
    assert.equal(outline.body.last_seq, 40);
  });

  it('a reader may ask for long texts clipped: pages, the live stream and one event read whole', async () => {
    const id = insertSessionRow(daemon.relais.db, { state: 'working' });
    const heavy = (i: number) =>
      JSON.stringify({ i, text: `${i}:`.padEnd(400_000, 'z'), note: 'short' });
    for (let i = 1; i <= 40; i++)
      daemon.relais.events.append(id, 'agent', i % 2 ? heavy(i) : `{"i":${i}}`);
    const url = `/api/sessions/${id}/events`;
    const page = (await daemon.call<Page>('GET', `${url}?limit=500&clip=1000`)).body;
    // Clipped, the 40 events weigh far less than a page: they come at once.
    assert.equal(page.items.length, 40);
    for (const item of page.items) {
      const data = item.data as { i: number; text?: string; note?: string };
      if (data.i % 2 === 0) {
        assert.equal(item.clipped, undefined);
        assert.deepEqual(data, { i: data.i });
        continue;
      }
      assert.equal(item.clipped, true);
      assert.equal(data.text, `${data.i}:`.padEnd(1000, 'z'));
      assert.equal(data.note, 'short');
    }
    const whole = (await daemon.call<Page>('GET', `${url}?after=2&limit=1`)).body.items[0]!;
    assert.equal(whole.clipped, undefined);
    assert.equal((whole.data as { text: string }).text.length, 400_000);
    for (const clip of ['10', '-1', 'abc', '1e3.5'])
      assert.equal((await daemon.call('GET', `${url}?clip=${clip}`)).status, 400, clip);

    const streamed = readStreamEvents(daemon, id, 38, `&clip=${EVENT_CLIP_MIN}`, 3);
    daemon.relais.events.append(id, 'agent', heavy(41));
    const live = await streamed;
    assert.deepEqual(
      live.map((e) => [e.seq, e.clipped]),
      [
        [39, true],
        [40, undefined],
        [41, true],
      ],
    );
    for (const e of [live[0]!, live[2]!])
      assert.equal((e.data as { text: string }).text.length, EVENT_CLIP_MIN);
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

  it("reads a Codex session's turns and tool calls, live (JSON-RPC) and imported (rollout lines)", async () => {
    const daemon = await startTestDaemon();
    try {
      const id = insertSessionRow(daemon.relais.db, { agent: 'codex' });
      const append = (source: 'agent' | 'host', value: unknown): number =>
        daemon.relais.events.append(
          id,
          source,
          typeof value === 'string' ? value : JSON.stringify(value),
        ).seq;
      const started = (item: object) => ({ method: 'item/started', params: { item } });
      const rollout = (payload: object) => ({
        timestamp: '2026-06-01T09:00:00.000Z',
        type: 'response_item',
        payload,
      });
      const turn = append('host', {
        method: 'turn/start',
        id: 3,
        params: { threadId: 't', input: [{ type: 'text', text: 'run the tests' }] },
      });
      const command = append(
        'agent',
        started({ type: 'commandExecution', id: 'call_1', command: 'npm test' }),
      );
      // A search for the name of a rollout's line type is still a tool call of the app server.
      const search = append(
        'agent',
        started({ type: 'webSearch', id: 'ws_1', query: 'response_item' }),
      );
      append('agent', {
        method: 'item/completed',
        params: { item: { type: 'commandExecution', id: 'call_1', command: 'npm test' } },
      });
      append('agent', started({ type: 'agentMessage', id: 'msg_1', text: '' }));
      append('host', {
        method: 'turn/steer',
        id: 4,
        params: { input: [{ type: 'text', text: 'and lint' }] },
      });
      const write = append(
        'agent',
        started({
          type: 'fileChange',
          id: 'fc_1',
          changes: [{ path: '/tmp/a.txt', kind: { type: 'add' }, diff: 'x' }],
        }),
      );
      // A Claude-shaped line, and a broken one, add nothing to a Codex session's outline.
      append('host', { type: 'user', message: { role: 'user', content: 'not Codex' } });
      append('host', '{"method":"turn/start","params":');
      // Nor does a line nested past any parser's stack, of either shape.
      const nested = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
      append('agent', `{"timestamp":"t","type":"response_item","payload":${nested}}`);
      append('agent', `{"method":"item/started","params":${nested}}`);
      append(
        'agent',
        rollout({
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: '<environment_context>…' }],
        }),
      );
      const prompt = append(
        'agent',
        rollout({
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: 'fix it' }],
        }),
      );
      const call = append(
        'agent',
        rollout({
          type: 'function_call',
          name: 'exec_command',
          arguments: '{"cmd":"ls"}',
          call_id: 'call_2',
        }),
      );
      // A call without an id gets its event's seq: two such calls stay two.
      const anonymous = append(
        'agent',
        rollout({ type: 'local_shell_call', input: { command: 'pwd' } }),
      );
      append(
        'agent',
        rollout({
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'done' }],
        }),
      );

      // A prompt of a megabyte is listed by its first 200 characters.
      const long = append('host', {
        method: 'turn/start',
        id: 5,
        params: { input: [{ type: 'text', text: 'y'.repeat(1_000_000) }] },
      });

      const outline = (await daemon.call('GET', `/api/sessions/${id}/outline`)).body;
      assert.deepEqual(
        outline.turns.map((t: { turn: number; seq: number; text: string }) => [
          t.turn,
          t.seq,
          t.text,
        ]),
        [
          [1, turn, 'run the tests'],
          [2, prompt, 'fix it'],
          [3, long, 'y'.repeat(200)],
        ],
      );
      assert.deepEqual(outline.tools, [
        { seq: command, tool_use_id: 'call_1', name: 'Bash', summary: 'npm test' },
        {
          seq: search,
          tool_use_id: 'ws_1',
          name: 'webSearch',
          summary: '{"type":"webSearch","id":"ws_1","query":"response_item"}',
        },
        { seq: write, tool_use_id: 'fc_1', name: 'Write', summary: '/tmp/a.txt' },
        { seq: call, tool_use_id: 'call_2', name: 'exec_command', summary: 'ls' },
        {
          seq: anonymous,
          tool_use_id: String(anonymous),
          name: 'local_shell_call',
          summary: 'pwd',
        },
      ]);
      assert.equal(outline.init_seq, null);
    } finally {
      await daemon.close();
    }
  });
});
