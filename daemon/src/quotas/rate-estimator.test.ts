import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  estimateRate,
  unitsBetween,
  type UsageSlice,
  type WindowReading,
} from './rate-estimator.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
/** The prior of these histories: 1 % of the window per 1000 units; the true rate is twice that. */
const PRIOR = 0.001;
const TRUE = 0.002;

/**
 * A recorded history, built step by step: the provider's counter (exact), what it reports (whole
 * percents, as the usage endpoint does) and the turns Relais recorded.
 */
class History {
  readonly readings: WindowReading[] = [];
  readonly usage: UsageSlice[] = [];
  private at = Date.parse('2026-03-02T08:00:00Z');
  private exact: number;
  private resetsAt: number;

  constructor(startPercent = 0, resetsInMs = 4 * 24 * HOUR) {
    this.exact = startPercent;
    this.resetsAt = this.at + resetsInMs;
  }

  now(): number {
    return this.at;
  }

  read(): this {
    this.readings.push({
      utilization: Math.round(this.exact),
      resets_at_ms: this.resetsAt,
      read_at_ms: this.at,
    });
    return this;
  }

  wait(ms: number): this {
    this.at += ms;
    return this;
  }

  /** A Relais session of one turn lasting `ms`, counted by the provider at `rate`. */
  session(id: string, units: number, ms = MIN, rate = TRUE): this {
    this.usage.push({ session_id: id, started_at_ms: this.at, ended_at_ms: this.at + ms, units });
    this.exact += units * rate;
    return this.wait(ms);
  }

  /** Use the provider counts and Relais never sees: the person's own terminal, another machine. */
  outside(points: number): this {
    this.exact += points;
    return this;
  }

  reset(): this {
    this.exact = 0;
    this.resetsAt = this.at + 5 * HOUR;
    return this;
  }
}

const near = (actual: number, expected: number, tolerance: number, what: string): void =>
  assert.ok(
    Math.abs(actual - expected) <= tolerance * expected,
    `${what}: ${actual} is not within ${tolerance * 100} % of ${expected}`,
  );

