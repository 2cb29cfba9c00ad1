import { Routes } from '@angular/router';
import { InboxPage } from './inbox-page';

export const permissionsRoutes: Routes = [
  { path: '', title: 'Inbox · Relais', component: InboxPage },
];
