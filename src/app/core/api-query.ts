export type ApiQuery = Readonly<Record<string, string>>;

/** `path?query`, encoded the way URLSearchParams writes a form (the daemon reads both). */
export function withQuery(path: string, query: ApiQuery): string {
  const search = new URLSearchParams(query).toString();
  return search ? `${path}?${search}` : path;
}
