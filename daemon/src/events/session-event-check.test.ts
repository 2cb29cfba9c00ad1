import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSessionEvent, SessionEvent } from '../../../contract/api.js';

const valid = {
  seq: 7,
  received_at: '2026-12-04T10:00:00.000Z',
  received_at_ms: 1_796_378_400_000,
  source: 'agent',
  data: { type: 'assistant' },
};

/** Each field given every kind of value, and each one left out: what the console may be sent. */
function variants(): unknown[] {
  const values = [
    undefined,
    null,
    0,
    1,
    -1,
    1.5,
    2 ** 53,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    -0,
    '',
    '7',
    'agent',
    'relais',
    'host',
    'other',
    true,
    false,
    [],
    {},
  ];
  const out: unknown[] = [valid, null, undefined, 7, 'event', [], [valid], {}];
  for (const key of [...Object.keys(valid), 'clipped']) {
    for (const value of values) out.push({ ...valid, [key]: value });
    const { [key as keyof typeof valid]: _left, ...without } = valid;
    out.push(without);
  }
  return out;
}

describe('isSessionEvent', () => {
  it('answers as the SessionEvent schema does, for every variant of each field', () => {
    let accepted = 0;
    for (const value of variants()) {
      const expected = SessionEvent.safeParse(value).success;
      assert.equal(isSessionEvent(value), expected, JSON.stringify(value));
      if (expected) accepted += 1;
    }
    // Both sides of the rule are exercised, not only refusals.
    assert.ok(accepted >= 10, `only ${accepted} variants accepted`);
  });

  it('gives back the object it was handed, with keys the schema does not name', () => {
    const event = { ...valid, extra: 1 };
    assert.equal(isSessionEvent(event), true);
    assert.equal((event as Record<string, unknown>)['extra'], 1);
  });
});
