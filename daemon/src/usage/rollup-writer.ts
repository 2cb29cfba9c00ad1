import type { Db } from '../db/database.js';
import { bucketOf, countInto, mergeIntoBlob, type BucketCounts } from './histogram.js';
import {
  DAY_MS,
  DIMENSIONS,
  FIVE_MINUTES_MS,
  HOUR_MS,
  KINDS,
  TOOL_CUBES,
  type Kind,
} from './rollup-schema.js';
import type { TurnRecord } from '../agents/turn-record.js';

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

/**
 * A cell's key in a batch's maps: its parts joined on NUL, or their JSON when a part holds a NUL
 * (a model or a tool name comes from a transcript), so that two cells never share a key. Joining
 * is three times as fast as JSON, and a batch builds about twenty keys per turn.
 */
export function cellKey(parts: readonly (string | number)[]): string {
  for (const part of parts)
    if (typeof part === 'string' && part.includes('\u0000')) return JSON.stringify(parts);
  return parts.join('\u0000');
}

interface ToolCell {
  calls: number;
  errors: number;
  denied: number;
  durations: BucketCounts;
}

const NUL = '\u0000';

/**
 * The key of a turn's cells in a batch's maps, built from parts joined once per turn: `head` is
 * the kind and its dimensions, `rest` the cell's other parts. When a part of the turn holds a NUL
 * (its model or a tool name come from a transcript) the whole key falls back to `cellKey`'s JSON.
 */
class TurnKeys {
  private readonly plain: boolean;

  constructor(turn: TurnRecord, tools: Map<string, ToolCell>) {
    const parts = [turn.subscription_id, turn.agent, turn.model, turn.app, turn.session_id];
    this.plain = !parts.some((part) => part.includes(NUL));
    for (const tool of tools.keys()) if (tool.includes(NUL)) this.plain = false;
  }

  head(kind: Kind, dims: Dims): string {
    return this.plain ? kind + NUL + dims.join(NUL) : '';
  }

  of(head: string, key: () => (string | number)[], ...rest: (string | number)[]): string {
    return this.plain ? head + NUL + rest.join(NUL) : cellKey(key());
  }
}

/** A batch of turns summed in memory by cell, so that each cell is written once. */
class BatchSums {
  readonly cells = new Map<string, TurnCell>();
  readonly sessions = new Map<string, Record<string, string | number>>();
  readonly tools = new Map<string, { key: (string | number)[]; cell: ToolCell; turns: number }>();

  add(turn: TurnRecord): void {
    const isError = turn.is_error ? 1 : 0;
    const day = slot(turn.started_at_ms, DAY_MS);
    const tools = toolCells(turn);
    const bucket = bucketOf(turn.duration_ms);
    const keys = new TurnKeys(turn, tools);
    for (const kind of KINDS) {
      const dims = dimsOf(kind, turn);
      const head = keys.head(kind, dims);
      for (const grain of [HOUR_MS, DAY_MS])
        sumTurn(this.cells, turn, bucket, { grain, kind, tool: '', dims, head, keys });
      for (const e of [isError, -1])
        this.noteSession(keys, head, kind, dims, e, day, turn.session_id);
      for (const [tool, cell] of tools) {
        const key = (): (string | number)[] => [kind, ...dims, isError, day, tool];
        this.sumTool(keys.of(head, key, 't', isError, day, tool), key, cell);
      }
    }
    const none = dimsOf('none', turn);
    const noneHead = keys.head('none', none);
    sumTurn(this.cells, turn, bucket, {
      grain: FIVE_MINUTES_MS,
      kind: 'none',
      tool: '',
      dims: none,
      head: noneHead,
      keys,
    });
    for (const { kind, grain } of TOOL_CUBES) {
      const dims = dimsOf(kind, turn);
      const head = keys.head(kind, dims);
      for (const tool of tools.keys())
        sumTurn(this.cells, turn, bucket, { grain, kind, tool, dims, head, keys });
    }
  }

  private noteSession(
    keys: TurnKeys,
    head: string,
    kind: Kind,
    dims: Dims,
    e: number,
    day: number,
    session: string,
  ): void {
    const id = keys.of(head, () => [kind, ...dims, e, day, session], 's', e, day, session);
    if (this.sessions.has(id)) return;
    this.sessions.set(id, {
      kind,
      s: dims[0],
      a: dims[1],
      m: dims[2],
      p: dims[3],
      e,
      day,
      session,
    });
  }

  private sumTool(id: string, key: () => (string | number)[], cell: ToolCell): void {
    const sum = this.tools.get(id);
    if (!sum) {
      this.tools.set(id, { key: key(), cell: copyCell(cell), turns: 1 });
      return;
    }
    sum.cell.calls += cell.calls;
    sum.cell.errors += cell.errors;
    sum.cell.denied += cell.denied;
    for (const [b, n] of cell.durations) countInto(sum.cell.durations, b, n);
    sum.turns++;
  }
}

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

function toolCells(turn: TurnRecord): Map<string, ToolCell> {
  const cells = new Map<string, ToolCell>();
  for (const call of turn.tool_calls) {
    let cell = cells.get(call.tool_name);
    if (!cell)
      cells.set(call.tool_name, (cell = { calls: 0, errors: 0, denied: 0, durations: new Map() }));
    cell.calls++;
    if (call.is_error === true) cell.errors++;
    if (call.permission_decision === 'denied' || call.permission_decision === 'auto_denied')
      cell.denied++;
    if (call.duration_ms !== null) countInto(cell.durations, bucketOf(call.duration_ms));
  }
  return cells;
}

interface TurnCell {
  key: (string | number)[];
  turns: number;
  modelCalls: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheCreation: number;
  cost: number;
  unknownCost: number;
  durations: BucketCounts;
}

/** Where one turn is summed: its cell's grain, kind, tool and dimensions, and its key's head. */
interface TurnTarget {
  grain: number;
  kind: Kind;
  tool: string;
  dims: Dims;
  head: string;
  keys: TurnKeys;
}

function sumTurn(
  cells: Map<string, TurnCell>,
  turn: TurnRecord,
  bucket: number,
  { grain, kind, tool, dims, head, keys }: TurnTarget,
): void {
  const e = turn.is_error ? 1 : 0;
  const t = slot(turn.started_at_ms, grain);
  const key = (): (string | number)[] => [grain, kind, tool, ...dims, e, t];
  const id = keys.of(head, key, 'r', grain, tool, e, t);
  let cell = cells.get(id);
  if (!cell)
    cells.set(
      id,
      (cell = {
        key: key(),
        turns: 0,
        modelCalls: 0,
        input: 0,
        output: 0,
        cacheRead: 0,
        cacheCreation: 0,
        cost: 0,
        unknownCost: 0,
        durations: new Map(),
      }),
    );
  cell.turns++;
  cell.modelCalls += turn.model_calls;
  cell.input += turn.input_tokens;
  cell.output += turn.output_tokens;
  cell.cacheRead += turn.cache_read_tokens;
  cell.cacheCreation += turn.cache_creation_tokens;
  cell.cost += turn.cost_usd ?? 0;
  cell.unknownCost += turn.cost_usd === null ? 1 : 0;
  countInto(cell.durations, bucket);
}

function copyCell(cell: ToolCell): ToolCell {
  const { calls, errors, denied, durations } = cell;
  return { calls, errors, denied, durations: new Map(durations) };
}
