import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The console's languages, each built in its own folder (angular.json's i18n); the first is the default. */
export const CONSOLE_LOCALES = ['en', 'fr'] as const;
export type ConsoleLocale = (typeof CONSOLE_LOCALES)[number];

/** The cookie the console's language switch writes (src/app/core/locale-choice.ts). */
export const LOCALE_COOKIE = 'relais-locale';

const isLocale = (value: string): value is ConsoleLocale =>
  (CONSOLE_LOCALES as readonly string[]).includes(value);

/** The value of one cookie in a Cookie header, or null. */
function cookieValue(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return null;
}

/**
 * The first of the console's languages an Accept-Language header asks for, by its weights
 * (`fr-CA,fr;q=0.9,en;q=0.8` is French; `q=0` refuses one); null when it names none of them.
 */
export function preferredLocale(header: string | undefined): ConsoleLocale | null {
  const asked = (header ?? '')
    .slice(0, 1000)
    .split(',')
    .map((range, order) => {
      const [tag = '', ...params] = range.trim().split(';');
      // A weight that is not a number between 0 and 1 makes the range void.
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q === undefined ? 1 : /^q=[01](\.\d{0,3})?$/.test(q) ? Number(q.slice(2)) : 0;
      const language = tag.trim().toLowerCase().split('-')[0] ?? '';
      return { language, weight, order };
    })
    .filter((range) => range.weight > 0 && isLocale(range.language))
    .sort((a, b) => b.weight - a.weight || a.order - b.order);
  return (asked[0]?.language as ConsoleLocale | undefined) ?? null;
}

/**
 * The language a page is served in: the person's choice (the cookie) when it names one, else
 * the browser's preferred language, else the first. Nothing of the URL is read: the same address
 * opens the same page in either language, so every link keeps working.
 */
export function chooseLocale(
  cookie: string | undefined,
  acceptLanguage: string | undefined,
): ConsoleLocale {
  const chosen = cookieValue(cookie, LOCALE_COOKIE);
  if (chosen !== null && isLocale(chosen)) return chosen;
  return preferredLocale(acceptLanguage) ?? CONSOLE_LOCALES[0];
}

/** The locale folders of a built console; none for a build without locales (one folder). */
export function localeFolders(consoleDir: string): ConsoleLocale[] {
  return CONSOLE_LOCALES.filter((locale) => existsSync(join(consoleDir, locale, 'index.html')));
}
