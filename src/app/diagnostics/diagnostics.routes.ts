import { Routes } from '@angular/router';

export const diagnosticsRoutes: Routes = [
  {
    path: '',
    title: 'Diagnostics · Relais',
    loadComponent: () => import('./diagnostics-page').then((m) => m.DiagnosticsPage),
  },
];
