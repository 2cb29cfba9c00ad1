import type { FastifyReply, FastifyRequest } from 'fastify';
import { EVENTS_PAGE_MAX_CHARS, type Session } from '../../../contract/api.js';
import type { GlobalHub } from './global-hub.js';
import { type NdjsonStream, openNdjsonStream } from '../http/ndjson-stream.js';
import { clipEvent } from './clip.js';
import { eventJson, type EventStore, type StoredEvent } from './event-store.js';

const CATCH_UP_PAGE = 500;

/** The event that closes a session's journal: Relais writes nothing for the session after it. */
export function isEndEvent(event: StoredEvent): boolean {
  if (event.source !== 'relais') return false;
  const data = JSON.parse(event.data) as { subtype?: unknown; state?: unknown };
  return data.subtype === 'state' && data.state === 'ended';
}

/**
 * Streams a session's events from `after` on, each clipped at `clip` when given (see clipEvent):
 * first the session as it is now (so a client needs no second read to close the race between its
 * own read and the stream's start), then the stored events, then live ones, with no gap and no
 * duplicate. Live events that arrive during the
 * catch-up wait in order and are filtered by seq. Once the session's end is sent (or found after
 * the catch-up), its final state follows and the answer ends.
 */
export async function streamSessionEvents(
  sessionId: string,
  { after, clip }: { after: number; clip?: number },
  current: () => Session,
  store: EventStore,
  hub: GlobalHub,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const stream = openNdjsonStream(request, reply);
  const out = new SessionLineWriter(stream, current, after);
  const waiting: StoredEvent[] = [];
  let catchingUp = true;
  const unsubscribe = store.subscribe(sessionId, (stored) => {
    const event = clipEvent(stored, clip);
    if (catchingUp) waiting.push(event);
    else out.send(event);
  });
  const unsubscribeHub = hub.subscribe((line) => {
    if (line.type === 'session' && line.session.id === sessionId) out.line(JSON.stringify(line));
  });
  stream.onClose(() => (unsubscribe(), unsubscribeHub()));
  // Read after subscribing, in the same tick: any later change follows this line on the stream.
  out.line(JSON.stringify({ type: 'session', session: current() }));

  const catchUp = () => sendStored(store, sessionId, clip, out, stream);
  await catchUp();
  catchingUp = false;
  for (const event of waiting.splice(0)) out.send(event);
  // An imported conversation has no end of its own: its transcript may grow (watched), so it is followed.
  const session = current();
  if (session.state !== 'ended' || session.origin === 'imported') return;
  // Ended before or during the catch-up: what it wrote last is stored by now (a read flushes).
  await catchUp();
  out.finish();
}

/** Sends the stored events after the last one sent, page by page, each page written before the next. */
async function sendStored(
  store: EventStore,
  sessionId: string,
  clip: number | undefined,
  out: SessionLineWriter,
  stream: NdjsonStream,
): Promise<void> {
  for (;;) {
    const page = store.readPage(sessionId, {
      after: out.lastSent,
      limit: CATCH_UP_PAGE,
      maxChars: EVENTS_PAGE_MAX_CHARS,
      clip,
    });
    for (const event of page.items) out.send(event);
    await out.written();
    if (!page.more || stream.closed) break;
  }
}

/** Writes one session's lines in order, each event once by seq, and the final state after its end. */
class SessionLineWriter {
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly stream: NdjsonStream,
    private readonly current: () => Session,
    public lastSent: number,
  ) {}

  /** Settles once every line queued so far is written. */
  written(): Promise<void> {
    return this.writing;
  }

  line(text: string): void {
    this.writing = this.writing.then(() => this.stream.write(text));
  }

  send(event: StoredEvent): void {
    if (event.seq <= this.lastSent) return;
    this.lastSent = event.seq;
    this.line(`{"type":"event","event":${eventJson(event)}}`);
    if (isEndEvent(event)) this.finish();
  }

  /** The session's final state, then the end of the answer. */
  finish(): void {
    this.writing = this.writing.then(async () => {
      if (this.stream.closed) return;
      await this.stream.write(JSON.stringify({ type: 'session', session: this.current() }));
      this.stream.end();
    });
  }
}
