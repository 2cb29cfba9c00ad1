import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { renderEvent } from './render-line.js';

/**
 * `relais-term [session-id]`: joins a running conversation from a shell. Lines you type are sent
 * (or queued); `/interrupt` interrupts the turn; `/quit` or Ctrl-D leaves without stopping the
 * session. Without an id, lists the open sessions. Finds the daemon through $RELAIS_HOME.
 */
const home = resolve(process.env['RELAIS_HOME'] || join(homedir(), '.relais'));
const key = readFileSync(join(home, 'api-key'), 'utf8').trim();
const base = (JSON.parse(readFileSync(join(home, 'daemon.json'), 'utf8')) as { base_url: string })
  .base_url;
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

async function api(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const parsed = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
  if (!response.ok)
    throw new Error(
      `${String(parsed['error_code'] ?? response.status)}: ${String(parsed['message'] ?? '')}`,
    );
  return parsed;
}

async function listSessions(): Promise<void> {
  const { items } = (await api('GET', '/api/sessions?limit=50')) as {
    items: Record<string, unknown>[];
  };
  const open = items.filter((s) => s['state'] !== 'ended');
  if (open.length === 0) process.stdout.write('No open session.\n');
  for (const s of open)
    process.stdout.write(
      `${String(s['id'])}  ${String(s['state'])}  ${String(s['app'])}  ${String(s['cwd'])}\n`,
    );
}

async function follow(sessionId: string, signal: AbortSignal): Promise<void> {
  const session = await api('GET', `/api/sessions/${sessionId}`);
  const after = Math.max(0, Number(session['last_seq']) - 20);
  const response = await fetch(`${base}/api/sessions/${sessionId}/stream?after=${after}`, {
    headers,
    signal,
  });
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = JSON.parse(buffer.slice(0, newline)) as {
        type: string;
        event?: { source: string; data: Record<string, unknown> };
      };
      buffer = buffer.slice(newline + 1);
      if (line.type !== 'event' || !line.event) continue;
      const text = renderEvent(line.event.source, line.event.data);
      if (text) process.stdout.write(`${text}\n`);
    }
  }
}

async function join_(sessionId: string): Promise<void> {
  const leaving = new AbortController();
  const following = follow(sessionId, leaving.signal).catch((error: unknown) => {
    if (!leaving.signal.aborted) process.stderr.write(`stream closed: ${String(error)}\n`);
  });
  process.stdout.write(`Joined ${sessionId}. Type to send; /interrupt, /queue, /quit.\n`);
  const input = createInterface({ input: process.stdin });
  for await (const raw of input) {
    const line = raw.trim();
    if (!line) continue;
    try {
      if (line === '/quit') break;
      if (line === '/interrupt') await api('POST', `/api/sessions/${sessionId}/interrupt`);
      else if (line === '/queue') {
        const { items } = (await api('GET', `/api/sessions/${sessionId}/queue`)) as {
          items: { text: string }[];
        };
        process.stdout.write(
          items.length
            ? items.map((e, i) => `${i + 1}. ${e.text}`).join('\n') + '\n'
            : '(queue empty)\n',
        );
      } else {
        const sent = await api('POST', `/api/sessions/${sessionId}/messages`, { text: line });
        if (sent['delivery'] === 'queued')
          process.stdout.write('(will be sent when the agent is free)\n');
      }
    } catch (error: unknown) {
      process.stdout.write(`! ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }
  leaving.abort();
  await following;
  process.stdout.write('Left the conversation; the session goes on.\n');
}

const sessionId = process.argv[2];
(sessionId ? join_(sessionId) : listSessions()).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `relais-term: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  },
);
