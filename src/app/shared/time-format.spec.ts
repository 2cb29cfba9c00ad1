import {
  clockTime,
  countdown,
  elapsed,
  fullDateTime,
  listTime,
  shortDuration,
} from './time-format';

describe('time formatting', () => {
  const ms = new Date(2026, 10, 30, 9, 5, 7, 42).getTime();

  it('shows local time to the second in the format of the browser', () => {
    expect(clockTime(ms)).toBe(
      new Intl.DateTimeFormat(undefined, {
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      }).format(ms),
    );
    expect(clockTime(ms)).toMatch(/0?9.05.07/);
  });

  it('adds the day to a time in a list only when it is not from the day it is read', () => {
    const sameDay = new Date(2026, 10, 30, 23, 59).getTime();
    const nextDay = new Date(2026, 11, 1, 0, 1).getTime();
    expect(listTime(ms, sameDay)).toBe(clockTime(ms));
    expect(listTime(ms, nextDay)).not.toBe(clockTime(ms));
    expect(listTime(ms, nextDay)).toContain('30');
    expect(listTime(ms, nextDay)).toMatch(/0?9.05.07/);
  });

  it('gives the full local date with milliseconds and the UTC offset', () => {
    expect(fullDateTime(ms)).toMatch(/^2026-11-30 09:05:07\.042 \(UTC[+-]\d{2}:\d{2}\)$/);
  });

  it('formats durations compactly and never negative', () => {
    expect(shortDuration(-5000)).toBe('0s');
    expect(shortDuration(45_000)).toBe('45s');
    expect(shortDuration(12 * 60_000 + 5000)).toBe('12m 5s');
    expect(shortDuration(3 * 3_600_000 + 20 * 60_000)).toBe('3h 20m');
    expect(shortDuration(52 * 3_600_000)).toBe('2d 4h');
  });

  it('counts down by the minute, so the text changes once a minute and not every second', () => {
    const texts = new Set(
      Array.from({ length: 60 }, (_, second) => countdown(42 * 60_000 - second * 1000)),
    );
    expect([...texts]).toEqual(['42m']);
    expect(countdown(-1)).toBe('0m');
    expect(countdown(30_000)).toBe('under 1m');
    expect(countdown(3 * 3_600_000 + 19 * 60_000 + 30_000)).toBe('3h 20m');
    expect(countdown(52 * 3_600_000)).toBe('2d 4h');
  });

  it('tells an age by the minute, so the text changes once a minute and not every second', () => {
    const texts = new Set(
      Array.from({ length: 60 }, (_, second) => elapsed(42 * 60_000 + second * 1000)),
    );
    expect([...texts]).toEqual(['42m']);
    expect(elapsed(-1)).toBe('under 1m');
    expect(elapsed(59_999)).toBe('under 1m');
    expect(elapsed(3 * 3_600_000 + 20 * 60_000 + 59_000)).toBe('3h 20m');
    expect(elapsed(52 * 3_600_000)).toBe('2d 4h');
  });
});
