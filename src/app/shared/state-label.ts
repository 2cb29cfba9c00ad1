import type { SessionState } from '../../../contract/api';

const LABELS: Record<SessionState, string> = {
  starting: $localize`:session state:starting`,
  idle: $localize`:session state:idle`,
  working: $localize`:session state:working`,
  waiting: $localize`:session state:waiting`,
  stopping: $localize`:session state:stopping`,
  ended: $localize`:session state:ended`,
};

/** A session's state in words, in the console's language (the API's value stays the key). */
export function stateLabel(state: SessionState | string): string {
  return Object.hasOwn(LABELS, state) ? LABELS[state as SessionState] : state;
}
