import { ARM_DELAY_MS, Arming } from './arming';

describe('Arming', () => {
  it('arms only after the prompt has been in view for the delay', () => {
    const arming = new Arming();
    expect(ARM_DELAY_MS).toBeGreaterThanOrEqual(600);
    expect(arming.check(0)).toBe(false);
    expect(arming.remaining(0)).toBe(null);
    arming.shown(1000);
    expect(arming.check(1000)).toBe(false);
    // A double click lands about 100-500 ms after the first: still unarmed.
    expect(arming.check(1000 + 500)).toBe(false);
    expect(arming.remaining(1500)).toBe(ARM_DELAY_MS - 500);
    expect(arming.check(1000 + ARM_DELAY_MS - 1)).toBe(false);
    expect(arming.check(1000 + ARM_DELAY_MS)).toBe(true);
    expect(arming.armed).toBe(true);
  });

  it('starts over when the prompt leaves the view before arming', () => {
    const arming = new Arming(700);
    arming.shown(0);
    arming.hidden();
    arming.shown(600);
    expect(arming.check(800)).toBe(false);
    expect(arming.check(1300)).toBe(true);
  });

  it('counts from the first sighting, not from repeated ones', () => {
    const arming = new Arming(700);
    arming.shown(0);
    arming.shown(500);
    expect(arming.check(700)).toBe(true);
  });

  it('stays armed once armed', () => {
    const arming = new Arming(700);
    arming.shown(0);
    arming.check(700);
    arming.hidden();
    expect(arming.check(701)).toBe(true);
    expect(arming.remaining(701)).toBe(0);
  });

  it('disarms again when re-armed, counting from then', () => {
    const arming = new Arming(700);
    arming.shown(0);
    expect(arming.check(5000)).toBe(true);
    arming.rearm(6000, true);
    expect(arming.check(6300)).toBe(false);
    expect(arming.check(6700)).toBe(true);
    arming.rearm(7000, false);
    expect(arming.check(9000)).toBe(false);
    arming.shown(9000);
    expect(arming.check(9700)).toBe(true);
  });
});
