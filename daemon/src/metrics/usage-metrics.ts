import { Histogram, type Metric, type Registry } from 'prom-client';
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

interface Sample {
  labels: Labels;
  value: number;
}

/** One figure of a tally, as samples: the label sets are the tally's own objects, not copies. */
function fromTally<F extends string>(tally: Tally<F>, figure: F, extra?: Labels): Sample[] {
  const samples: Sample[] = [];
  for (const { labels, sums } of tally.entries())
    samples.push({ labels: extra ? { ...labels, ...extra } : labels, value: sums[figure] });
  return samples;
}

/**
 * A counter family whose values are the stored totals, handed to the registry as they are: a
 * prom-client Counter would hash every label set again on each scrape (1,500 series of tokens
 * took 12 ms of a 31 ms scrape).
 */
class TotalsFamily {
  readonly type = 'counter';
  readonly aggregator = 'sum';

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly samples: () => Sample[],
  ) {}

  get(): Promise<{
    name: string;
    help: string;
    type: string;
    aggregator: string;
    values: Sample[];
  }> {
    return Promise.resolve({
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: this.aggregator,
      values: this.samples(),
    });
  }

  reset(): void {}
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
  const family = (name: string, help: string, samples: () => Sample[]): void => {
    registry.registerMetric(
      new TotalsFamily(name, help, () => {
        refresh();
        return samples();
      }) as unknown as Metric,
    );
  };
  turnFamilies(family, totals);
  toolFamilies(family, totals);
}

type Family = (name: string, help: string, samples: () => Sample[]) => void;

function turnFamilies(family: Family, totals: UsageTotals): void {
  family('relais_turns_total', 'Turns recorded', () => fromTally(totals.turns, 'turns'));
  family('relais_turn_errors_total', 'Turns that ended in an error', () =>
    fromTally(totals.turns, 'errors'),
  );
  family('relais_model_calls_total', 'Model calls made by turns', () =>
    fromTally(totals.turns, 'model_calls'),
  );
  family(
    'relais_tokens_total',
    'Tokens by kind; reasoning tokens are part of the output ones and count from the daemon start',
    () => TOKEN_KINDS.flatMap(([kind, figure]) => fromTally(totals.turns, figure, { kind })),
  );
  family(
    'relais_cost_usd_total',
    'Estimated cost in US dollars of the turns whose model is in the price table (an estimate, not an invoice)',
    () => fromTally(totals.turns, 'cost'),
  );
  family(
    'relais_turns_unknown_cost_total',
    'Turns whose cost is unknown (model missing from the price table)',
    () => fromTally(totals.turns, 'unknown_cost'),
  );
}

/** Tool calls, and the permission decisions taken on them. */
function toolFamilies(family: Family, totals: UsageTotals): void {
  family('relais_tool_calls_total', 'Tool calls made by turns', () =>
    fromTally(totals.tools, 'calls'),
  );
  family('relais_tool_errors_total', 'Tool calls whose result was an error', () =>
    fromTally(totals.tools, 'errors'),
  );
  family(
    'relais_tool_calls_denied_total',
    'Tool calls a person, a rule or the configuration refused',
    () => fromTally(totals.tools, 'denied'),
  );
  family(
    'relais_permission_decisions_total',
    'Permission decisions by outcome, the rule step and rule that decided, and who decided',
    () => fromTally(totals.decisions, 'count'),
  );
}
