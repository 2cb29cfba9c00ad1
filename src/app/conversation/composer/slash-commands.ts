/** The word being typed as a slash command (`/na` → `na`), or null when the text is not one. */
export function slashQuery(text: string): string | null {
  const match = /^\/([A-Za-z0-9_:-]*)$/.exec(text);
  return match ? (match[1] ?? '') : null;
}

/** Commands starting with the query first, then those containing it; each once, at most `limit`. */
export function matchCommands(commands: readonly string[], query: string, limit = 8): string[] {
  const lower = query.toLowerCase();
  const unique = [...new Set(commands)].sort((a, b) => a.localeCompare(b));
  const starts = unique.filter((c) => c.toLowerCase().startsWith(lower));
  const contains = unique.filter(
    (c) => !c.toLowerCase().startsWith(lower) && c.toLowerCase().includes(lower),
  );
  return [...starts, ...contains].slice(0, limit);
}
