import type { DecodedItem } from '../../../contract/formats/index.js';
import type { StoredEvent } from './stored-event.js';

/**
 * The texts of one stored event a person sees in its rows, as its agent reads it: prompts, the
 * agent's text and thinking, a tool's name, the values of its input, its output, the agent's
 * notices. Never the line's JSON: its keys, escapes and ids are not what anyone reads.
 */
export type TextReader = (event: StoredEvent) => string[];

/** The texts of a line's decoded items (see TextReader). */
export function itemTexts(items: readonly DecodedItem[]): string[] {
  const texts: string[] = [];
  for (const item of items) {
    switch (item.kind) {
      case 'user':
      case 'text':
      case 'thinking':
        if (item.text) texts.push(item.text);
        break;
      case 'tool_call':
        texts.push(item.name);
        inputValues(item.input, texts, 0);
        break;
      case 'tool_result':
        // Only the output: a result that repeats its call (Codex) would otherwise match twice.
        if (item.output) texts.push(item.output);
        break;
      case 'turn_end':
        // A finished turn's text repeats the last reply; the row shows a failure's only.
        if (item.outcome === 'failed' && item.text) texts.push(item.text);
        break;
      case 'error':
        if (item.text) texts.push(item.text);
        break;
      default:
        break;
    }
  }
  return texts;
}

const INPUT_DEPTH = 8;

/** The strings and numbers of a call's input, without its keys, as a person reads them. */
function inputValues(value: unknown, into: string[], depth: number): void {
  if (typeof value === 'string') {
    if (value) into.push(value);
  } else if (typeof value === 'number' || typeof value === 'boolean') {
    into.push(String(value));
  } else if (value !== null && typeof value === 'object' && depth < INPUT_DEPTH) {
    for (const inner of Object.values(value)) inputValues(inner, into, depth + 1);
  }
}
