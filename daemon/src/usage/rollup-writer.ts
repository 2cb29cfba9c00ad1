import type { Db } from '../db/database.js';
import { Histogram } from './histogram.js';
import {
  DAY_MS,
  DIMENSIONS,
  FIVE_MINUTES_MS,
  HOUR_MS,
  KINDS,
  TOOL_CUBES,
  type Kind,
} from './rollup-schema.js';
import type { TurnRecord } from './turn-record.js';

type Dims = [string, string, string, string];

function dimsOf(kind: Kind, turn: TurnRecord): Dims {
  const value = {
    subscription: turn.subscription_id,
    agent: turn.agent,
    model: turn.model,
    app: turn.app,
  };
  return DIMENSIONS.map((d) => (kind === 'all' || kind === d ? value[d] : '')) as Dims;
}

const slot = (ms: number, grain: number): number => Math.floor(ms / grain) * grain;

interface ToolCell {
  calls: number;
  errors: number;
  denied: number;
  hist: Histogram;
}

/** Adds one newly inserted turn to every rollup; runs inside the writer's transaction. */
export class RollupWriter {
  private readonly turnHist;
  private readonly turnUpsert;
  private readonly session;
  private readonly sessionNext;
  private readonly toolHist;
  private readonly toolUpsert;

  constructor(db: Db) {
    const turnKey =
      'grain = ? AND kind = ? AND tool_name = ? AND subscription_id = ? AND agent = ? AND model = ? AND app = ? AND is_error = ? AND t = ?';
    this.turnHist = db.prepare(`SELECT hist FROM usage_rollup WHERE ${turnKey}`).pluck();
    this.turnUpsert =
      db.prepare(`INSERT INTO usage_rollup VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT DO UPDATE SET turns = turns + 1, model_calls = model_calls + excluded.model_calls, input = input + excluded.input,
        output = output + excluded.output, cache_read = cache_read + excluded.cache_read,
        cache_creation = cache_creation + excluded.cache_creation, cost = cost + excluded.cost,
        unknown_cost = unknown_cost + excluded.unknown_cost, hist = excluded.hist`);
    const cell =
      'kind = @kind AND subscription_id = @s AND agent = @a AND model = @m AND app = @p AND is_error = @e AND session_id = @session';
    this.session =
      db.prepare(`INSERT OR IGNORE INTO usage_sessions VALUES (@kind, @s, @a, @m, @p, @e, @day, @session,
      (SELECT MAX(day) FROM usage_sessions WHERE ${cell} AND day < @day))`);
    this.sessionNext = db.prepare(`UPDATE usage_sessions SET prev_day = @day WHERE ${cell}
      AND day = (SELECT MIN(day) FROM usage_sessions WHERE ${cell} AND day > @day)`);
    const toolKey =
      'kind = ? AND subscription_id = ? AND agent = ? AND model = ? AND app = ? AND is_error = ? AND day = ? AND tool_name = ?';
    this.toolHist = db.prepare(`SELECT hist FROM usage_tool_rollup WHERE ${toolKey}`).pluck();
    this.toolUpsert =
      db.prepare(`INSERT INTO usage_tool_rollup VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)
      ON CONFLICT DO UPDATE SET calls = calls + excluded.calls, errors = errors + excluded.errors, denied = denied + excluded.denied,
        turns = turns + 1, hist = excluded.hist`);
  }

  add(turn: TurnRecord): void {
    const isError = turn.is_error ? 1 : 0;
    const day = slot(turn.started_at_ms, DAY_MS);
    const tools = toolCells(turn);
    for (const kind of KINDS) {
      const dims = dimsOf(kind, turn);
      for (const grain of [HOUR_MS, DAY_MS]) this.addTurn(turn, grain, kind, '');
      for (const e of [isError, -1]) {
        const row = {
          kind,
          s: dims[0],
          a: dims[1],
          m: dims[2],
          p: dims[3],
          e,
          day,
          session: turn.session_id,
        };
        if (this.session.run(row).changes > 0) this.sessionNext.run(row);
      }
      for (const [tool, cell] of tools) {
        const key = [kind, ...dims, isError, day, tool] as const;
        const hist = new Histogram();
        hist.addBlob((this.toolHist.get(...key) as Buffer | undefined) ?? null);
        hist.merge(cell.hist);
        this.toolUpsert.run(...key, cell.calls, cell.errors, cell.denied, hist.toBlob());
      }
    }
    this.addTurn(turn, FIVE_MINUTES_MS, 'none', '');
    for (const { kind, grain } of TOOL_CUBES)
      for (const tool of tools.keys()) this.addTurn(turn, grain, kind, tool);
  }

  private addTurn(turn: TurnRecord, grain: number, kind: Kind, tool: string): void {
    const key = [
      grain,
      kind,
      tool,
      ...dimsOf(kind, turn),
      turn.is_error ? 1 : 0,
      slot(turn.started_at_ms, grain),
    ] as const;
    const hist = new Histogram();
    hist.addBlob((this.turnHist.get(...key) as Buffer | undefined) ?? null);
    hist.addValue(turn.duration_ms);
    this.turnUpsert.run(
      ...key,
      turn.model_calls,
      turn.input_tokens,
      turn.output_tokens,
      turn.cache_read_tokens,
      turn.cache_creation_tokens,
      turn.cost_usd ?? 0,
      turn.cost_usd === null ? 1 : 0,
      hist.toBlob(),
    );
  }
}

function toolCells(turn: TurnRecord): Map<string, ToolCell> {
  const cells = new Map<string, ToolCell>();
  for (const call of turn.tool_calls) {
    let cell = cells.get(call.tool_name);
    if (!cell)
      cells.set(call.tool_name, (cell = { calls: 0, errors: 0, denied: 0, hist: new Histogram() }));
    cell.calls++;
    if (call.is_error === true) cell.errors++;
    if (call.permission_decision === 'denied' || call.permission_decision === 'auto_denied')
      cell.denied++;
    if (call.duration_ms !== null) cell.hist.addValue(call.duration_ms);
  }
  return cells;
}
