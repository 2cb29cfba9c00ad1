import { RE2JS } from 're2js';

/**
 * Bash rule patterns run on RE2 (re2js): matching time is linear in the command whatever the pattern,
 * so no rule, default or user-written, can stall the daemon on a crafted command. The price is
 * RE2's syntax: no lookaround, no backreferences; such a pattern is refused when the rules are saved.
 */
export interface RulePattern {
  test(text: string): boolean;
}

export class RulePatternError extends Error {}

const FLAG_BITS: Readonly<Record<string, number>> = {
  i: RE2JS.CASE_INSENSITIVE,
  m: RE2JS.MULTILINE,
  s: RE2JS.DOTALL,
  // RE2 always reads the text as Unicode code points.
  u: 0,
};

/** An unescaped \1…\9 or \k<…>. */
const BACKREFERENCE = /(?<!\\)(?:\\\\)*\\(?:[1-9]|k<)/;

/** Compiles a rule's pattern, or throws RulePatternError saying what RE2 cannot take. */
export function compileRulePattern(pattern: string, flags = ''): RulePattern {
  let bits = 0;
  for (const flag of flags) {
    const bit = FLAG_BITS[flag];
    if (bit === undefined) throw new RulePatternError(`unknown flag "${flag}"`);
    bits |= bit;
  }
  // translateRegExp would read \k<name> as a plain "k": refuse backreferences before it sees them.
  if (BACKREFERENCE.test(pattern)) throw new RulePatternError(explain(pattern, null));
  try {
    return RE2JS.compile(RE2JS.translateRegExp(pattern), bits);
  } catch (err: unknown) {
    throw new RulePatternError(explain(pattern, err));
  }
}

function explain(pattern: string, err: unknown): string {
  if (/\(\?<?[=!]/.test(pattern))
    return 'lookahead and lookbehind ((?=…), (?!…), (?<=…), (?<!…)) cannot run in linear time; match the text itself, e.g. (?:\\s|$) instead of (?=\\s|$)';
  if (BACKREFERENCE.test(pattern))
    return 'backreferences (\\1, \\k<name>) cannot run in linear time';
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/^error parsing regexp: /, '');
}
