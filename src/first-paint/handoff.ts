// Shared by the first paint's script and the console's bundle (each holds its own copy of this
// module): the page's global object carries the one fact they share.

export const FIRST_PAINT_ID = 'first-paint';
const DISMISSED = Symbol.for('relais.first-paint-dismissed');

/**
 * Takes the first paint away for good: the console calls it once its own view of the page is on
 * screen (or the page turned out to be another), and a first paint that arrives later stays away.
 */
export function dismissFirstPaint(doc: Document = document): void {
  (globalThis as Record<symbol, unknown>)[DISMISSED] = true;
  doc.getElementById(FIRST_PAINT_ID)?.remove();
}

export function firstPaintDismissed(): boolean {
  return (globalThis as Record<symbol, unknown>)[DISMISSED] === true;
}
