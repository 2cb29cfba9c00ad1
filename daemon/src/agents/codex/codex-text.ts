import { decoderFor } from '../../../../contract/formats/index.js';
import type { StoredEvent } from '../../events/event-store.js';
import { itemTexts } from '../../events/search-text.js';
import { parsedLine } from '../../events/stored-event.js';

const decode = decoderFor('codex');

/** Streamed pieces of a reply: its completed item holds the whole text, read there once. */
const DELTA = /^\{\s*"method"\s*:\s*"item\/[a-zA-Z]+\/delta"/;

/**
 * The texts a person reads of one of Codex's lines (the app server's messages or an imported
 * rollout's), read by its decoder: prompts, replies, reasoning, commands and their output, errors.
 */
export function codexText(event: StoredEvent): string[] {
  if (event.source !== 'agent' && event.source !== 'host') return [];
  if (DELTA.test(event.data)) return [];
  return itemTexts(decode(parsedLine(event.data), event.source));
}
