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
 * registered highlight, which the browser paints. Case and accents count no more than at the
 * daemon (events/text-fold.ts), folded a unit at a time so that offsets stay the text's own; a
 * unit whose fold is not one unit (rare scripts) is only lower-cased, the row itself being shown
 * anyway.
 */
export function markFound(row: HTMLElement, query: string): void {
  const highlights = registry();
  if (!highlights) return;
  const needle = [...query.normalize('NFC')].map(foldUnit).join('');
  if (!needle) return;
  const ranges: Range[] = [];
  const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node && ranges.length < MAX_MARKS; node = walker.nextNode()) {
    const text = (node as Text).data;
    const folded = foldUnits(text);
    for (let at = folded.indexOf(needle); at >= 0 && ranges.length < MAX_MARKS;) {
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + needle.length);
      ranges.push(range);
      at = folded.indexOf(needle, at + needle.length);
    }
  }
  const Highlight = (globalThis as unknown as { Highlight: new (...ranges: Range[]) => unknown })
    .Highlight;
  highlights.set(MARKS, new Highlight(...ranges));
}

const ACCENTS = /[\u0300-\u036f]/g;

/** A character without its accents, lower-cased; a lone accent folds to nothing. */
function foldUnit(char: string): string {
  return char.normalize('NFD').replace(ACCENTS, '').toLowerCase();
}

/** `text` folded unit for unit: the same length, so an offset in it is one in `text`. */
function foldUnits(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const unit = text[i]!;
    const folded = foldUnit(unit);
    out +=
      folded.length === 1 ? folded : unit.toLowerCase().length === 1 ? unit.toLowerCase() : unit;
  }
  return out;
}

/** Takes the find marks off the page. */
export function clearFound(): void {
  registry()?.delete(MARKS);
}
