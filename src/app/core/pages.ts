/** A page of the console: the rail shows those marked `inRail`; the palette reaches all of them. */
export interface ConsolePage {
  path: string;
  label: string;
  keywords: string;
  inRail: boolean;
}

export const PAGES: readonly ConsolePage[] = [
  {
    path: '/sessions',
    label: $localize`:page name:Sessions`,
    keywords: 'dashboard list running agents',
    inRail: true,
  },
  {
    path: '/sessions/new',
    label: $localize`:page name:Launch`,
    keywords: 'new start session',
    inRail: false,
  },
  {
    path: '/inbox',
    label: $localize`:page name:Inbox`,
    keywords: 'permissions prompts approve',
    inRail: true,
  },
  {
    path: '/subscriptions',
    label: $localize`:page name:Subscriptions`,
    keywords: 'accounts claude codex detect models add',
    inRail: true,
  },
  {
    path: '/analytics',
    label: $localize`:page name:Analytics`,
    keywords: 'usage cost tokens charts turns',
    inRail: true,
  },
  {
    path: '/rules',
    label: $localize`:page name:Rules`,
    keywords: 'permissions policy allow deny ask',
    inRail: true,
  },
  {
    path: '/audit',
    label: $localize`:page name:Audit`,
    keywords: 'trail decisions history rules changes',
    inRail: true,
  },
  {
    path: '/library',
    label: $localize`:page name:Library`,
    keywords: 'skills commands slash instructions system prompt',
    inRail: true,
  },
  {
    path: '/storage',
    label: $localize`:page name:Storage`,
    keywords: 'disk space compress recycle',
    inRail: true,
  },
  {
    path: '/access',
    label: $localize`:page name:Access`,
    keywords: 'api keys callers tools tokens revoke scopes',
    inRail: true,
  },
  {
    path: '/diagnostics',
    label: $localize`:page name:Diagnostics`,
    keywords: 'health engine process',
    inRail: true,
  },
];

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
