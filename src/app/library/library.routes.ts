import { Routes } from '@angular/router';
import { LibraryPage } from './library-page';

export const libraryRoutes: Routes = [
  { path: '', component: LibraryPage, title: 'Library · Relais' },
];
