import { Routes } from '@angular/router';

export const rulesRoutes: Routes = [
  {
    path: '',
    title: 'Rules · Relais',
    loadComponent: () => import('./rules-page').then((m) => m.RulesPage),
  },
];
