import { inject } from '@angular/core';
import { CanActivateFn, Router } from '@angular/router';
import { ApiKey } from './api-key';
import { returnTo } from './return-url';

/** Pages that call the API need a key; without one the key page explains where to find it. */
export const keyGuard: CanActivateFn = (_route, state) => {
  const apiKey = inject(ApiKey);
  if (apiKey.key()) return true;
  return inject(Router).createUrlTree(['/key'], { queryParams: returnTo(state.url) });
};
