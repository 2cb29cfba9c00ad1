import { firstValueFrom, take, toArray } from 'rxjs';
import { StreamMessage, ndjsonStream, splitLines } from './live-stream';

const body = (chunks: string[]): ReadableStream<Uint8Array> => {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
};

describe('NDJSON live stream', () => {
  it('splits complete lines and keeps the unfinished rest', () => {
    expect(splitLines('{"a":1}\n\n{"b"')).toEqual({ lines: ['{"a":1}'], rest: '{"b"' });
  });

  it('parses lines across chunk borders, sends the key, and resumes after the last seq without duplicates', async () => {
    const urls: string[] = [];
    const headers: unknown[] = [];
    let call = 0;
    const fetchFn = (async (url: string, init: RequestInit) => {
      urls.push(url);
      headers.push(init.headers);
      call += 1;
      const chunks = call === 1 ? ['{"seq":1}\n{"se', 'q":2}\n'] : ['{"seq":2}\n{"seq":3}\n'];
      return new Response(body(chunks), { status: 200 });
    }) as unknown as typeof fetch;
    const messages = await firstValueFrom(
      ndjsonStream<{ seq: number }>({
        url: (after) => `/s?after=${after ?? 0}`,
        key: () => 'k',
        parse: (raw) => raw as { seq: number },
        seqOf: (line) => line.seq,
        fetchFn,
        maxDelayMs: 1,
      }).pipe(take(7), toArray()),
    );
    const lines = messages.filter(
      (m): m is Extract<StreamMessage<{ seq: number }>, { kind: 'line' }> => m.kind === 'line',
    );
    expect(lines.map((m) => m.line.seq)).toEqual([1, 2, 3]);
    expect(urls[0]).toBe('/s?after=0');
    expect(urls[1]).toBe('/s?after=2');
    expect(headers[0]).toEqual({ Authorization: 'Bearer k', Accept: 'application/x-ndjson' });
  });

  it('does not reconnect once the server ended the answer after the last line', async () => {
    let calls = 0;
    const fetchFn = (async () => {
      calls += 1;
      return new Response(body(['{"seq":1}\n{"seq":2,"last":true}\n']), { status: 200 });
    }) as unknown as typeof fetch;
    const messages = await firstValueFrom(
      ndjsonStream<{ seq: number; last?: boolean }>({
        url: () => '/s',
        key: () => 'k',
        parse: (raw) => raw as { seq: number; last?: boolean },
        seqOf: (line) => line.seq,
        isLast: (line) => line.last === true,
        fetchFn,
        maxDelayMs: 1,
      }).pipe(toArray()),
    );
    expect(messages.map((m) => (m.kind === 'line' ? m.line.seq : m.kind))).toEqual([
      'status',
      1,
      2,
      'status',
    ]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toBe(1);
  });

  it('reports a 401 as unauthorized', async () => {
    const fetchFn = (async () => new Response('', { status: 401 })) as unknown as typeof fetch;
    const first = await firstValueFrom(
      ndjsonStream({ url: () => '/x', key: () => 'bad', parse: (raw) => raw, fetchFn }),
    );
    expect(first.kind).toBe('unauthorized');
  });
});
