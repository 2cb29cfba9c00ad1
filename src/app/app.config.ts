import {
  ApplicationConfig,
  inject,
  provideAppInitializer,
  provideBrowserGlobalErrorListeners,
  provideZonelessChangeDetection,
} from '@angular/core';
import { Navigator } from './core/routing/navigator';

export const appConfig: ApplicationConfig = {
  providers: [
    provideBrowserGlobalErrorListeners(),
    provideZonelessChangeDetection(),
    // Not awaited: the shell paints while the first page's chunk arrives.
    provideAppInitializer(() => inject(Navigator).start()),
  ],
};
