import { Routes } from '@angular/router';

export const auditRoutes: Routes = [
  {
    path: '',
    title: 'Audit trail · Relais',
    loadComponent: () => import('./audit-page').then((m) => m.AuditPage),
  },
];
