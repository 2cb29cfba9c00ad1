import { LatestAsk } from './latest-ask';

describe('LatestAsk', () => {
  it('only the last question asked is current, and a change made here supersedes them all', () => {
    const latest = new LatestAsk();
    const first = latest.ask();
    expect(first()).toBe(true);
    const second = latest.ask();
    expect(first()).toBe(false);
    expect(second()).toBe(true);
    latest.supersede();
    expect(second()).toBe(false);
    expect(latest.ask()()).toBe(true);
  });
});
