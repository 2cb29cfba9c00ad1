/** The name of the page's find marks, styled as ::highlight(relais-find) (find-bar.scss). */
const MARKS = 'relais-find';
/** Marks drawn at most in one row. */
const MAX_MARKS = 100;

interface HighlightRegistry {
  set(name: string, highlight: unknown): void;
  delete(name: string): void;
}

/** The browser's highlight registry (CSS Custom Highlight API), where it has one. */
function registry(): HighlightRegistry | null {
  const css = (globalThis as { CSS?: { highlights?: HighlightRegistry } }).CSS;
  const Highlight = (globalThis as { Highlight?: unknown }).Highlight;
  return css?.highlights && typeof Highlight === 'function' ? css.highlights : null;
}

/**
 * Marks where `query` shows in the row's drawn text, without touching its elements: ranges in a
 * registered highlight, which the browser paints. Case-insensitive; a text whose lower case has
 * another length (rare scripts) is left unmarked, the row itself being shown anyway.
 */
export function markFound(row: HTMLElement, query: string): void {
  const highlights = registry();
  if (!highlights) return;
  const needle = query.toLowerCase();
  const ranges: Range[] = [];
  const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node && ranges.length < MAX_MARKS; node = walker.nextNode()) {
    const text = (node as Text).data;
    const lower = text.toLowerCase();
    if (lower.length !== text.length) continue;
    for (let at = lower.indexOf(needle); at >= 0 && ranges.length < MAX_MARKS;) {
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + needle.length);
      ranges.push(range);
      at = lower.indexOf(needle, at + needle.length);
    }
  }
  const Highlight = (globalThis as unknown as { Highlight: new (...ranges: Range[]) => unknown })
    .Highlight;
  highlights.set(MARKS, new Highlight(...ranges));
}

/** Takes the find marks off the page. */
export function clearFound(): void {
  registry()?.delete(MARKS);
}
