/** Words that find a page in the palette besides its name (core/pages.ts), by the page's path. */
export const PAGE_KEYWORDS: Readonly<Record<string, string>> = {
  '/sessions': 'dashboard list running agents',
  '/sessions/new': 'new start session',
  '/inbox': 'permissions prompts approve',
  '/subscriptions': 'accounts claude codex detect models add',
  '/analytics': 'usage cost tokens charts turns',
  '/rules': 'permissions policy allow deny ask',
  '/audit': 'trail decisions history rules changes',
  '/library': 'skills commands slash instructions system prompt',
  '/storage': 'disk space compress recycle',
  '/access': 'api keys callers tools tokens revoke scopes',
  '/diagnostics': 'health engine process',
};

/** A part of a page worth reaching directly: the palette opens the page and moves to its heading. */
export interface PageSection {
  path: string;
  headingId: string;
  label: string;
  keywords: string;
}

export const SECTIONS: readonly PageSection[] = [
  {
    path: '/sessions',
    headingId: 'quotas-title',
    label: $localize`:page name:Quotas`,
    keywords: 'quota limits plan',
  },
  {
    path: '/diagnostics',
    headingId: 'subscriptions-title',
    label: $localize`:page name:Subscription health`,
    keywords: 'suspended retry brake failed starts',
  },
  {
    path: '/diagnostics',
    headingId: 'versions-title',
    label: $localize`:page name:Agent versions`,
    keywords: 'claude codex update',
  },
  {
    path: '/diagnostics',
    headingId: 'logs-title',
    label: $localize`:page name:Logs`,
    keywords: 'log tail errors',
  },
  {
    path: '/diagnostics',
    headingId: 'db-title',
    label: $localize`:page name:Database`,
    keywords: 'sqlite wal',
  },
];
