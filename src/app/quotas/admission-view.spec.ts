import { AdmissionAnswer, AdmissionWindow } from '../../../contract/usage';
import { describeAdmission } from './admission-view';

const window = (over: Partial<AdmissionWindow>): AdmissionWindow => ({
  window: 'five_hour',
  utilization: 85,
  read_at: '2026-11-30T09:59:48.000Z',
  read_age_seconds: 12,
  reading_status: 'fresh',
  resets_at: '2026-11-30T12:30:00.000Z',
  percent_per_million_units: 1000,
  rate_source: 'learned',
  learned_from_sessions: 3,
  rate_per_session: 12.2,
  used_since_reading: 0,
  reserved_running: 0,
  reserved_new: 12.2,
  projected: 97.2,
  ...over,
});

const answer = (
  windows: AdmissionWindow[],
  over: Partial<AdmissionAnswer> = {},
): AdmissionAnswer => {
  const binding = windows[0];
  return {
    subscription_id: 'demo',
    admit: false,
    reason: 'would_pass_threshold',
    message: 'Quota would pass 95 %',
    retry_after_seconds: 9000,
    figures: {
      window: binding?.window ?? null,
      utilization: binding?.utilization ?? null,
      read_at: binding?.read_at ?? null,
      read_age_seconds: binding?.read_age_seconds ?? null,
      reading_status: binding?.reading_status ?? null,
      running_sessions: 0,
      units_per_session: 12188,
      sessions_averaged: 5,
      rate_per_session: binding?.rate_per_session ?? null,
      rate_source: binding?.rate_source ?? null,
      learned_from_sessions: binding?.learned_from_sessions ?? null,
      used_since_reading: 0,
      reserved_running: 0,
      reserved_new: binding?.reserved_new ?? 0,
      reserved: binding?.reserved_new ?? 0,
      projected: binding?.projected ?? null,
      threshold: 95,
      windows,
    },
    ...over,
  };
};

describe('admission figures on the launch form', () => {
  it('a refusal names the window, the reading and its age, the rate and where it came from', () => {
    const view = describeAdmission(
      answer([
        window({}),
        window({
          window: 'seven_day',
          utilization: 40,
          read_age_seconds: 7320,
          reading_status: 'stale',
          rate_source: 'prior',
          learned_from_sessions: 0,
          rate_per_session: 1.5,
          used_since_reading: 2,
          reserved_new: 1.5,
          projected: 43.5,
        }),
      ]),
    );
    expect(view.verdict).toBe('refuse');
    expect(view.headline).toBe(
      'A launch now would be refused: 5-hour window would reach 97 %, over 95 %.',
    );
    expect(view.rows[0]).toMatchObject({
      binding: true,
      over: true,
      reading: '85 %, read 12 s ago',
      sum: '85 % + 0.0 % for 0 running + 12 % new = 97 % of 95 %',
      rate: '12 % a session (learned from 3 sessions)',
    });
    expect(view.rows[1]).toMatchObject({
      binding: false,
      reading: '40 %, read 2 h 2 min ago (stale)',
      sum: '40 % + 2.0 % used since + 0.0 % for 0 running + 1.5 % new = 44 % of 95 %',
      rate: '1.5 % a session (prior for this plan)',
    });
    expect(view.sessions).toBe('A session averages 12,188 units over the last 5 ended sessions.');
  });

  it('no reading: admitted unchecked, and the prior session size is said to be one', () => {
    const unchecked = answer([], { admit: true, reason: 'no_reading' });
    unchecked.figures.sessions_averaged = 0;
    unchecked.figures.units_per_session = 400;
    const view = describeAdmission(unchecked);
    expect(view.verdict).toBe('unchecked');
    expect(view.rows).toEqual([]);
    expect(view.sessions).toContain('taken as 400 units (the prior)');
  });
});
