/** The colour family of a small label, by the word it shows (decision, rule action, storage form, subscription status). */
export type ChipTone = 'error' | 'tertiary' | 'primary' | 'secondary' | 'neutral';

const TONES: Record<string, ChipTone> = {
  deny: 'error',
  ask: 'tertiary',
  allow: 'primary',
  saved: 'secondary',
  hot: 'primary',
  compressed: 'secondary',
  active: 'primary',
  suspended: 'error',
};

/** The classes of a `.chip` showing `word`: one look for the same word on every page. */
export function chipClasses(word: string): string {
  return `chip tone-${TONES[word] ?? 'neutral'}`;
}
