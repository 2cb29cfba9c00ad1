import type { ApiKey, ApiKeyCreated } from '../../../contract/keys.js';
import { printable } from '../../../contract/terminal-lines.js';
import { CliError, type DaemonClient } from './daemon-client.js';

type Out = (text: string) => void;

export interface CreateKeyOptions {
  name: string;
  scopes: string[];
  subscriptions: string[];
  /** `30d`, `12h`, or an ISO time; undefined: never. */
  expires?: string;
}

const DURATION = /^(\d{1,5})([dh])$/;

/** `--expires 30d`, `12h` or an ISO time, as the API's `expires_at`. */
export function expiryOf(text: string | undefined, now = Date.now()): string | null {
  if (text === undefined || text === 'never') return null;
  const duration = DURATION.exec(text);
  if (duration) {
    const unit = duration[2] === 'd' ? 86_400_000 : 3_600_000;
    return new Date(now + Number(duration[1]) * unit).toISOString();
  }
  if (!Number.isNaN(Date.parse(text)) && /^\d{4}-\d\d-\d\d/.test(text))
    return new Date(Date.parse(text)).toISOString();
  throw new CliError(
    `--expires takes 30d, 12h, never or an ISO time, not ${JSON.stringify(text)}.`,
    2,
  );
}

/**
 * `relais keys create`: the secret alone on stdout (so that a script can keep it), what it may do
 * on stderr.
 */
export async function createKey(
  client: DaemonClient,
  options: CreateKeyOptions,
  out: Out,
  err: Out,
): Promise<void> {
  const scopes = options.scopes.flatMap((s) => s.split(',')).filter(Boolean);
  const created = await client.call<ApiKeyCreated>('POST', '/api/keys', {
    name: options.name,
    scopes,
    subscriptions: options.subscriptions.flatMap((s) => s.split(',')).filter(Boolean),
    expires_at: expiryOf(options.expires),
  });
  out(`${created.secret}\n`);
  err(
    printable(
      `Key ${created.id} "${created.name}": ${created.scopes.join(' ') || 'no scope'}` +
        `${created.subscriptions.length ? ` on ${created.subscriptions.join(', ')}` : ''}` +
        `, ${created.expires_at ? `expires ${created.expires_at}` : 'never expires'}.`,
    ) + '\nShown this once: Relais keeps only its hash.\n',
  );
}

/** `relais keys list`: one line a key, newest first. */
export async function listKeys(client: DaemonClient, out: Out): Promise<void> {
  const { items } = await client.call<{ items: ApiKey[] }>('GET', '/api/keys');
  if (items.length === 0) {
    out('No caller key (relais keys create <name> --scope read makes one).\n');
    return;
  }
  const now = Date.now();
  const rows = items.map((k) => [
    k.id,
    k.name,
    statusOf(k, now),
    k.scopes.join(',') || '-',
    k.expires_at ? `expires ${k.expires_at}` : 'no expiry',
    k.last_used_at ? `used ${k.last_used_at} from ${k.last_used_from ?? '?'}` : 'never used',
  ]);
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  for (const row of rows)
    out(
      printable(
        row
          .map((cell, c) => cell.padEnd(widths[c]!))
          .join('  ')
          .trimEnd(),
      ) + '\n',
    );
}

/** `relais keys revoke <id or name>`: a name must name one key still in use. */
export async function revokeKey(client: DaemonClient, which: string, out: Out): Promise<void> {
  const { items } = await client.call<{ items: ApiKey[] }>('GET', '/api/keys');
  const byId = items.find((k) => k.id === which);
  const byName = items.filter((k) => k.name === which && k.revoked_at === null);
  const key = byId ?? (byName.length === 1 ? byName[0] : undefined);
  if (!key) throw new CliError(`No key in use is called or numbered ${JSON.stringify(which)}.`);
  const revoked = await client.call<ApiKey>('DELETE', `/api/keys/${encodeURIComponent(key.id)}`);
  out(printable(`Revoked ${revoked.id} "${revoked.name}" at ${revoked.revoked_at}.`) + '\n');
}

function statusOf(key: ApiKey, now: number): string {
  if (key.revoked_at) return 'revoked';
  if (key.expires_at && Date.parse(key.expires_at) <= now) return 'expired';
  return 'active';
}
