// Shared by the first paint's script and the console's bundle (each holds its own copy of this
// module): the page's global object carries what they share.

import { paletteShortcut } from '../app/shared/palette-shortcut';
import { TYPING_PAUSE } from './typing-pause-name';

export const FIRST_PAINT_ID = 'first-paint';
export const FIRST_PAINT_COMPOSER_ID = 'first-paint-composer';
const DISMISSED = Symbol.for('relais.first-paint-dismissed');
const TAKERS = Symbol.for('relais.first-paint-draft-takers');
const SHORTCUT = Symbol.for('relais.first-paint-shortcut');
const SENDS = Symbol.for('relais.first-paint-sends');
const LAST_KEY = Symbol.for('relais.first-paint-last-key');
const TYPING = Symbol.for('relais.first-paint-typing');

/** How a message sent from the first paint's composer ended: the daemon's answer, or its error. */
export type EarlySendOutcome =
  { ok: true; delivery: string } | { ok: false; status: number; code: string; message: string };

/**
 * A message the first paint's composer sent (Enter), in the order typed. Whoever is on screen when
 * its answer comes shows it: the first paint, or once it has gone, the console's composer, which
 * then takes the send over (`handedOver`) so that a refused text comes back exactly once.
 */
export interface EarlySend {
  text: string;
  outcome: Promise<EarlySendOutcome>;
  handedOver?: boolean;
  handled?: boolean;
}

/** What the person typed in the first paint's composer, handed to the console's. */
export interface FirstPaintDraft {
  text: string;
  start: number;
  end: number;
  focused: boolean;
  /** Messages sent from the first paint whose answer it had not shown yet, oldest first. */
  sent: readonly EarlySend[];
}

type Taker = (draft: FirstPaintDraft) => void;
const shared = globalThis as Record<symbol, unknown>;
const takers = (): Set<Taker> => (shared[TAKERS] ??= new Set<Taker>()) as Set<Taker>;
const sends = (): EarlySend[] => (shared[SENDS] ??= []) as EarlySend[];

/** The first paint's composer sent this message: the console's must not send it again. */
export function recordEarlySend(send: EarlySend): void {
  sends().push(send);
}

/** The console's composer asks for the draft the first paint holds, given when it goes. */
export function onFirstPaintDraft(take: Taker): () => void {
  takers().add(take);
  return () => takers().delete(take);
}

/**
 * Takes the first paint away for good: the console calls it once its own view of the page is on
 * screen (or the page turned out to be another), and a first paint that arrives later stays away.
 * What was typed in its composer, and whether it had the focus, goes to the console's composer.
 */
export function dismissFirstPaint(doc: Document = document): void {
  shared[DISMISSED] = true;
  const draft = firstPaintDraft(doc);
  doc.getElementById(FIRST_PAINT_ID)?.remove();
  shared[SENDS] = [];
  if (!draft) return;
  // From now on the console shows what becomes of the sends still on their way.
  for (const send of draft.sent) send.handedOver = true;
  for (const take of takers()) take(draft);
}

/**
 * What the first paint's composer holds: its text, its focus, the sends whose answer it has not
 * shown; null when untouched.
 */
export function firstPaintDraft(doc: Document = document): FirstPaintDraft | null {
  const box = doc.getElementById(FIRST_PAINT_COMPOSER_ID);
  if (!(box instanceof HTMLTextAreaElement)) return null;
  const focused = doc.activeElement === box;
  const sent = sends().filter((send) => !send.handled);
  if (!box.value && !focused && !sent.length) return null;
  return { text: box.value, start: box.selectionStart, end: box.selectionEnd, focused, sent };
}

export function firstPaintDismissed(): boolean {
  return shared[DISMISSED] === true;
}

/** The first paint is over the page: what the console renders under it is not seen yet. */
export function firstPaintShown(doc: Document = document): boolean {
  return !firstPaintDismissed() && doc.getElementById(FIRST_PAINT_ID) !== null;
}

/** The console's shortcuts a person may press while the first paint is all there is. */
export type FirstPaintShortcut = NonNullable<ReturnType<typeof paletteShortcut>>;

/**
 * Keeps the console's shortcuts pressed before it has started (paletteShortcut: Ctrl+K or ⌘K, `?`
 * outside a text box) for it to act on once it has: the page has no other listener then, and
 * Ctrl+K would go to the browser's own search.
 */
export function holdShortcuts(doc: Document = document): void {
  doc.addEventListener('keydown', (event) => {
    if (shared[SHORTCUT] === 'taken') return;
    const pressed = paletteShortcut(event);
    if (!pressed) return;
    event.preventDefault();
    shared[SHORTCUT] = pressed;
  });
}

