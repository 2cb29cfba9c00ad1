// Shared by the first paint's script and the console's bundle (each holds its own copy of this
// module): the page's global object carries what they share.

export const FIRST_PAINT_ID = 'first-paint';
export const FIRST_PAINT_COMPOSER_ID = 'first-paint-composer';
const DISMISSED = Symbol.for('relais.first-paint-dismissed');
const TAKERS = Symbol.for('relais.first-paint-draft-takers');

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
  const box = doc.getElementById(FIRST_PAINT_COMPOSER_ID);
  if (box instanceof HTMLTextAreaElement && (box.value || doc.activeElement === box)) {
    const draft: FirstPaintDraft = {
      text: box.value,
      start: box.selectionStart,
      end: box.selectionEnd,
      focused: doc.activeElement === box,
    };
    for (const take of takers()) take(draft);
  }
  doc.getElementById(FIRST_PAINT_ID)?.remove();
}

export function firstPaintDismissed(): boolean {
  return shared[DISMISSED] === true;
}
