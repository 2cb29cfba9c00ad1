import { QuotaWindow } from '../../../contract/usage';
import { describeWindow, readAgo, resetIn, windowName } from './quota-view';

const now = Date.parse('2026-11-30T10:00:00.000Z');
const window = (over: Partial<QuotaWindow>): QuotaWindow => ({
  window: 'five_hour',
  utilization: 24,
  resets_at: '2026-11-30T12:30:00.000Z',
  read_at: '2026-11-30T09:57:00.000Z',
  status: 'fresh',
  source: 'usage_endpoint',
  ...over,
});

describe('quota windows', () => {
  it('shows a fresh reading with its percentage, countdown and age', () => {
    const view = describeWindow(window({}), now);
    expect(view).toMatchObject({
      name: '5-hour window',
      status: 'fresh',
      percent: 24,
      fill: 24,
      percentText: '24 %',
      statusText: 'Up to date',
    });
    expect(view.resetText).toBe('resets in 2h 30m');
    expect(view.readText).toBe('read 3 min ago');
  });

  it('shows a stale reading as stale, with its last value and age', () => {
    const view = describeWindow(
      window({ status: 'stale', read_at: '2026-11-30T09:46:00.000Z' }),
      now,
    );
    expect(view.status).toBe('stale');
    expect(view.percentText).toBe('24 %');
    expect(view.statusText).toBe('Stale: read 14 min ago, may be out of date');
  });

  it('shows an unknown reading as unknown, never 0 %', () => {
    for (const w of [
      window({ status: 'unknown', utilization: null, read_at: null }),
      window({ status: 'stale', utilization: null }),
    ]) {
      const view = describeWindow(w, now);
      expect(view.status).toBe('unknown');
      expect(view.percent).toBeNull();
      expect(view.fill).toBeNull();
      expect(view.percentText).toBe('Unknown');
      expect(view.percentText).not.toContain('0');
      expect(view.statusText).toBe('Unknown: no reading yet');
    }
  });

  it('keeps the bar within 0–100 while the figure may pass 100, and grades the level', () => {
    const view = describeWindow(window({ utilization: 112 }), now);
    expect(view.fill).toBe(100);
    expect(view.percentText).toBe('112 %');
    expect(view.level).toBe('full');
    expect(describeWindow(window({ utilization: 85 }), now).level).toBe('high');
  });

  it('names windows and times plainly', () => {
    expect(windowName('seven_day_opus')).toBe('7-day window (Opus)');
    expect(windowName('ten_day_custom')).toBe('ten day custom');
    expect(readAgo(null, now)).toBe('never read');
    expect(readAgo('2026-11-30T09:59:30.000Z', now)).toBe('read just now');
    expect(readAgo('2026-11-30T07:55:00.000Z', now)).toBe('read 2 h 5 min ago');
    expect(resetIn(null, now)).toBe('reset time unknown');
    expect(resetIn('2026-11-30T09:00:00.000Z', now)).toBe('reset time passed');
  });
});
