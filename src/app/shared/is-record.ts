/** An object (or array) whose keys can be read: what a line of JSON is checked for before it is read. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