describe('the rate estimator, on recorded histories', () => {
  it('a window at 36 % before any Relais session: the 36 % is never put on Relais', () => {
    const h = new History(36)
      .read()
      .wait(5 * MIN)
      .read();
    h.session('hello-1', 195).read().session('hello-2', 195).read();
    let estimate = estimateRate({ readings: h.readings, usage: h.usage, prior: PRIOR });
    // 390 units moved the reported figure by less than one step: only "at most 1 % per 390 units"
    // is known, which says less than the prior.
    assert.equal(estimate.source, 'prior');
    assert.equal(estimate.percentPerUnit, PRIOR);
    assert.ok(estimate.percentPerUnit * 195 < 1, 'a two-line session costs well under 1 %');

    h.wait(MIN)
      .read()
      .session('heavy', 10_000, 3 * MIN)
      .read();
    estimate = estimateRate({ readings: h.readings, usage: h.usage, prior: PRIOR });
    assert.equal(estimate.source, 'learned');
    assert.equal(estimate.sessions, 3);
    near(estimate.percentPerUnit, TRUE, 0.1, 'learned rate');
  });

  it('usage from outside Relais between readings is left out, alone or mixed with a session', () => {
    const h = new History(10).read();
    for (let i = 0; i < 6; i++) {
      h.session(`s${i}`, 5000, 2 * MIN)
        .read()
        .wait(3 * MIN);
      if (i === 2) h.outside(15).read(); // nothing of Relais ran: 15 points from elsewhere
      if (i === 4) h.outside(25); // lands in the same pair as the next session
      h.read();
    }
    const estimate = estimateRate({ readings: h.readings, usage: h.usage, prior: PRIOR });
    assert.equal(estimate.source, 'learned');
    near(estimate.percentPerUnit, TRUE, 0.1, 'rate with outside use left out');
    assert.ok(estimate.pairs.outside >= 2, `outside pairs: ${JSON.stringify(estimate.pairs)}`);
    // Today's rule (utilization ÷ everything recorded) would say (10 + 60 + 40) / 30000.
    assert.ok(estimate.percentPerUnit < 0.0025);
  });

  it('a reset in the middle: the drop is no evidence, both windows teach the rate', () => {
    const h = new History(80, 30 * MIN).read();
    h.session('a', 3000, 5 * MIN)
      .read()
      .session('b', 3000, 5 * MIN)
      .read();
    h.wait(25 * MIN)
      .reset()
      .read(); // past the reset: a new window, 0 %
    h.session('c', 3000, 5 * MIN)
      .read()
      .session('d', 3000, 5 * MIN)
      .read();
    const estimate = estimateRate({ readings: h.readings, usage: h.usage, prior: PRIOR });
    assert.equal(estimate.pairs.reset, 1);
    assert.equal(estimate.sessions, 4);
    near(estimate.percentPerUnit, TRUE, 0.1, 'rate across a reset');
    assert.ok(estimate.percentPerUnit > 0);
  });

  it('a reading that stayed away for hours: the jump it brings is not put on the sessions between', () => {
    const h = new History(5).read();
    h.session('a', 5000, 2 * MIN)
      .read()
      .session('b', 5000, 2 * MIN)
      .read();
    // The endpoint failed for three hours; sessions ran and so did someone else.
    h.wait(HOUR)
      .session('c', 5000, 5 * MIN)
      .outside(30)
      .wait(2 * HOUR)
      .read();
    h.session('d', 5000, 2 * MIN).read();
    const estimate = estimateRate({ readings: h.readings, usage: h.usage, prior: PRIOR });
    assert.equal(estimate.pairs.gap, 1);
    near(estimate.percentPerUnit, TRUE, 0.1, 'rate without the stale gap');
    assert.equal(estimate.sessions, 3, 'c is only in the gap');
  });

  it('no reading, or a single one: the prior', () => {
    const h = new History(36).session('a', 5000);
    for (const readings of [[], [{ utilization: 36, resets_at_ms: null, read_at_ms: h.now() }]]) {
      const estimate = estimateRate({ readings, usage: h.usage, prior: PRIOR });
      assert.deepEqual(
        { rate: estimate.percentPerUnit, source: estimate.source, sessions: estimate.sessions },
        { rate: PRIOR, source: 'prior', sessions: 0 },
      );
    }
  });

  it('many small sessions, each below one reported step: the rounding cancels out', () => {
    const h = new History(20).read();
    for (let i = 0; i < 40; i++) h.session(`s${i}`, 400, MIN).read().wait(MIN);
    const estimate = estimateRate({ readings: h.readings, usage: h.usage, prior: PRIOR });
    assert.equal(estimate.source, 'learned');
    near(estimate.percentPerUnit, TRUE, 0.1, 'rate from 0.8 % steps');
  });

  it('a cheap account: units that never move the window bring the rate below the prior', () => {
    const h = new History(3).read();
    for (let i = 0; i < 20; i++) h.session(`s${i}`, 5000, MIN, 0.00001).read();
    const estimate = estimateRate({ readings: h.readings, usage: h.usage, prior: PRIOR });
    assert.equal(estimate.source, 'learned');
    // 100 000 units moved it one step: at most 2 steps per 100 000 units, a fiftieth of the prior.
    assert.ok(estimate.percentPerUnit <= 2 / 100_000 + 1e-12, `${estimate.percentPerUnit}`);
  });

  it('only the last 40 sessions count: an older, dearer period is forgotten', () => {
    const h = new History(0).read();
    for (let i = 0; i < 30; i++) h.session(`old${i}`, 2000, MIN, 0.004).read();
    for (let i = 0; i < 40; i++) h.session(`new${i}`, 2000, MIN).read();
    const estimate = estimateRate({ readings: h.readings, usage: h.usage, prior: PRIOR });
    assert.equal(estimate.sessions, 40);
    near(estimate.percentPerUnit, TRUE, 0.1, 'rate of the last 40');
  });

  it('a pair whose turn is still open waits until the turn is recorded', () => {
    const h = new History(0)
      .read()
      .session('a', 10_000, 2 * MIN)
      .read();
    const openSince = h.now();
    h.wait(2 * MIN)
      .outside(20)
      .read(); // the open turn's 20 points, its units not recorded yet
    const estimate = estimateRate({
      readings: h.readings,
      usage: h.usage,
      prior: PRIOR,
      settledUntilMs: openSince,
    });
    assert.equal(estimate.pairs.pending, 1);
    near(estimate.percentPerUnit, TRUE, 0.1, 'rate before the open turn');
  });

  it('a reading inside a short turn is no boundary: its one big call may fall either side', () => {
    const t = Date.parse('2026-03-02T08:00:00Z');
    const resets = t + 3 * HOUR;
    const readings = [
      { utilization: 30, resets_at_ms: resets, read_at_ms: t },
      // The turn's one call (10 000 units, 20 points) was counted at t + 5 s; read at t + 10 s.
      { utilization: 50, resets_at_ms: resets, read_at_ms: t + 10_000 },
      { utilization: 50, resets_at_ms: resets, read_at_ms: t + 2 * MIN },
    ];
    const usage = [
      { session_id: 'heavy', started_at_ms: t + 1000, ended_at_ms: t + MIN, units: 10_000 },
    ];
    const estimate = estimateRate({ readings, usage, prior: PRIOR });
    assert.equal(estimate.source, 'learned');
    near(estimate.percentPerUnit, TRUE, 0.01, 'rate of the whole turn');
  });

  it('units are spread over the turn: a reading in the middle of a turn takes its share', () => {
    const usage = [{ session_id: 's', started_at_ms: 0, ended_at_ms: 100, units: 1000 }];
    assert.equal(unitsBetween(usage, 0, 25).get('s'), 250);
    assert.equal(unitsBetween(usage, 100, 200).size, 0);
    const instant = [{ session_id: 's', started_at_ms: 50, ended_at_ms: 50, units: 10 }];
    assert.equal(unitsBetween(instant, 0, 50).get('s'), 10);
    assert.equal(unitsBetween(instant, 50, 60).size, 0);
  });
});
