/**
 * A page of the console: the rail shows those marked `inRail`; the palette reaches all of them (its
 * words to find them by are the palette's own, palette/page-words.ts: not in the shell's bundle).
 */
export interface ConsolePage {
  path: string;
  label: string;
  inRail: boolean;
}

export const PAGES: readonly ConsolePage[] = [
  {
    path: '/sessions',
    label: $localize`:page name:Sessions`,
    inRail: true,
  },
  {
    path: '/sessions/new',
    label: $localize`:page name:Launch`,
    inRail: false,
  },
  {
    path: '/inbox',
    label: $localize`:page name:Inbox`,
    inRail: true,
  },
  {
    path: '/subscriptions',
    label: $localize`:page name:Subscriptions`,
    inRail: true,
  },
  {
    path: '/analytics',
    label: $localize`:page name:Analytics`,
    inRail: true,
  },
  {
    path: '/rules',
    label: $localize`:page name:Rules`,
    inRail: true,
  },
  {
    path: '/audit',
    label: $localize`:page name:Audit`,
    inRail: true,
  },
  {
    path: '/library',
    label: $localize`:page name:Library`,
    inRail: true,
  },
  {
    path: '/storage',
    label: $localize`:page name:Storage`,
    inRail: true,
  },
  {
    path: '/access',
    label: $localize`:page name:Access`,
    inRail: true,
  },
  {
    path: '/diagnostics',
    label: $localize`:page name:Diagnostics`,
    inRail: true,
  },
];
