import type { FastifyReply, FastifyRequest } from 'fastify';

export const NDJSON = 'application/x-ndjson';
const KEEPALIVE_MS = 15_000;

export interface NdjsonStream {
  /** Writes one line; resolves when the socket can take more (back-pressure). */
  write(line: string): Promise<void>;
  readonly closed: boolean;
  onClose(handler: () => void): void;
  /** Ends the answer once what was written is sent. */
  end(): void;
}

/**
 * Opens a long-lived NDJSON answer on a hijacked reply. Browsers read it with fetch (so the
 * Authorization header travels), which EventSource cannot do.
 */
export function openNdjsonStream(request: FastifyRequest, reply: FastifyReply): NdjsonStream {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': `${NDJSON}; charset=utf-8`,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'x-accel-buffering': 'no',
  });
  raw.flushHeaders();
  request.raw.socket.setNoDelay(true);
  let closed = false;
  const closeHandlers: (() => void)[] = [];
  const keepalive = setInterval(() => {
    void stream.write(JSON.stringify({ type: 'keepalive', at: new Date().toISOString() }));
  }, KEEPALIVE_MS);
  const close = (): void => {
    if (closed) return;
    closed = true;
    clearInterval(keepalive);
    for (const handler of closeHandlers) handler();
  };
  raw.on('close', close);
  raw.on('error', close);
  const stream: NdjsonStream = {
    write(line: string): Promise<void> {
      if (closed) return Promise.resolve();
      if (raw.write(`${line}\n`)) return Promise.resolve();
      return new Promise((resolve) => {
        const done = (): void => (raw.off('drain', done), raw.off('close', done), resolve());
        raw.once('drain', done);
        raw.once('close', done);
      });
    },
    get closed() {
      return closed;
    },
    onClose(handler) {
      closeHandlers.push(handler);
    },
    end() {
      if (closed) return;
      close();
      raw.end();
    },
  };
  return stream;
}
