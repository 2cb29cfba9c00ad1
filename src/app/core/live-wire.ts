import { Injector } from '@angular/core';
import { GlobalStreamLine, Session } from '../../../contract/api';
import { RECENT_SESSIONS } from '../sessions/recent-sessions';
import { SessionsApi } from '../sessions/sessions-api';
import { ApiFailure, toApiFailure } from './api-error';

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

export function liveWire(injector: Injector): LiveWire {
  const api = injector.get(SessionsApi);
  return {
    parseLine: (raw) => {
      const parsed = GlobalStreamLine.safeParse(raw);
      return parsed.success ? parsed.data : null;
    },
    recentSessions: () => api.list({}, RECENT_SESSIONS),
    session: (id) => api.get(id),
    failure: toApiFailure,
  };
}
