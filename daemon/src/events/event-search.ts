import {
  SEARCH_SNIPPET_MAX,
  type SearchHit,
  type SearchPage,
} from '../../../contract/api/search.js';
import type { EventStore } from './event-store.js';
import type { TextReader } from './search-text.js';
import { findFolded, fold } from './text-fold.js';

/**
 * What one answer may read before it stops and says so (`more`): a few thousand events or a few
 * megabytes of stored lines, whichever comes first, so a huge conversation is searched in steps
 * the daemon's event loop never waits long on.
 */
export const SCAN_EVENTS = 2_000;
export const SCAN_CHARS = 4_000_000;

export interface SearchRange {
  q: string;
  after?: number | undefined;
  before?: number | undefined;
  limit: number;
}

/** Text context kept before a hit in its snippet (UTF-16 units). */
const LEAD = 50;

/**
 * Finds the events whose visible text (as `read` gives it) holds `q`, from the cursor on in its
 * direction: forwards after `after`, else backwards before `before` (or from the newest).
 */
export function searchEvents(
  events: EventStore,
  sessionId: string,
  read: TextReader,
  range: SearchRange,
  budget = { events: SCAN_EVENTS, chars: SCAN_CHARS },
): SearchPage {
  const needle = fold(range.q);
  const forwards = range.after !== undefined;
  const page = events.readPage(sessionId, {
    after: range.after,
    before: range.before,
    limit: budget.events,
    fromEnd: !forwards,
    maxChars: budget.chars,
  });
  const ordered = forwards ? page.items : page.items.reverse();
  const items: SearchHit[] = [];
  let scanned = 0;
  let scannedTo: number | null = null;
  for (const event of ordered) {
    scanned++;
    scannedTo = event.seq;
    const hit = firstHit(read(event), needle);
    if (hit) items.push({ seq: event.seq, ...hit });
    if (items.length >= range.limit) break;
  }
  const stoppedEarly = scanned < ordered.length || (scanned === ordered.length && page.more);
  return { items, scanned_to: scannedTo, more: stoppedEarly, scanned };
}

function firstHit(texts: string[], needle: string): Omit<SearchHit, 'seq'> | null {
  for (const text of texts) {
    const at = findFolded(text, needle);
    if (at) return snippet(text, at.start, at.end);
  }
  return null;
}

/** At most SEARCH_SNIPPET_MAX units around the hit, its whitespace made spaces, offsets kept. */
function snippet(text: string, start: number, end: number): Omit<SearchHit, 'seq'> {
  let from = Math.max(0, start - LEAD);
  let to = Math.min(text.length, from + SEARCH_SNIPPET_MAX);
  if (to - from < SEARCH_SNIPPET_MAX) from = Math.max(0, to - SEARCH_SNIPPET_MAX);
  // Never half of a surrogate pair at either edge.
  if (from > 0 && isLowSurrogate(text.charCodeAt(from))) from++;
  if (to < text.length && isLowSurrogate(text.charCodeAt(to))) to--;
  const cut = text.slice(from, to).replace(/\s/g, ' ');
  return {
    snippet: cut,
    hit_start: Math.min(start - from, cut.length),
    hit_end: Math.min(end - from, cut.length),
  };
}

const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;
