import { Routes } from '@angular/router';

export const subscriptionsRoutes: Routes = [
  {
    path: '',
    title: 'Subscriptions · Relais',
    loadComponent: () => import('./subscriptions-page').then((m) => m.SubscriptionsPage),
  },
];
