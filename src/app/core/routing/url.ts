/** A query as read from an address: a key given twice keeps both values, in order. */
export type QueryParams = Readonly<Record<string, string | readonly string[]>>;

/** A query to write: a null or undefined value leaves its key out (or removes it when merged). */
export type QueryChange = Readonly<Record<string, string | null | undefined>>;

/** An address of this console, split the way routes are matched. */
export interface ConsoleUrl {
  /** The decoded path segments, empty ones dropped (`/sessions/` is `['sessions']`). */
  segments: readonly string[];
  query: QueryParams;
  /** Path and query as they are compared and shown: `/audit?kind=rules_change`. */
  url: string;
}

/**
 * Reads an address of this origin; null for another origin or a path that does not decode
 * (`%E0%A4%A`), which no page of the console can have.
 */
export function parseConsoleUrl(address: string, origin: string): ConsoleUrl | null {
  let parsed: URL;
  try {
    parsed = new URL(address, origin);
  } catch {
    return null;
  }
  if (parsed.origin !== origin) return null;
  const raw = parsed.pathname.split('/').filter((segment) => segment !== '');
  const segments: string[] = [];
  for (const segment of raw) {
    try {
      segments.push(decodeURIComponent(segment));
    } catch {
      return null;
    }
  }
  const query = readQuery(parsed.searchParams);
  return { segments, query, url: '/' + raw.join('/') + writeQuery(query) };
}

function readQuery(search: URLSearchParams): QueryParams {
  const query: Record<string, string | string[]> = {};
  for (const [key, value] of search) {
    const seen = query[key];
    if (seen === undefined) query[key] = value;
    else query[key] = Array.isArray(seen) ? [...seen, value] : [seen as string, value];
  }
  return query;
}

/** `?a=1&b=x%20y`, or '' for an empty query; `: @ $ , ;` stay readable, as in most routers. */
export function writeQuery(query: QueryParams | QueryChange): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    const values = typeof value === 'string' ? [value] : (value ?? []);
    for (const one of values) parts.push(`${encodeQueryPart(key)}=${encodeQueryPart(one)}`);
  }
  return parts.length > 0 ? '?' + parts.join('&') : '';
}

function encodeQueryPart(text: string): string {
  return encodeURIComponent(text).replace(/%(40|3A|24|2C|3B)/gi, (escaped) =>
    decodeURIComponent(escaped),
  );
}

/** The address of a path (segments after the first are encoded) with a query. */
export function consoleHref(
  path: string | readonly unknown[],
  query: QueryChange | null = null,
): string {
  const base =
    typeof path === 'string'
      ? path
      : path
          .map((part, index) => (index === 0 ? String(part) : encodeURIComponent(String(part))))
          .join('/');
  return base + (query ? writeQuery(query) : '');
}

/** `query` changed by `change`: a null or undefined value removes its key. */
export function mergeQuery(query: QueryParams, change: QueryChange): QueryParams {
  const merged: Record<string, string | readonly string[]> = { ...query };
  for (const [key, value] of Object.entries(change)) {
    if (value === null || value === undefined) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}
