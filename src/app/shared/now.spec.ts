import { TestBed } from '@angular/core/testing';
import { Now } from './now';

describe('Now', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-12-03T10:00:42.500Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('the minute clock moves on each minute of the wall clock only, the second clock each second', () => {
    const now = TestBed.inject(Now);
    const minutes: number[] = [];
    let seconds = 0;
    let lastSecond = now.ms();
    for (let step = 0; step < 150; step++) {
      vi.advanceTimersByTime(1000);
      if (now.ms() !== lastSecond) seconds++;
      lastSecond = now.ms();
      if (minutes.at(-1) !== now.minute()) minutes.push(now.minute());
    }
    expect(seconds).toBe(150);
    // From 10:00:42.5 to 10:03:12.5: it moved on each minute, and nowhere else.
    expect(minutes.slice(1).map((ms) => new Date(ms).toISOString())).toEqual([
      '2026-12-03T10:01:00.000Z',
      '2026-12-03T10:02:00.000Z',
      '2026-12-03T10:03:00.000Z',
    ]);
  });
});
