import type { StoredEvent } from './stored-event.js';

/**
 * The event with every text of its line longer than `max` characters cut to `max`, and marked
 * clipped; the event itself when no text is that long. A line no longer than `max` cannot hold
 * such a text, so most lines are never parsed.
 */
export function clipEvent(event: StoredEvent, max: number | undefined): StoredEvent {
  if (max === undefined || event.data.length <= max) return event;
  let cut = false;
  try {
    const value: unknown = JSON.parse(event.data, (_key, text: unknown) => {
      if (typeof text !== 'string' || text.length <= max) return text;
      cut = true;
      return clipText(text, max);
    });
    return cut ? { ...event, data: JSON.stringify(value), clipped: true } : event;
  } catch {
    // Stored lines are JSON, but one nested past the stack's depth cannot be walked: it passes
    // on as it is (the page's weight still bounds the rest).
    return event;
  }
}

/** The first `max` characters, never ending on half of a surrogate pair. */
function clipText(text: string, max: number): string {
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}
