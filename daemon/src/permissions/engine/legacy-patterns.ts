import { DEFAULT_RULES } from './default-rules.js';

/**
 * Default patterns of earlier versions, written for JavaScript's backtracking engine (lookaround),
 * which RE2 refuses. A rules file saved with one of them, unchanged and under its default id, is read
 * with today's pattern for that id instead of being refused: the person never wrote those.
 */
const OLD_DEFAULT_PATTERNS: readonly (readonly [id: string, pattern: string])[] = [
  [
    'rm-recursive-or-forced',
    String.raw`(?<!\bgit\s+)\brm\s+(?:\S+\s+)*?(?:-[a-zA-Z]*[rRf][a-zA-Z]*|--recursive|--force)(?=\s|$)`,
  ],
  ['git-push-force', String.raw`\bgit\s+(?:.*\s)?push\s(?:.*\s)?--force(?!-with-lease)(?![\w-])`],
  ['git-push-f', String.raw`\bgit\s+(?:.*\s)?push\s(?:.*\s)?-[a-zA-Z]*f[a-zA-Z]*(?=\s|$)`],
  [
    'git-clean-force',
    String.raw`\bgit\s+(?:.*\s)?clean\s(?:.*\s)?(?:-[a-zA-Z]*f[a-zA-Z]*|--force)(?=\s|$)`,
  ],
  ['sudo', String.raw`(?<![\w./-])(?:sudo|doas)(?![\w.-])`],
  ['chmod-777', String.raw`\bchmod\s+(?:-\S+\s+)*(?:0?777|a\+rwx|ugo\+rwx)(?=\s|$)`],
  ['sql-drop-table', String.raw`\bDROP\s+TABLE\b`],
  ['sql-delete-without-where', String.raw`\bDELETE\s+FROM\s+[^\s;'"]+(?![^;'"]*\bWHERE\b)`],
  ['git-checkout-discard', String.raw`\bgit\s+(?:.*\s)?checkout\s(?:.*\s)?(?:--\s+)?\.\/?(?=\s|$)`],
  ['git-restore-discard', String.raw`\bgit\s+(?:.*\s)?restore\s(?:.*\s)?\.\/?(?=\s|$)`],
  [
    'git-branch-force-delete',
    String.raw`\bgit\s+(?:.*\s)?branch\s(?:.*\s)?-[a-zA-Z]*D[a-zA-Z]*(?=\s|$)`,
  ],
];

const CURRENT = new Map(
  DEFAULT_RULES.rules.flatMap((r) => (r.kind === 'bash' ? [[r.id, r.pattern] as const] : [])),
);
const UPGRADES = new Map(
  OLD_DEFAULT_PATTERNS.map(([id, pattern]) => [`${id}\n${pattern}`, CURRENT.get(id)] as const),
);

/** Replaces, in a parsed rules document, old default patterns by today's (in place). */
export function upgradeOldDefaults(doc: unknown): void {
  if (typeof doc !== 'object' || doc === null || !('rules' in doc) || !Array.isArray(doc.rules))
    return;
  for (const rule of doc.rules as unknown[]) {
    if (typeof rule !== 'object' || rule === null) continue;
    const r = rule as Record<string, unknown>;
    if (r['kind'] !== 'bash' || typeof r['id'] !== 'string' || typeof r['pattern'] !== 'string')
      continue;
    const next = UPGRADES.get(`${r['id']}\n${r['pattern']}`);
    if (next !== undefined) r['pattern'] = next;
  }
}
