import { Counter, Histogram, type Registry } from 'prom-client';
import type { Db } from '../db/database.js';
import type { LabelCaps } from './label-cap.js';
import type { Labels, Tally } from './tally.js';
import { UsageTotals, type TurnFigure } from './usage-totals.js';

const TURN_LABELS = ['subscription', 'agent', 'model', 'app'];
/** Turn durations run from a second to the better part of an hour. */
const TURN_BUCKETS = [1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1200, 1800, 3600];

/** The token kinds, as the label reads, and the turn figure each one sums. */
const TOKEN_KINDS: [string, TurnFigure][] = [
  ['input', 'input'],
  ['output', 'output'],
  ['cache_read', 'cache_read'],
  ['cache_write', 'cache_write'],
  ['reasoning', 'reasoning'],
];

/**
 * Reports one figure of a tally as a counter family: a scrape sets each series to the stored
 * total (reset, then one increment per label set), so the counter is exactly what is stored.
 */
function fromTally<F extends string>(
  counter: Counter,
  tally: Tally<F>,
  figure: F,
  extra: Labels = {},
): void {
  for (const { labels, sums } of tally.entries())
    counter.inc({ ...labels, ...extra }, sums[figure]);
}

/** Turns, tokens, cost, tool calls and permission decisions: the counters the rollups answer. */
export function usageMetrics(
  registry: Registry,
  db: Db,
  caps: LabelCaps,
  update: () => void,
): void {
  let durations: Histogram | null = null;
  const totals = new UsageTotals(db, caps, (labels, ms) => durations?.observe(labels, ms / 1000));
  // Every family below reads the same totals: they are brought up to date once per scrape.
  let updating: Promise<unknown> | null = null;
  const refresh = (): void => {
    if (updating) return;
    update();
    totals.update();
    updating = Promise.resolve().then(() => (updating = null));
  };
  // The history up to now is read once here, at start: the histogram counts the turns after it.
  totals.update();
  durations = new Histogram({
    name: 'relais_turn_duration_seconds',
    help: 'Duration of the turns recorded since the daemon started (prompt to result)',
    labelNames: TURN_LABELS,
    buckets: TURN_BUCKETS,
    registers: [registry],
    collect: refresh,
  });
  const family = (
    name: string,
    help: string,
    labelNames: string[],
    fill: (counter: Counter) => void,
  ): Counter =>
    new Counter({
      name,
      help,
      labelNames,
      registers: [registry],
      collect() {
        refresh();
        this.reset();
        fill(this);
      },
    });
  family('relais_turns_total', 'Turns recorded', TURN_LABELS, (c) =>
    fromTally(c, totals.turns, 'turns'),
  );
  family('relais_turn_errors_total', 'Turns that ended in an error', TURN_LABELS, (c) =>
    fromTally(c, totals.turns, 'errors'),
  );
  family('relais_model_calls_total', 'Model calls made by turns', TURN_LABELS, (c) =>
    fromTally(c, totals.turns, 'model_calls'),
  );
  family(
    'relais_tokens_total',
    'Tokens by kind; reasoning tokens are part of the output ones and count from the daemon start',
    [...TURN_LABELS, 'kind'],
    (c) => {
      for (const [kind, figure] of TOKEN_KINDS) fromTally(c, totals.turns, figure, { kind });
    },
  );
  family(
    'relais_cost_usd_total',
    'Estimated cost in US dollars of the turns whose model is in the price table (an estimate, not an invoice)',
    TURN_LABELS,
    (c) => fromTally(c, totals.turns, 'cost'),
  );
  family(
    'relais_turns_unknown_cost_total',
    'Turns whose cost is unknown (model missing from the price table)',
    TURN_LABELS,
    (c) => fromTally(c, totals.turns, 'unknown_cost'),
  );
  family('relais_tool_calls_total', 'Tool calls made by turns', ['tool'], (c) =>
    fromTally(c, totals.tools, 'calls'),
  );
  family('relais_tool_errors_total', 'Tool calls whose result was an error', ['tool'], (c) =>
    fromTally(c, totals.tools, 'errors'),
  );
  family(
    'relais_tool_calls_denied_total',
    'Tool calls a person, a rule or the configuration refused',
    ['tool'],
    (c) => fromTally(c, totals.tools, 'denied'),
  );
  family(
    'relais_permission_decisions_total',
    'Permission decisions by outcome, the rule step and rule that decided, and who decided',
    ['outcome', 'step', 'rule', 'decided_by'],
    (c) => fromTally(c, totals.decisions, 'count'),
  );
}
