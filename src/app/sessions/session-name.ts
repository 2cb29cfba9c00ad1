import { Session } from '../../../contract/api';

/** What a person calls a session: its title, else its short id. */
export function sessionName(session: Pick<Session, 'id' | 'title'>): string {
  return session.title ?? $localize`Session ${shortId(session.id)}`;
}

/** The last eight characters of an id: enough to tell sessions apart in a list. */
export function shortId(id: string): string {
  return id.slice(-8);
}
