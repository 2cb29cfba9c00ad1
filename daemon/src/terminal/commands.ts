import { resolve } from 'node:path';
import type { Session, Subscription } from '../../../contract/api.js';
import { printable } from '../../../contract/terminal-lines.js';
import { ApiError, CliError, type DaemonClient } from './daemon-client.js';

type Out = (text: string) => void;

/** `relais sessions [--all]`: the sessions, open ones unless --all. */
export async function listSessions(client: DaemonClient, all: boolean, out: Out): Promise<void> {
  const { items } = await client.call<{ items: Session[] }>('GET', '/api/sessions?limit=100');
  const shown = all ? items : items.filter((s) => s.state !== 'ended');
  if (shown.length === 0) {
    out(all ? 'No session.\n' : 'No open session (relais sessions --all lists ended ones).\n');
    return;
  }
  const rows = shown.map((s) => [
    s.id,
    s.state,
    `${s.agent}/${s.model}`,
    s.cwd,
    s.title ?? '(untitled)',
  ]);
  const widths = [0, 1, 2, 3].map((c) => Math.max(...rows.map((r) => r[c]!.length)));
  for (const row of rows)
    out(
      printable(row.map((cell, c) => (c < 4 ? cell.padEnd(widths[c]!) : cell)).join('  ')) + '\n',
    );
}

export interface LaunchOptions {
  subscription?: string;
  model?: string;
  cwd?: string;
  effort?: string;
  mode?: string;
  ttl?: string;
  prompt?: string;
}

/**
 * `relais launch`: a session on a subscription (default the demo), with its first detected model
 * unless one is named, in the current folder unless another is named.
 */
export async function launch(client: DaemonClient, options: LaunchOptions): Promise<Session> {
  const subscriptionId = options.subscription ?? 'demo';
  const model = options.model ?? (await defaultModel(client, subscriptionId));
  const ttl = options.ttl === undefined ? undefined : Number(options.ttl);
  if (ttl !== undefined && !Number.isInteger(ttl))
    throw new CliError(`--ttl takes whole seconds, not ${JSON.stringify(options.ttl)}.`, 2);
  return client.call<Session>('POST', '/api/sessions', {
    subscription_id: subscriptionId,
    model,
    cwd: resolve(options.cwd ?? process.cwd()),
    ...(options.effort ? { effort: options.effort } : {}),
    ...(options.mode ? { permission_mode: options.mode } : {}),
    ...(ttl !== undefined ? { ttl_seconds: ttl } : {}),
    ...(options.prompt ? { prompt: options.prompt } : {}),
  });
}

async function defaultModel(client: DaemonClient, subscriptionId: string): Promise<string> {
  let subscription: Subscription;
  try {
    subscription = await client.call<Subscription>(
      'GET',
      `/api/subscriptions/${encodeURIComponent(subscriptionId)}`,
    );
  } catch (error: unknown) {
    if (error instanceof ApiError && error.status === 404)
      throw new CliError(
        `No subscription ${JSON.stringify(subscriptionId)} (the console's Subscriptions page lists them).`,
      );
    throw error;
  }
  if (subscription.models.length === 0)
    subscription = await client.call<Subscription>(
      'POST',
      `/api/subscriptions/${encodeURIComponent(subscriptionId)}/detect`,
    );
  const first = subscription.models[0]?.value;
  if (first) return first;
  throw new CliError(
    `Detection found no model for the subscription ${subscription.name}` +
      `${subscription.detect_error ? ` (${subscription.detect_error})` : ''}: name one with --model.`,
    2,
  );
}
