import { HttpErrorResponse, HttpInterceptorFn } from '@angular/common/http';
import { inject } from '@angular/core';
import { Router } from '@angular/router';
import { catchError, throwError } from 'rxjs';
import { ApiKey } from './api-key';

/** Adds `Authorization: Bearer <key>` to every /api call; a 401 sends the person to the key page. */
export const authInterceptor: HttpInterceptorFn = (request, next) => {
  if (!request.url.startsWith('/api/')) return next(request);
  const apiKey = inject(ApiKey);
  const router = inject(Router);
  const key = apiKey.key();
  const authorised = key
    ? request.clone({ setHeaders: { Authorization: `Bearer ${key}` } })
    : request;
  return next(authorised).pipe(
    catchError((error: unknown) => {
      if (error instanceof HttpErrorResponse && error.status === 401) {
        apiKey.reject();
        void router.navigate(['/key']);
      }
      return throwError(() => error);
    }),
  );
};
