import { decoderFor } from '../../../../contract/formats/index.js';
import type { StoredEvent } from '../../events/event-store.js';
import { itemTexts } from '../../events/search-text.js';
import { parsedLine } from '../../events/stored-event.js';

const decode = decoderFor('claude');

/**
 * The texts a person reads of one of Claude Code's lines (stream-json or an imported
 * transcript's), read by its decoder: prompts, replies, thinking, tool calls and results, failures.
 * Relais' own lines are told in the console's words, not stored ones: they hold none.
 */
export function claudeText(event: StoredEvent): string[] {
  if (event.source !== 'agent' && event.source !== 'host') return [];
  return itemTexts(decode(parsedLine(event.data), event.source));
}
