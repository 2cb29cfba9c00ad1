import {
  FAST_PAGE,
  FAST_SCROLL,
  OPEN_SLICE_ROWS,
  PAGE,
  SLICE_BUDGET_MS,
  ScrollSpeed,
  SlicePace,
  olderChunk,
} from './conversation-paging';

describe('paging by the reader’s speed', () => {
  it('reads the larger chunk for a fast reader going up, the lighter one otherwise', () => {
    expect(olderChunk(FAST_SCROLL)).toBe(FAST_PAGE);
    expect(olderChunk(FAST_SCROLL * 10)).toBe(FAST_PAGE);
    expect(olderChunk(FAST_SCROLL / 2)).toBe(PAGE);
    expect(olderChunk(-FAST_SCROLL * 10)).toBe(PAGE);
  });

  it('measures the speed over the last moments of the scroll', () => {
    const speed = new ScrollSpeed();
    expect(speed.upwards()).toBe(0);
    speed.note(10_000, 0);
    expect(speed.upwards()).toBe(0);
    // A wheel at 3,000 px a second upwards.
    for (let ms = 16; ms <= 160; ms += 16) speed.note(10_000 - 3 * ms, ms);
    expect(speed.upwards()).toBeCloseTo(3);
    // Then slow, for longer than the span kept: the flick is forgotten.
    for (let ms = 176; ms <= 800; ms += 16) speed.note(9_520 - (ms - 160) / 10, ms);
    expect(speed.upwards()).toBeCloseTo(0.1);
    expect(olderChunk(speed.upwards())).toBe(PAGE);
    // Going down reads as negative.
    speed.reset();
    speed.note(0, 1_000);
    speed.note(500, 1_100);
    expect(speed.upwards()).toBeCloseTo(-5);
  });

  it('takes a drag of the thumb (one large move in a frame) as fast', () => {
    const speed = new ScrollSpeed();
    speed.note(400_000, 5_000);
    speed.note(1_200, 5_016);
    expect(olderChunk(speed.upwards())).toBe(FAST_PAGE);
  });
});

describe('the opening’s slices, sized by what the last one took', () => {
  it('start at OPEN_SLICE_ROWS and keep it while nothing was measured', () => {
    const pace = new SlicePace();
    expect(pace.rows()).toBe(OPEN_SLICE_ROWS);
    pace.note(8, 0);
    pace.note(0, 30);
    pace.note(8, Number.NaN);
    expect(pace.rows()).toBe(OPEN_SLICE_ROWS);
  });

  it('shrink on a slow frame and grow on a fast one, to take the budget', () => {
    const pace = new SlicePace();
    pace.note(8, 4 * SLICE_BUDGET_MS); // four budgets: a quarter of the rows
    expect(pace.rows()).toBe(2);
    pace.note(2, (SLICE_BUDGET_MS * 2) / 3); // two thirds of the budget: three rows
    expect(pace.rows()).toBe(3);
  });

  it('grow at most twofold a slice, and stay between two rows and 24', () => {
    const pace = new SlicePace();
    pace.note(8, 500);
    expect(pace.rows()).toBe(2);
    pace.note(8, 0.5); // a frame that missed the render: twice the slice, not the 384 it implies
    expect(pace.rows()).toBe(16);
    pace.note(16, 0.5);
    expect(pace.rows()).toBe(24);
  });
});
