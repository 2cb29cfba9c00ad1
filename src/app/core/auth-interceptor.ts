import { HttpErrorResponse, HttpInterceptorFn } from '@angular/common/http';
import { inject } from '@angular/core';
import { catchError, throwError } from 'rxjs';
import { ApiKey } from './api-key';
import { returnTo } from './return-url';
import { Navigator } from './routing/navigator';

/** How the daemon's audit names what the console changed (rules changes, launches). */
export const CONSOLE_APP = 'console';

/**
 * Adds `Authorization: Bearer <key>` and `X-Relais-App: console` to every /api call; a 401 sends
 * the person to the key page, which brings them back to where they were.
 */
export const authInterceptor: HttpInterceptorFn = (request, next) => {
  if (!request.url.startsWith('/api/')) return next(request);
  const apiKey = inject(ApiKey);
  const navigator = inject(Navigator);
  const key = apiKey.key();
  const setHeaders: Record<string, string> = { 'X-Relais-App': CONSOLE_APP };
  if (key) setHeaders['Authorization'] = `Bearer ${key}`;
  const authorised = request.clone({ setHeaders });
  return next(authorised).pipe(
    catchError((error: unknown) => {
      if (error instanceof HttpErrorResponse && error.status === 401) {
        apiKey.reject();
        void navigator.navigate('/key', returnTo(navigator.url()));
      }
      return throwError(() => error);
    }),
  );
};
