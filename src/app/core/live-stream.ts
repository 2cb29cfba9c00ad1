import { Observable } from 'rxjs';

/** What a live NDJSON stream reports: a parsed line, or a change of connection. */
export type StreamMessage<T> =
  { kind: 'line'; line: T } | { kind: 'status'; connected: boolean } | { kind: 'unauthorized' };

export interface NdjsonStreamOptions<T> {
  /** Builds the URL for a (re)connection; `after` is the last sequence number seen, if any. */
  url: (after: number | null) => string;
  key: () => string | null;
  /** Parses one JSON line from `unknown`; null drops it. */
  parse: (raw: unknown) => T | null;
  /** The sequence number a line carries, to resume after it and drop duplicates. */
  seqOf?: (line: T) => number | null;
  startAfter?: number | null;
  /** A line after which the server ends the answer for good (an ended session): no reconnection. */
  isLast?: (line: T) => boolean;
  fetchFn?: typeof fetch;
  maxDelayMs?: number;
}

/** Splits decoded text into complete lines; returns them and the unfinished rest. */
export function splitLines(buffer: string): { lines: string[]; rest: string } {
  const parts = buffer.split('\n');
  const rest = parts.pop() ?? '';
  return { lines: parts.map((line) => line.trim()).filter((line) => line.length > 0), rest };
}

/**
 * Reads an NDJSON answer with fetch (so the Authorization header travels; EventSource cannot)
 * and reconnects with `after=<last seq seen>`, so nothing is lost or duplicated. Never errors:
 * failures become status messages and a retry with back-off, so a long-lived stream survives.
 * Completes when the server ends the answer after a line `isLast` recognises.
 */
export function ndjsonStream<T>(options: NdjsonStreamOptions<T>): Observable<StreamMessage<T>> {
  return new Observable<StreamMessage<T>>((subscriber) => {
    const fetchFn = options.fetchFn ?? fetch.bind(globalThis);
    const seen: SeenLines = { lastSeq: options.startAfter ?? null, sawLast: false };
    let closed = false;
    let attempt = 0;
    let controller: AbortController | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;

    const emitLine = (text: string): void => {
      const line = acceptLine(text, options, seen);
      if (line !== null) subscriber.next({ kind: 'line', line });
    };

    const connect = async (): Promise<void> => {
      controller = new AbortController();
      try {
        const response = await openAnswer(options, fetchFn, seen.lastSeq, controller.signal);
        if (response.status === 401) {
          subscriber.next({ kind: 'unauthorized' });
          return;
        }
        if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
        attempt = 0;
        subscriber.next({ kind: 'status', connected: true });
        await readLines(response.body, emitLine);
        if (seen.sawLast) {
          subscriber.next({ kind: 'status', connected: false });
          subscriber.complete();
          return;
        }
      } catch {
        // Network failures and aborts end this connection; the retry below (or the teardown) follows.
      }
      if (closed) return;
      subscriber.next({ kind: 'status', connected: false });
      const delay = Math.min(options.maxDelayMs ?? 10_000, 300 * 2 ** attempt);
      attempt += 1;
      timer = setTimeout(() => void connect(), delay);
    };

    void connect();
    return () => {
      closed = true;
      controller?.abort();
      if (timer !== null) clearTimeout(timer);
    };
  });
}

/** What a stream remembers across its connections. */
interface SeenLines {
  /** The last sequence number passed on, to resume after it and drop what repeats it. */
  lastSeq: number | null;
  /** The line after which the server ends the answer for good was seen. */
  sawLast: boolean;
}

/** The parsed line to pass on, or null for one that is not JSON, is refused, or was seen. */
function acceptLine<T>(text: string, options: NdjsonStreamOptions<T>, seen: SeenLines): T | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    // A line that is not JSON cannot come from the daemon's writer; skip it rather than stop.
    return null;
  }
  const line = options.parse(raw);
  if (line === null) return null;
  const seq = options.seqOf?.(line) ?? null;
  if (seq !== null) {
    if (seen.lastSeq !== null && seq <= seen.lastSeq) return null;
    seen.lastSeq = seq;
  }
  if (options.isLast?.(line)) seen.sawLast = true;
  return line;
}

function openAnswer<T>(
  options: NdjsonStreamOptions<T>,
  fetchFn: typeof fetch,
  after: number | null,
  signal: AbortSignal,
): Promise<Response> {
  const key = options.key();
  return fetchFn(options.url(after), {
    headers: key ? { Authorization: `Bearer ${key}`, Accept: 'application/x-ndjson' } : {},
    signal,
    cache: 'no-store',
  });
}

/** Reads a body to its end, handing on each complete line as it arrives. */
async function readLines(
  body: ReadableStream<Uint8Array>,
  onLine: (text: string) => void,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    const split = splitLines(buffer + decoder.decode(value, { stream: true }));
    buffer = split.rest;
    for (const line of split.lines) onLine(line);
  }
}
