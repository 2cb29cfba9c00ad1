// Shared by the first paint's script and the console's bundle (each holds its own copy of this
// module): the page's global object carries what they share.

import { paletteShortcut } from '../app/shared/palette-shortcut';

export const FIRST_PAINT_ID = 'first-paint';
export const FIRST_PAINT_COMPOSER_ID = 'first-paint-composer';
const DISMISSED = Symbol.for('relais.first-paint-dismissed');
const TAKERS = Symbol.for('relais.first-paint-draft-takers');
const SHORTCUT = Symbol.for('relais.first-paint-shortcut');

/** What the person typed in the first paint's composer, handed to the console's. */
export interface FirstPaintDraft {
  text: string;
  start: number;
  end: number;
  focused: boolean;
}

type Taker = (draft: FirstPaintDraft) => void;
const shared = globalThis as Record<symbol, unknown>;
const takers = (): Set<Taker> => (shared[TAKERS] ??= new Set<Taker>()) as Set<Taker>;

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
  if (draft) for (const take of takers()) take(draft);
  doc.getElementById(FIRST_PAINT_ID)?.remove();
}

/** What the first paint's composer holds: its text, or its focus; null when untouched. */
export function firstPaintDraft(doc: Document = document): FirstPaintDraft | null {
  const box = doc.getElementById(FIRST_PAINT_COMPOSER_ID);
  if (!(box instanceof HTMLTextAreaElement)) return null;
  const focused = doc.activeElement === box;
  if (!box.value && !focused) return null;
  return { text: box.value, start: box.selectionStart, end: box.selectionEnd, focused };
}

export function firstPaintDismissed(): boolean {
  return shared[DISMISSED] === true;
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
