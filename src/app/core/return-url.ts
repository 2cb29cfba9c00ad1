import type { QueryChange } from './routing/url';

/** The query parameter the key page reads to bring the person back. */
export const NEXT_PARAM = 'next';

/**
 * The page to return to after the key page, or null when `url` is not a page of this console:
 * only a path of this origin is followed (never `//host`, a scheme, or the key page itself).
 */
export function safeReturnUrl(url: unknown): string | null {
  if (typeof url !== 'string' || url.length > 2000) return null;
  if (!url.startsWith('/') || url.startsWith('//') || url.includes('\\')) return null;
  if ([...url].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f))
    return null;
  const path = url.split(/[?#]/, 1)[0];
  if (path === '/' || path === '/key' || path.startsWith('/key/')) return null;
  return url;
}

/** The key page's query for coming back to `url` (nothing when there is no page worth returning to). */
export function returnTo(url: string): QueryChange {
  const next = safeReturnUrl(url);
  return next ? { [NEXT_PARAM]: next } : {};
}
