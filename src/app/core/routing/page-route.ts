import { InjectionToken, type Type } from '@angular/core';

/** A page of the console at an address. */
export interface PageRoute {
  /** Its segments: `sessions/:id` takes any one segment as the page's input `id`. */
  path: string;
  /** The document's title while it is shown. */
  title: string;
  /** The page's component, loaded on first visit. */
  load: () => Promise<Type<unknown>>;
  /** Pages that call the API need a key; without one, the key page explains where to find it. */
  needsKey: boolean;
}

/** Where an address that names no page goes (and the bare `/`). */
export const HOME = '/sessions';

/**
 * The console's pages: the app provides its list (app.config.ts), a test its own. Core never
 * imports the list itself, which would pull every feature's page into core.
 */
export const PAGE_ROUTES = new InjectionToken<readonly PageRoute[]>('PAGE_ROUTES', {
  providedIn: 'root',
  factory: () => [],
});

/** The page an address shows, with the values of its `:name` segments. */
export interface RouteMatch {
  route: PageRoute;
  params: Readonly<Record<string, string>>;
}

/** The first route whose segments all match, or null; matching is exact and case-sensitive. */
export function matchRoute(
  routes: readonly PageRoute[],
  segments: readonly string[],
): RouteMatch | null {
  for (const route of routes) {
    const params = matchPath(route.path, segments);
    if (params) return { route, params };
  }
  return null;
}

function matchPath(path: string, segments: readonly string[]): Record<string, string> | null {
  const pattern = path.split('/').filter((part) => part !== '');
  if (pattern.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (const [index, part] of pattern.entries()) {
    if (part.startsWith(':')) params[part.slice(1)] = segments[index];
    else if (part !== segments[index]) return null;
  }
  return params;
}
