import { Session } from '../../../contract/api';
import { clockTime } from '../shared/time-format';
import { extendOutcome } from './extend-outcome';

const T0 = Date.parse('2026-12-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();
const session = (deadline: number, max: number): Session =>
  ({ deadline_at: at(deadline), max_deadline_at: at(max) }) as Session;

describe('extendOutcome', () => {
  it('says by how much and until when', () => {
    expect(extendOutcome(session(10, 240), session(40, 240), 1800)).toBe(
      `Extended by 30m 0s: now ends at ${clockTime(T0 + 40 * 60_000)}.`,
    );
  });

  it('says when the maximum lifetime cut the extension short', () => {
    expect(extendOutcome(session(10, 22), session(22, 22), 1800)).toBe(
      `Extended by 12m 0s only, up to the maximum lifetime: ends at ${clockTime(T0 + 22 * 60_000)}.`,
    );
  });

  it('says why nothing happened', () => {
    expect(extendOutcome(session(22, 22), session(22, 22), 1800)).toBe(
      `Not extended: the session already runs to its maximum lifetime (ends at ${clockTime(T0 + 22 * 60_000)}).`,
    );
  });
});
