import {
  ApplicationConfig,
  inject,
  provideAppInitializer,
  provideBrowserGlobalErrorListeners,
  provideZonelessChangeDetection,
} from '@angular/core';
import { routes } from './app.routes';
import { Navigator } from './core/routing/navigator';
import { PAGE_ROUTES } from './core/routing/page-route';

export const appConfig: ApplicationConfig = {
  providers: [
    provideBrowserGlobalErrorListeners(),
    provideZonelessChangeDetection(),
    { provide: PAGE_ROUTES, useValue: routes },
    // Not awaited: the shell paints while the first page's chunk arrives.
    provideAppInitializer(() => inject(Navigator).start()),
  ],
};
