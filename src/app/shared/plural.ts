import { activeLocale } from '../core/locale-choice';

let rules: Intl.PluralRules | undefined;

/**
 * The form of a counted message for `count` in the console's language, by its plural rules
 * (French takes 0 and 1 as singular, English 1 only). Each form is its own `$localize` message,
 * with the count in it, so the translation reads whole: messages in code are inlined at build
 * time, where a template's ICU message would bring Angular's i18n runtime into the bundle.
 */
export function plural(count: number, forms: { one: string; other: string }): string {
  rules ??= new Intl.PluralRules(activeLocale());
  return rules.select(count) === 'one' ? forms.one : forms.other;
}