/** The shortcut pressed before the console started, once; from then on the console has its own. */
export function takeFirstPaintShortcut(): FirstPaintShortcut | null {
  const pressed = shared[SHORTCUT];
  shared[SHORTCUT] = 'taken';
  return pressed === 'commands' || pressed === 'help' ? pressed : null;
}

/** A prompt the first paint shows: since when it has been in view unbroken, whether it answered it. */
interface EarlyPrompt {
  inViewSince: number | null;
  answered: boolean;
}
const PROMPTS = Symbol.for('relais.first-paint-prompts');
const prompts = (): Map<string, EarlyPrompt> =>
  (shared[PROMPTS] ??= new Map<string, EarlyPrompt>()) as Map<string, EarlyPrompt>;

function earlyPrompt(id: string): EarlyPrompt {
  let prompt = prompts().get(id);
  if (!prompt) prompts().set(id, (prompt = { inViewSince: null, answered: false }));
  return prompt;
}

/** The first paint's card of this prompt came into view at `since` (performance.now()), or left it. */
export function notePromptInView(id: string, since: number | null): void {
  earlyPrompt(id).inViewSince = since;
}

/**
 * The first paint answered this prompt (its answer on the way): the console does not ask it again;
 * `false` when the answer failed and the prompt still waits.
 */
export function notePromptAnswered(id: string, answered = true): void {
  earlyPrompt(id).answered = answered;
  for (const listener of answerListeners()) listener();
}

const ANSWER_LISTENERS = Symbol.for('relais.first-paint-answer-listeners');
const answerListeners = (): Set<() => void> =>
  (shared[ANSWER_LISTENERS] ??= new Set<() => void>()) as Set<() => void>;

/**
 * Called whenever the first paint notes an answer, or takes one back because it failed: the
 * console's list of prompts is read again then, so a failed early answer never leaves a prompt
 * hidden until the live stream happens to change. Returns the way to stop listening.
 */
export function onEarlyAnswerChange(listener: () => void): () => void {
  answerListeners().add(listener);
  return () => answerListeners().delete(listener);
}

/**
 * Since when the first paint has shown this prompt in view, unbroken (null when it has not): the
 * console's card counts its arming delay from there, not from its own later render.
 */
export function earlyPromptInViewSince(id: string): number | null {
  return prompts().get(id)?.inViewSince ?? null;
}

export function promptAnsweredEarly(id: string): boolean {
  return prompts().get(id)?.answered === true;
}

/** The first paint's composer took a key or the focus (at `at`, the page's clock). */
export function noteFirstPaintKey(at = performance.now()): void {
  shared[LAST_KEY] = at;
}

/** The person typed in the first paint's composer: text its Enter may send any moment. */
export function noteFirstPaintInput(): void {
  shared[TYPING] = true;
}

/**
 * The first paint's composer sent what it held: nobody is typing there now, and the console's
 * start goes on at once. A text put back after a refusal is not being typed either.
 */
export function noteFirstPaintSent(): void {
  shared[TYPING] = false;
  delete shared[LAST_KEY];
}

/** Text typed in the first paint's composer and not sent yet: its Enter may come any moment. */
function unsentText(doc: Document): boolean {
  const box = doc.getElementById(FIRST_PAINT_COMPOSER_ID);
  return shared[TYPING] === true && box instanceof HTMLTextAreaElement && box.value.trim() !== '';
}

/** How often a wait on a text typed and not sent looks again for its send. */
const HELD_POLL_MS = 50;

/**
 * Resolves once the person has typed nothing in the first paint's composer for `pauseMs` (at once
 * when they are not typing) and it holds no text waiting for its Enter, or `maxMs` after the call
 * at most; at once after a send. Angular's start waits so (main.ts): its tasks are of 30–80 ms on a loaded machine, and
 * a key or the Enter that sends waited for them (a key, then the Enter 400 ms later behind a task
 * of 119 ms, measured at load 6).
 */
export function firstPaintTypingPause(
  pauseMs = 200,
  maxMs = 2000,
  now: () => number = () => performance.now(),
  doc: Document = document,
): Promise<void> {
  const started = now();
  return new Promise((resolve) => {
    const check = () => {
      const last = shared[LAST_KEY];
      const quietFor = typeof last === 'number' ? now() - last : Infinity;
      const left = maxMs - (now() - started);
      if ((quietFor >= pauseMs && !unsentText(doc)) || left <= 0) resolve();
      // Quiet but holding text: looked at again soon, for the send that ends the wait.
      else
        setTimeout(check, Math.min(quietFor < pauseMs ? pauseMs - quietFor : HELD_POLL_MS, left));
    };
    check();
  });
}

/** Leaves firstPaintTypingPause where the console's start finds it (typing-pause-name.ts). */
export function publishTypingPause(): void {
  shared[Symbol.for(TYPING_PAUSE)] = () => firstPaintTypingPause();
}
