import { Routes } from '@angular/router';
import { keyGuard } from './core/key-guard';
import { KeyPage } from './core/key-page';

const placeholder = (path: string, title: string): Routes[number] => ({
  path,
  title: `${title} · Relais`,
  canActivate: [keyGuard],
  loadComponent: () => import('./core/placeholder-page').then((m) => m.PlaceholderPage),
  data: { title },
});

export const routes: Routes = [
  { path: '', pathMatch: 'full', redirectTo: 'sessions' },
  { path: 'key', component: KeyPage, title: 'API key · Relais' },
  { path: 'sessions', canActivate: [keyGuard], loadChildren: () => import('./sessions/sessions.routes').then((m) => m.sessionsRoutes) },
  { path: 'inbox', canActivate: [keyGuard], loadChildren: () => import('./permissions/permissions.routes').then((m) => m.permissionsRoutes) },
  placeholder('analytics', 'Analytics'),
  placeholder('rules', 'Rules'),
  placeholder('storage', 'Storage'),
  placeholder('diagnostics', 'Diagnostics'),
  { path: '**', redirectTo: 'sessions' },
];
