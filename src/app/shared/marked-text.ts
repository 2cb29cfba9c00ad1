/**
 * A whole sentence with words set apart by an element (a link, bold words, code), written as one
 * message so a language may move them: `$localize`Answer it from the ${OPEN}:start_link:inbox${CLOSE}:close_link:.``.
 * Templates draw its parts, the marked ones inside the element. Control characters never occur in
 * the console's words, so they cannot collide with a translation's text.
 */
export const OPEN = '\u0002';
export const CLOSE = '\u0003';

export interface TextPart {
  text: string;
  marked: boolean;
}

/** A value set inside a marked sentence, without the marks it might carry (a tool's name is the agent's). */
export function unmarked(value: unknown): string {
  return String(value).replace(/[\u0002\u0003]/g, '');
}

/** The sentence cut at its marks, empty parts left out. */
export function markedParts(sentence: string): TextPart[] {
  const parts: TextPart[] = [];
  for (const piece of sentence.split(OPEN)) {
    const [inside, after] = piece.includes(CLOSE) ? piece.split(CLOSE, 2) : [undefined, piece];
    if (inside) parts.push({ text: inside, marked: true });
    if (after) parts.push({ text: after, marked: false });
  }
  return parts;
}
