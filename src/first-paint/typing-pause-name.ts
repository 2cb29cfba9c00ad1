/**
 * Where the first paint leaves its wait for a pause in typing (handoff.ts, firstPaintTypingPause)
 * on the page's global object, for the console's start (main.ts): a name alone, so that the
 * console's first bundle does not carry the first paint's code.
 */
export const TYPING_PAUSE = 'relais.typing-pause';
