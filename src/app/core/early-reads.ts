import { CONSOLE_APP } from './console-app';

/** How many recent sessions the shell loads (and reads early, before Angular boots). */
export const RECENT_SESSIONS = 200;

/** Events asked for at once when a conversation opens, and per page when scrolling up. */
export const PAGE = 120;

/**
 * Texts of an event longer than this come cut from the daemon (a file read weighs more than a
 * hundred messages); the row that shows one offers to read its event whole. Longer than any
 * preview a row shows before its "Show" button.
 */
export const EVENT_CLIP = 8000;

/** The first read of a conversation, as its early read (before Angular boots) spells it too. */
export const FIRST_PAGE = { limit: PAGE, clip: EVENT_CLIP } as const;

/**
 * A conversation's address: a session id as the daemon writes them, a prefix and an underscore
 * (nothing to escape; `/sessions/new` is the launch page).
 */
const CONVERSATION = /^\/sessions\/([a-z]+_[A-Za-z0-9_-]{1,120})\/?$/;
/** Past this, an early answer is too old to stand for a first read. */
const FRESH_MS = 15_000;

/** What the shell reads on every page: the recent sessions (LiveStore, through SessionsApi.list). */
export const SHELL_READS = [`/api/sessions?limit=${RECENT_SESSIONS}`];

/** The session a conversation's address opens, or null for any other page. */
export function conversationIdOf(path: string): string | null {
  return CONVERSATION.exec(path)?.[1] ?? null;
}

/** A session, as the conversation's store asks for it. */
export function sessionUrl(id: string): string {
  return `/api/sessions/${id}`;
}

/** A conversation's first page of events, as the conversation's store asks for it. */
export function firstEventsUrl(id: string): string {
  return `/api/sessions/${id}/events?limit=${FIRST_PAGE.limit}&clip=${FIRST_PAGE.clip}`;
}

/** What a conversation's page reads first: its session and its last events. */
export function conversationReads(id: string): string[] {
  return [sessionUrl(id), firstEventsUrl(id)];
}

/** The API reads the page at `path` makes first, as the API services spell their URLs. */
export function earlyReadsFor(path: string): string[] {
  const id = conversationIdOf(path);
  return id ? [...conversationReads(id), ...SHELL_READS] : SHELL_READS;
}

interface EarlyRead {
  startedAt: number;
  /** The parsed body of a 2xx answer; undefined when the read failed (the service reads again). */
  body: Promise<unknown>;
  /** Set once the body has arrived: a page created after that can show it in its first render. */
  arrived?: { body: unknown };
}

/**
 * Kept on the page's global object: the first paint's script (src/first-paint) starts the reads
 * before Angular's scripts have even arrived, and the console's bundle, which holds its own copy of
 * this module, takes them from there.
 */
const SHARED = Symbol.for('relais.early-reads');
const reads: Map<string, EarlyRead> = ((globalThis as Record<symbol, unknown>)[SHARED] ??= new Map<
  string,
  EarlyRead
>()) as Map<string, EarlyRead>;

/**
 * Starts the first reads of the page being opened, before Angular has booted: opening a
 * conversation by its address then waits for its session and last events while the shell
 * renders, not after. Anything short of a 2xx JSON answer is dropped, and the service asks again
 * through its usual path (a 401 then reaches the key page as always).
 */
export function startEarlyReads(
  path: string,
  key: string | null,
  get: typeof fetch = (input, init) => fetch(input, init),
  now: () => number = Date.now,
): void {
  startReads(earlyReadsFor(path), key, get, now);
}

/**
 * Starts reads of `urls` as early reads; one already started and not yet taken (the first paint
 * started it) is not asked twice.
 */
export function startReads(
  urls: readonly string[],
  key: string | null,
  get: typeof fetch = (input, init) => fetch(input, init),
  now: () => number = Date.now,
): void {
  if (!key) return;
  for (const url of urls) {
    const started = reads.get(url);
    if (started && now() - started.startedAt <= FRESH_MS) continue;
    const body = get(url, {
      headers: { Authorization: `Bearer ${key}`, 'X-Relais-App': CONSOLE_APP },
    })
      .then((response) => (response.ok ? (response.json() as Promise<unknown>) : undefined))
      .catch(() => undefined);
    const read: EarlyRead = { startedAt: now(), body };
    void body.then((arrived) => (read.arrived = { body: arrived }));
    reads.set(url, read);
  }
}

/** The early answer for `url`, once: null when there is none (or it is too old). */
export function takeEarlyRead(url: string, now: () => number = Date.now): Promise<unknown> | null {
  const read = reads.get(url);
  if (!read) return null;
  reads.delete(url);
  return now() - read.startedAt <= FRESH_MS ? read.body : null;
}

/** The early answer for `url` without taking it (the first paint reads what Angular will show). */
export function peekEarlyRead(url: string): Promise<unknown> | null {
  return reads.get(url)?.body ?? null;
}

/**
 * The early answer for `url` when it has already arrived (and is fresh), else undefined; it is
 * handed over only when `accept` takes it, and stays for takeEarlyRead otherwise.
 */
export function takeArrivedEarlyRead<T>(
  url: string,
  accept: (body: unknown) => T | undefined,
  now: () => number = Date.now,
): T | undefined {
  const read = reads.get(url);
  if (!read?.arrived || now() - read.startedAt > FRESH_MS) return undefined;
  const taken = accept(read.arrived.body);
  if (taken !== undefined) reads.delete(url);
  return taken;
}

/** Forgets every early read (tests). */
export function clearEarlyReads(): void {
  reads.clear();
}
