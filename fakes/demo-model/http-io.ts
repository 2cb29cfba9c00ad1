import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

const MAX_BODY_BYTES = 64 * 1024 * 1024;

export class BodyError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new BodyError(413, 'Request body too large.');
    chunks.push(buffer);
  }
  const raw = decode(Buffer.concat(chunks), req.headers['content-encoding']);
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch (error: unknown) {
    throw new BodyError(400, `Body is not JSON: ${describe(error)}`);
  }
}

function decode(body: Buffer, encoding: string | undefined): Buffer {
  try {
    return decompress(body, encoding);
  } catch (error: unknown) {
    if (error instanceof BodyError) throw error;
    throw new BodyError(400, `Body could not be decoded: ${describe(error)}`);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function decompress(body: Buffer, encoding: string | undefined): Buffer {
  switch ((encoding ?? 'identity').toLowerCase()) {
    case 'identity':
      return body;
    case 'gzip':
      return gunzipSync(body);
    case 'deflate':
      return inflateSync(body);
    case 'br':
      return brotliDecompressSync(body);
    default:
      throw new BodyError(415, `Unsupported content-encoding ${encoding ?? ''}.`);
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** Anthropic error shape: `{"type":"error","error":{"type":…,"message":…}}`. */
export function sendApiError(
  res: ServerResponse,
  status: number,
  errorType: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, { type: 'error', error: { type: errorType, message } }, headers);
}
