/**
 * The console's language. Each language is its own build (angular.json's i18n, one folder each);
 * the daemon serves a page from the folder of the person's choice, kept in a cookie for a year,
 * else of the browser's preferred language (daemon/src/http/console-locale.ts). Switching writes
 * the cookie and reloads the same address: the key in its fragment stays in the browser.
 */
export type ConsoleLocale = 'en' | 'fr';

/** Each language named in itself, as a language menu does. */
export const CONSOLE_LOCALES: readonly { id: ConsoleLocale; name: string }[] = [
  { id: 'en', name: 'English' },
  { id: 'fr', name: 'Français' },
];

const COOKIE = 'relais-locale';

/** The language this build speaks (set by the build; the source's, English, in tests). */
export function activeLocale(): ConsoleLocale {
  const locale = (globalThis as { $localize?: { locale?: string } }).$localize?.locale;
  return locale?.startsWith('fr') ? 'fr' : 'en';
}

/** The language the switch offers: the other one. */
export function otherLocale(): { id: ConsoleLocale; name: string } {
  return CONSOLE_LOCALES.find((locale) => locale.id !== activeLocale())!;
}

/** Remembers the choice and shows the same page in that language. */
export function switchLocale(id: ConsoleLocale, reload = () => location.reload()): void {
  document.cookie = `${COOKIE}=${id}; path=/; max-age=31536000; samesite=strict`;
  reload();
}
