import { loadInTasks } from './core/routing/load-in-tasks';
import type { PageRoute } from './core/routing/page-route';

/** Every page of the console; each loads its component on first visit. */
export const routes: readonly PageRoute[] = [
  {
    path: 'key',
    title: $localize`API key · Relais`,
    needsKey: false,
    load: () => import('./core/key-page').then((m) => m.KeyPage),
  },
  {
    path: 'sessions',
    title: $localize`Sessions · Relais`,
    needsKey: true,
    load: () => import('./sessions/session-list-page').then((m) => m.SessionListPage),
  },
  {
    path: 'sessions/new',
    title: $localize`Launch a session · Relais`,
    needsKey: true,
    load: () => import('./sessions/launch-page').then((m) => m.LaunchPage),
  },
  {
    path: 'sessions/:id',
    title: $localize`Conversation · Relais`,
    needsKey: true,
    // The contract's schemas (zod) and the Markdown renderer (marked's expressions) each
    // evaluated in a task of their own before the page's modules.
    load: () =>
      loadInTasks(
        [() => import('../../contract/api'), () => import('./conversation/rows/markdown')],
        () => import('./conversation/conversation-page'),
      ).then((m) => m.ConversationPage),
  },
  {
    path: 'inbox',
    title: $localize`Inbox · Relais`,
    needsKey: true,
    load: () => import('./permissions/inbox-page').then((m) => m.InboxPage),
  },
  {
    path: 'subscriptions',
    title: $localize`Subscriptions · Relais`,
    needsKey: true,
    load: () => import('./subscriptions/subscriptions-page').then((m) => m.SubscriptionsPage),
  },
  {
    path: 'analytics',
    title: $localize`Analytics · Relais`,
    needsKey: true,
    load: () => import('./analytics/analytics-page').then((m) => m.AnalyticsPage),
  },
  {
    path: 'rules',
    title: $localize`Rules · Relais`,
    needsKey: true,
    load: () => import('./rules/rules-page').then((m) => m.RulesPage),
  },
  {
    path: 'audit',
    title: $localize`Audit trail · Relais`,
    needsKey: true,
    load: () => import('./audit/audit-page').then((m) => m.AuditPage),
  },
  {
    path: 'library',
    title: $localize`Library · Relais`,
    needsKey: true,
    load: () => import('./library/library-page').then((m) => m.LibraryPage),
  },
  {
    path: 'storage',
    title: $localize`Storage · Relais`,
    needsKey: true,
    load: () => import('./storage/storage-page').then((m) => m.StoragePage),
  },
  {
    path: 'access',
    title: $localize`Access · Relais`,
    needsKey: true,
    load: () => import('./access/access-page').then((m) => m.AccessPage),
  },
  {
    path: 'diagnostics',
    title: $localize`Diagnostics · Relais`,
    needsKey: true,
    load: () => import('./diagnostics/diagnostics-page').then((m) => m.DiagnosticsPage),
  },
];
