import { Session } from '../../../contract/api';
import { clockTime, shortDuration } from '../shared/time-format';

/**
 * What an Extend did, in one sentence: by how much the deadline moved, or why it did not (the
 * session already runs to its maximum lifetime, set at launch).
 */
export function extendOutcome(before: Session, after: Session, askedSeconds: number): string {
  const moved = Date.parse(after.deadline_at) - Date.parse(before.deadline_at);
  const ends = clockTime(Date.parse(after.deadline_at));
  const cap = clockTime(Date.parse(after.max_deadline_at));
  if (moved <= 0)
    return $localize`Not extended: the session already runs to its maximum lifetime (ends at ${ends}).`;
  if (moved < askedSeconds * 1000 - 1000)
    return $localize`Extended by ${shortDuration(moved)} only, up to the maximum lifetime: ends at ${cap}.`;
  return $localize`Extended by ${shortDuration(moved)}:duration:: now ends at ${ends}:end:.`;
}
