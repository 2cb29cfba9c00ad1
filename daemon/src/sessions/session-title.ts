import { TITLE_MAX, UNPRINTABLE } from '../../../contract/api.js';

const UNPRINTABLE_ALL = new RegExp(UNPRINTABLE.source, 'gu');

/**
 * A session's default title: its first prompt on one line (runs of white space and control
 * characters become one space), cut at a word near TITLE_MAX with an ellipsis. Null when nothing
 * printable remains.
 */
export function titleFromPrompt(prompt: string | undefined): string | null {
  if (!prompt) return null;
  const line = prompt
    .slice(0, TITLE_MAX * 8)
    .replace(UNPRINTABLE_ALL, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!line) return null;
  if (line.length <= TITLE_MAX) return line;
  const cut = line.slice(0, TITLE_MAX - 1);
  const space = cut.lastIndexOf(' ');
  return (space > TITLE_MAX / 2 ? cut.slice(0, space) : cut).trimEnd() + '…';
}
