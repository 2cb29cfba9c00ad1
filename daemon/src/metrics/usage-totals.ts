import type { Db } from '../db/database.js';
import { DAY_MS } from '../usage/rollup-schema.js';
import type { LabelCaps } from './label-cap.js';
import { Tally, type Labels } from './tally.js';

export const TURN_FIGURES = [
  'turns',
  'errors',
  'model_calls',
  'input',
  'output',
  'cache_read',
  'cache_write',
  'reasoning',
  'cost',
  'unknown_cost',
] as const;
export type TurnFigure = (typeof TURN_FIGURES)[number];
export const TOOL_FIGURES = ['calls', 'errors', 'denied'] as const;
export const DECISION_FIGURES = ['count'] as const;

interface TurnRow {
  subscription_id: string;
  agent: string;
  model: string;
  app: string;
  turns: number;
  errors: number;
  model_calls: number;
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
  reasoning: number | null;
  cost: number;
  unknown_cost: number;
}

interface NewTurn extends TurnRow {
  duration_ms: number;
}

/**
 * Totals of turns, tool calls and permission decisions for the metrics, kept flat in the size
 * of the history: seeded once from the rollups (and the audit trail), then topped up on each
 * scrape with the rows added since (their ids only grow: turns, tool calls and audit rows are
 * never deleted). Reasoning tokens are not in the rollups: they count from the daemon's start.
 */
export class UsageTotals {
  readonly turns = new Tally(TURN_FIGURES);
  readonly tools = new Tally(TOOL_FIGURES);
  readonly decisions = new Tally(DECISION_FIGURES);
  private seen: { turn: number; tool: number; audit: number } | null = null;
  private readonly newTurns;
  private readonly newTools;
  private readonly newDecisions;

  constructor(
    private readonly db: Db,
    private readonly caps: LabelCaps,
    /** Told each turn's duration, once, as it is first seen (the duration histogram). */
    private readonly onTurn: (labels: Labels, durationMs: number) => void = () => undefined,
  ) {
    this.newTurns = db.prepare(
      `SELECT id, subscription_id, agent, model, app, 1 AS turns, is_error AS errors, model_calls,
         input_tokens AS input, output_tokens AS output, cache_read_tokens AS cache_read,
         cache_creation_tokens AS cache_write, reasoning_tokens AS reasoning, ifnull(cost_usd, 0) AS cost,
         cost_usd IS NULL AS unknown_cost, duration_ms
       FROM turns WHERE id > ? ORDER BY id`,
    );
    this.newTools = db.prepare(
      `SELECT id, tool_name, ifnull(is_error, 0) AS errors,
         permission_decision IN ('denied', 'auto_denied') AS denied
       FROM tool_calls WHERE id > ? ORDER BY id`,
    );
    this.newDecisions = db.prepare(
      `SELECT id, decision, decided_by, step, rule FROM audit WHERE kind = 'decision' AND id > ? ORDER BY id`,
    );
  }

  /** Brings the totals up to what is stored now. */
  update(): void {
    if (!this.seen) return this.seed();
    for (const row of this.newTurns.iterate(this.seen.turn) as Iterable<NewTurn & { id: number }>) {
      const labels = this.turnLabels(row);
      this.turns.add(labels, row);
      this.onTurn(labels, row.duration_ms);
      this.seen.turn = row.id;
    }
    const tools = this.newTools.iterate(this.seen.tool) as Iterable<ToolRow & { id: number }>;
    for (const row of tools) {
      this.addTool(row);
      this.seen.tool = row.id;
    }
    const decisions = this.newDecisions.iterate(this.seen.audit) as Iterable<
      DecisionRow & { id: number }
    >;
    for (const row of decisions) {
      this.addDecision({ ...row, count: 1 });
      this.seen.audit = row.id;
    }
  }

  /** The whole history once, from the rollups: a row per day and cell, not per turn. */
  private seed(): void {
    const maxId = (table: string, where = ''): number =>
      (this.db
        .prepare(`SELECT ifnull(MAX(id), 0) FROM ${table} ${where}`)
        .pluck()
        .get() as number) ?? 0;
    this.seen = { turn: maxId('turns'), tool: maxId('tool_calls'), audit: maxId('audit') };
    const turnRows = this.db
      .prepare(
        `SELECT subscription_id, agent, model, app, SUM(turns) AS turns, SUM(turns * is_error) AS errors,
           SUM(model_calls) AS model_calls, SUM(input) AS input, SUM(output) AS output,
           SUM(cache_read) AS cache_read, SUM(cache_creation) AS cache_write, TOTAL(cost) AS cost,
           SUM(unknown_cost) AS unknown_cost
         FROM usage_rollup WHERE grain = ? AND kind = 'all' AND tool_name = ''
         GROUP BY subscription_id, agent, model, app ORDER BY turns DESC`,
      )
      .all(DAY_MS) as TurnRow[];
    for (const row of turnRows) this.turns.add(this.turnLabels(row), { ...row, reasoning: 0 });
    const toolRows = this.db
      .prepare(
        `SELECT tool_name, SUM(calls) AS calls, SUM(errors) AS errors, SUM(denied) AS denied
         FROM usage_tool_rollup WHERE kind = 'none' GROUP BY tool_name ORDER BY calls DESC`,
      )
      .all() as (ToolRow & { calls: number })[];
    for (const row of toolRows) this.addTool(row);
    const decisionRows = this.db
      .prepare(
        `SELECT decision, decided_by, step, rule, COUNT(*) AS count FROM audit WHERE kind = 'decision'
         GROUP BY decision, decided_by, step, rule ORDER BY count DESC`,
      )
      .all() as (DecisionRow & { count: number })[];
    for (const row of decisionRows) this.addDecision(row);
  }

  private turnLabels(row: Pick<TurnRow, 'subscription_id' | 'agent' | 'model' | 'app'>): Labels {
    return {
      subscription: this.caps.subscription.of(row.subscription_id),
      agent: this.caps.agent.of(row.agent),
      model: this.caps.model.of(row.model),
      app: this.caps.app.of(row.app),
    };
  }

  private addTool(row: ToolRow & { calls?: number }): void {
    this.tools.add({ tool: this.caps.tool.of(row.tool_name) }, { calls: 1, ...row });
  }

  private addDecision(row: DecisionRow & { count: number }): void {
    const labels = {
      outcome: this.caps.outcome.of(row.decision),
      step: this.caps.step.of(row.step ?? 'none'),
      rule: this.caps.rule.of(row.rule ?? 'none'),
      decided_by: this.caps.decidedBy.of(row.decided_by),
    };
    this.decisions.add(labels, { count: row.count });
  }
}

interface ToolRow {
  tool_name: string;
  errors: number;
  denied: number;
}

interface DecisionRow {
  decision: string;
  decided_by: string;
  step: string | null;
  rule: string | null;
}
