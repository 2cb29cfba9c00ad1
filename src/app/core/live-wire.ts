import { Injector } from '@angular/core';
import { GlobalStreamLine, Session, listOf } from '../../../contract/api';
import { ApiClient } from './api-client';
import { ApiFailure, toApiFailure } from './api-error';
import { RECENT_SESSIONS } from './early-reads';

/**
 * What the live state needs from the contract's schemas: it is loaded once the shell has started,
 * so zod and the schemas are not part of the code every page waits for (they come with the first
 * page that reads the API, fetched in parallel with it).
 */
export interface LiveWire {
  parseLine(raw: unknown): GlobalStreamLine | null;
  recentSessions(): Promise<Session[]>;
  session(id: string): Promise<Session>;
  failure(error: unknown): ApiFailure;
}

const SessionList = listOf(Session);

export function liveWire(injector: Injector): LiveWire {
  // The same reads as SessionsApi.list and .get: core reads the contract, not the sessions feature.
  const api = injector.get(ApiClient);
  return {
    parseLine: (raw) => {
      const parsed = GlobalStreamLine.safeParse(raw);
      return parsed.success ? parsed.data : null;
    },
    recentSessions: () =>
      api
        .read('/api/sessions', SessionList, { limit: String(RECENT_SESSIONS) })
        .then((page) => page.items),
    session: (id) => api.read(`/api/sessions/${encodeURIComponent(id)}`, Session),
    failure: toApiFailure,
  };
}
