import { FAST_PAGE, FAST_SCROLL, PAGE, ScrollSpeed, olderChunk } from './conversation-paging';

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
