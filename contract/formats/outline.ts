import type { DecodedItem, Json } from './decoded.js';

/** What one line adds to a conversation's outline (its steering index). */
export interface OutlineMark {
  /** A person's prompt: a new turn, with its text. */
  turn?: string;
  /** Tool calls the agent made (a sub-agent's too). */
  tools?: { id: string; name: string; input: Json }[];
  /** The line is the session's context (model, cwd, tools). */
  init?: boolean;
}

/**
 * The outline's reading of a line's items, the same on the daemon (which keeps the outline) and
 * in the console (which extends it with live events): a prompt that starts a turn (a steer joins
 * the running one), the tool calls (a call without an id gets its line's seq), the context line.
 */
export function outlineMark(items: readonly DecodedItem[], seq: number): OutlineMark | null {
  const mark: OutlineMark = {};
  for (const item of items) {
    if (item.kind === 'user' && !item.steer) mark.turn ??= item.text;
    else if (item.kind === 'init') mark.init = true;
    else if (item.kind === 'tool_call')
      (mark.tools ??= []).push({ id: item.id ?? String(seq), name: item.name, input: item.input });
  }
  return mark.turn !== undefined || mark.tools || mark.init ? mark : null;
}
