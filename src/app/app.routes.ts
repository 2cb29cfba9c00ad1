import { Routes } from '@angular/router';
import { keyGuard } from './core/key-guard';

export const routes: Routes = [
  { path: '', pathMatch: 'full', redirectTo: 'sessions' },
  {
    path: 'key',
    loadComponent: () => import('./core/key-page').then((m) => m.KeyPage),
    title: 'API key · Relais',
  },
  {
    path: 'sessions',
    canActivate: [keyGuard],
    loadChildren: () => import('./sessions/sessions.routes').then((m) => m.sessionsRoutes),
  },
  {
    path: 'inbox',
    canActivate: [keyGuard],
    loadChildren: () => import('./permissions/permissions.routes').then((m) => m.permissionsRoutes),
  },
  {
    path: 'subscriptions',
    canActivate: [keyGuard],
    loadChildren: () =>
      import('./subscriptions/subscriptions.routes').then((m) => m.subscriptionsRoutes),
  },
  {
    path: 'analytics',
    canActivate: [keyGuard],
    loadChildren: () => import('./analytics/analytics.routes').then((m) => m.analyticsRoutes),
  },
  {
    path: 'rules',
    canActivate: [keyGuard],
    loadChildren: () => import('./rules/rules.routes').then((m) => m.rulesRoutes),
  },
  {
    path: 'audit',
    canActivate: [keyGuard],
    loadChildren: () => import('./audit/audit.routes').then((m) => m.auditRoutes),
  },
  {
    path: 'library',
    canActivate: [keyGuard],
    loadChildren: () => import('./library/library.routes').then((m) => m.libraryRoutes),
  },
  {
    path: 'storage',
    canActivate: [keyGuard],
    loadChildren: () => import('./storage/storage.routes').then((m) => m.storageRoutes),
  },
  {
    path: 'diagnostics',
    canActivate: [keyGuard],
    loadChildren: () => import('./diagnostics/diagnostics.routes').then((m) => m.diagnosticsRoutes),
  },
  { path: '**', redirectTo: 'sessions' },
];
