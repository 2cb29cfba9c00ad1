import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LaunchBrake } from './launch-brake.js';

describe('launch brake', () => {
  const clock = (): { now: () => number; advance(ms: number): void } => {
    let t = 1_000_000;
    return { now: () => t, advance: (ms) => void (t += ms) };
  };

  it('lets 20 launches through in a row, then brakes the 21st with the wait', () => {
    const c = clock();
    const brake = new LaunchBrake({ burst: 20, intervalMs: 3000 }, c.now);
    for (let i = 0; i < 20; i++)
      assert.deepEqual(brake.take(['app:a', 'sub:s']), { allowed: true }, `launch ${i + 1}`);
    assert.deepEqual(brake.take(['app:a', 'sub:s']), { allowed: false, retryAfterMs: 3000 });
    c.advance(1000);
    assert.deepEqual(brake.take(['app:a', 'sub:s']), { allowed: false, retryAfterMs: 2000 });
    c.advance(2000);
    assert.deepEqual(brake.take(['app:a', 'sub:s']), { allowed: true });
    assert.equal(brake.take(['app:a', 'sub:s']).allowed, false, 'then one every 3 s');
  });

  it('brakes per application and per subscription independently', () => {
    const brake = new LaunchBrake({ burst: 2, intervalMs: 3000 }, clock().now);
    assert.equal(brake.take(['app:a', 'sub:s']).allowed, true);
    assert.equal(brake.take(['app:a', 'sub:s']).allowed, true);
    assert.equal(
      brake.take(['app:b', 'sub:s']).allowed,
      false,
      'the subscription is spent even for another app',
    );
    assert.equal(
      brake.take(['app:a', 'sub:t']).allowed,
      false,
      'the app is spent even on another subscription',
    );
    assert.equal(brake.take(['app:b', 'sub:t']).allowed, true);
  });

  it('a refusal takes nothing from the other keys', () => {
    const brake = new LaunchBrake({ burst: 1, intervalMs: 3000 }, clock().now);
    assert.equal(brake.take(['app:a']).allowed, true);
    assert.equal(brake.take(['app:a', 'sub:s']).allowed, false);
    assert.equal(brake.take(['app:b', 'sub:s']).allowed, true, 'sub:s still had its launch');
  });

  it('says the wait before a launch without spending one', () => {
    const c = clock();
    const brake = new LaunchBrake({ burst: 2, intervalMs: 3000 }, c.now);
    assert.equal(brake.waitMs(['app:a', 'sub:s']), 0);
    brake.take(['app:a', 'sub:s']);
    for (let i = 0; i < 5; i++) assert.equal(brake.waitMs(['app:a', 'sub:s']), 0, 'asking is free');
    brake.take(['app:a', 'sub:s']);
    assert.equal(brake.waitMs(['app:a', 'sub:s']), 3000);
    assert.equal(brake.waitMs(['app:b', 'sub:s']), 3000, 'the subscription is spent for every app');
    assert.equal(brake.waitMs(['app:b', 'sub:t']), 0);
    c.advance(1000);
    assert.equal(brake.waitMs(['app:a', 'sub:s']), 2000);
    assert.deepEqual(brake.take(['app:a', 'sub:s']), { allowed: false, retryAfterMs: 2000 });
  });

  it('never refills past the burst', () => {
    const c = clock();
    const brake = new LaunchBrake({ burst: 3, intervalMs: 1000 }, c.now);
    brake.take(['k']);
    c.advance(3_600_000);
    for (let i = 0; i < 3; i++) assert.equal(brake.take(['k']).allowed, true);
    assert.equal(brake.take(['k']).allowed, false);
  });
});
