import type { Db } from '../db/database.js';
import { bucketOf, mergeIntoBlob } from './histogram.js';
import { BatchSums, dimsOf, sessionDayRow, slot, toolCells } from './rollup-batch.js';
import { DAY_MS, FIVE_MINUTES_MS, HOUR_MS, KINDS, TOOL_CUBES, type Kind } from './rollup-schema.js';
import type { TurnRecord } from '../agents/turn-record.js';

export { cellKey } from './rollup-batch.js';

/** Adds one newly inserted turn to every rollup; runs inside the writer's transaction. */
export class RollupWriter {
  private readonly turnHist;
  private readonly turnUpsert;
  private readonly session;
  private readonly sessionNext;
  private readonly toolHist;
  private readonly toolUpsert;
  private readonly turnUpsertMany;
  private readonly toolUpsertMany;

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
    this.turnUpsertMany =
      db.prepare(`INSERT INTO usage_rollup VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT DO UPDATE SET turns = turns + excluded.turns, model_calls = model_calls + excluded.model_calls,
        input = input + excluded.input, output = output + excluded.output, cache_read = cache_read + excluded.cache_read,
        cache_creation = cache_creation + excluded.cache_creation, cost = cost + excluded.cost,
        unknown_cost = unknown_cost + excluded.unknown_cost, hist = excluded.hist`);
    this.toolUpsertMany =
      db.prepare(`INSERT INTO usage_tool_rollup VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT DO UPDATE SET calls = calls + excluded.calls, errors = errors + excluded.errors, denied = denied + excluded.denied,
        turns = turns + excluded.turns, hist = excluded.hist`);
  }

  /**
   * Adds many newly inserted turns at once, with the same result as `add` for each: the cells
   * they share are summed in memory first, so a cell is read and written once per batch (a bulk
   * import writes thousands of turns into the same hours and days).
   */
  addMany(turns: TurnRecord[]): void {
    if (turns.length === 1) return this.add(turns[0]!);
    const sums = new BatchSums();
    for (const turn of turns) sums.add(turn);
    sums.settle();
    for (const row of sums.sessions.values())
      if (this.session.run(row).changes > 0) this.sessionNext.run(row);
    for (const { key, cell, turns: count } of sums.tools.values()) {
      const stored = (this.toolHist.get(...key) as Buffer | undefined) ?? null;
      const blob = mergeIntoBlob(stored, cell.durations);
      this.toolUpsertMany.run(...key, cell.calls, cell.errors, cell.denied, count, blob);
    }
    for (const cell of sums.cells.values()) {
      const stored = (this.turnHist.get(...cell.key) as Buffer | undefined) ?? null;
      this.turnUpsertMany.run(
        ...cell.key,
        cell.turns,
        cell.modelCalls,
        cell.input,
        cell.output,
        cell.cacheRead,
        cell.cacheCreation,
        cell.cost,
        cell.unknownCost,
        mergeIntoBlob(stored, cell.durations),
      );
    }
  }

  add(turn: TurnRecord): void {
    const isError = turn.is_error ? 1 : 0;
    const day = slot(turn.started_at_ms, DAY_MS);
    const tools = toolCells(turn);
    for (const kind of KINDS) {
      const dims = dimsOf(kind, turn);
      for (const grain of [HOUR_MS, DAY_MS]) this.addTurn(turn, grain, kind, '');
      for (const e of [isError, -1]) {
        const row = sessionDayRow(kind, dims, e, day, turn.session_id);
        if (this.session.run(row).changes > 0) this.sessionNext.run(row);
      }
      for (const [tool, cell] of tools) {
        const key = [kind, ...dims, isError, day, tool] as const;
        const stored = (this.toolHist.get(...key) as Buffer | undefined) ?? null;
        const blob = mergeIntoBlob(stored, cell.durations);
        this.toolUpsert.run(...key, cell.calls, cell.errors, cell.denied, blob);
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
    const stored = (this.turnHist.get(...key) as Buffer | undefined) ?? null;
    this.turnUpsert.run(
      ...key,
      turn.model_calls,
      turn.input_tokens,
      turn.output_tokens,
      turn.cache_read_tokens,
      turn.cache_creation_tokens,
      turn.cost_usd ?? 0,
      turn.cost_usd === null ? 1 : 0,
      mergeIntoBlob(stored, new Map([[bucketOf(turn.duration_ms), 1]])),
    );
  }
}
