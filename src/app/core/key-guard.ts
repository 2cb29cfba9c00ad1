import { inject } from '@angular/core';
import { CanActivateFn, Router } from '@angular/router';
import { ApiKey } from './api-key';

/** Pages that call the API need a key; without one the key page explains where to find it. */
export const keyGuard: CanActivateFn = () => {
  const apiKey = inject(ApiKey);
  return apiKey.key() ? true : inject(Router).createUrlTree(['/key']);
};
