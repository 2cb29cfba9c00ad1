import { Routes } from '@angular/router';

export const sessionsRoutes: Routes = [
  {
    path: '',
    title: 'Sessions · Relais',
    loadComponent: () => import('./session-list-page').then((m) => m.SessionListPage),
  },
  {
    path: 'new',
    title: 'Launch a session · Relais',
    loadComponent: () => import('./launch-page').then((m) => m.LaunchPage),
  },
  {
    path: ':id',
    title: 'Conversation · Relais',
    loadComponent: () =>
      import('../conversation/conversation-page').then((m) => m.ConversationPage),
  },
];
