import { bucketOf, countInto, type BucketCounts } from './histogram.js';
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

export type Dims = [string, string, string, string];

export function dimsOf(kind: Kind, turn: TurnRecord): Dims {
  const value = {
    subscription: turn.subscription_id,
    agent: turn.agent,
    model: turn.model,
    app: turn.app,
  };
  return DIMENSIONS.map((d) => (kind === 'all' || kind === d ? value[d] : '')) as Dims;
}

/** The parameters of one session-day rollup row (its kind, dimensions, error flag, day, session). */
export function sessionDayRow(
  kind: Kind,
  dims: Dims,
  e: number,
  day: number,
  session: string,
): Record<string, string | number> {
  return { kind, s: dims[0], a: dims[1], m: dims[2], p: dims[3], e, day, session };
}

export const slot = (ms: number, grain: number): number => Math.floor(ms / grain) * grain;

const NUL = '\u0000';

/**
 * A cell's key in a batch's maps: its parts joined on NUL, or their JSON when a part holds a NUL
 * (a model or a tool name comes from a transcript), so that two cells never share a key. Joining
 * is three times as fast as JSON.
 */
export function cellKey(parts: readonly (string | number)[]): string {
  for (const part of parts)
    if (typeof part === 'string' && part.includes(NUL)) return JSON.stringify(parts);
  return parts.join(NUL);
}

export interface ToolCell {
  calls: number;
  errors: number;
  denied: number;
  durations: BucketCounts;
}

/** What turns add to a turn rollup cell. */
export interface TurnSums {
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

export interface TurnCell extends TurnSums {
  key: (string | number)[];
}

const noSums = (): TurnSums => ({
  turns: 0,
  modelCalls: 0,
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheCreation: 0,
  cost: 0,
  unknownCost: 0,
  durations: new Map(),
});

function addTurnTo(sums: TurnSums, turn: TurnRecord, bucket: number): void {
  sums.turns++;
  sums.modelCalls += turn.model_calls;
  sums.input += turn.input_tokens;
  sums.output += turn.output_tokens;
  sums.cacheRead += turn.cache_read_tokens;
  sums.cacheCreation += turn.cache_creation_tokens;
  sums.cost += turn.cost_usd ?? 0;
  sums.unknownCost += turn.cost_usd === null ? 1 : 0;
  countInto(sums.durations, bucket);
}

function addSumsTo(sums: TurnSums, from: TurnSums): void {
  sums.turns += from.turns;
  sums.modelCalls += from.modelCalls;
  sums.input += from.input;
  sums.output += from.output;
  sums.cacheRead += from.cacheRead;
  sums.cacheCreation += from.cacheCreation;
  sums.cost += from.cost;
  sums.unknownCost += from.unknownCost;
  for (const [b, n] of from.durations) countInto(sums.durations, b, n);
}

export function toolCells(turn: TurnRecord): Map<string, ToolCell> {
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

function addToolTo(sum: ToolCell, cell: ToolCell): void {
  sum.calls += cell.calls;
  sum.errors += cell.errors;
  sum.denied += cell.denied;
  for (const [b, n] of cell.durations) countInto(sum.durations, b, n);
}

/** One tool's share of a group: the turns that called it, and its calls. */
interface GroupTool {
  sums: TurnSums;
  cell: ToolCell;
  turns: number;
}

/**
 * Turns that land in the same cells of every rollup: same dimensions, session, error flag and
 * five minutes (the finest grain). A batch sums its turns by group first, then each group into
 * its cells: a session's turns come close together, so a group holds many turns, and the twenty
 * or so cell keys are built per group rather than per turn.
 */
interface Group {
  turn: TurnRecord;
  fiveMinutes: number;
  sums: TurnSums;
  tools: Map<string, GroupTool>;
}

function groupKey(turn: TurnRecord, fiveMinutes: number): string {
  const e = turn.is_error ? 1 : 0;
  const { subscription_id: s, agent, model, app, session_id: session } = turn;
  return cellKey([s, agent, model, app, session, e, fiveMinutes]);
}

/**
 * The key of a group's cells in a batch's maps, built from parts joined once per group: `head` is
 * the kind and its dimensions, `rest` the cell's other parts. When a part of the turn holds a NUL
 * (its model or a tool name come from a transcript) the whole key falls back to `cellKey`'s JSON.
 */
class GroupKeys {
  private readonly plain: boolean;

  constructor(turn: TurnRecord, tools: Map<string, unknown>) {
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

/** Where a group is summed: its cell's grain, kind, tool and dimensions, and its key's head. */
interface Target {
  grain: number;
  kind: Kind;
  tool: string;
  dims: Dims;
  head: string;
  keys: GroupKeys;
}

/** A batch of turns summed in memory by cell, so that each cell is written once. */
export class BatchSums {
  readonly cells = new Map<string, TurnCell>();
  readonly sessions = new Map<string, Record<string, string | number>>();
  readonly tools = new Map<string, { key: (string | number)[]; cell: ToolCell; turns: number }>();
  private readonly groups = new Map<string, Group>();

  add(turn: TurnRecord): void {
    const fiveMinutes = slot(turn.started_at_ms, FIVE_MINUTES_MS);
    const id = groupKey(turn, fiveMinutes);
    let group = this.groups.get(id);
    if (!group)
      this.groups.set(id, (group = { turn, fiveMinutes, sums: noSums(), tools: new Map() }));
    const bucket = bucketOf(turn.duration_ms);
    addTurnTo(group.sums, turn, bucket);
    for (const [tool, cell] of toolCells(turn)) {
      let share = group.tools.get(tool);
      if (!share) {
        share = {
          sums: noSums(),
          cell: { calls: 0, errors: 0, denied: 0, durations: new Map() },
          turns: 0,
        };
        group.tools.set(tool, share);
      }
      addTurnTo(share.sums, turn, bucket);
      addToolTo(share.cell, cell);
      share.turns++;
    }
  }

  /** Sums the groups into their cells: call once, after the last `add`. */
  settle(): void {
    for (const group of this.groups.values()) this.addGroup(group);
    this.groups.clear();
  }

  private addGroup({ turn, fiveMinutes, sums, tools }: Group): void {
    const isError = turn.is_error ? 1 : 0;
    const day = slot(fiveMinutes, DAY_MS);
    const keys = new GroupKeys(turn, tools);
    for (const kind of KINDS) {
      const dims = dimsOf(kind, turn);
      const head = keys.head(kind, dims);
      for (const grain of [HOUR_MS, DAY_MS])
        this.sumInto(sums, isError, fiveMinutes, { grain, kind, tool: '', dims, head, keys });
      for (const e of [isError, -1])
        this.noteSession(keys, head, kind, dims, e, day, turn.session_id);
      for (const [tool, share] of tools) {
        const key = (): (string | number)[] => [kind, ...dims, isError, day, tool];
        this.sumTool(keys.of(head, key, 't', isError, day, tool), key, share);
      }
    }
    const none = dimsOf('none', turn);
    const noneHead = keys.head('none', none);
    const target = { kind: 'none', tool: '', dims: none, head: noneHead, keys } as const;
    this.sumInto(sums, isError, fiveMinutes, { ...target, grain: FIVE_MINUTES_MS });
    for (const { kind, grain } of TOOL_CUBES) {
      const dims = dimsOf(kind, turn);
      const head = keys.head(kind, dims);
      for (const [tool, share] of tools)
        this.sumInto(share.sums, isError, fiveMinutes, { grain, kind, tool, dims, head, keys });
    }
  }

  private sumInto(sums: TurnSums, e: number, fiveMinutes: number, target: Target): void {
    const { grain, kind, tool, dims, head, keys } = target;
    const t = slot(fiveMinutes, grain);
    const key = (): (string | number)[] => [grain, kind, tool, ...dims, e, t];
    const id = keys.of(head, key, 'r', grain, tool, e, t);
    let cell = this.cells.get(id);
    if (!cell) this.cells.set(id, (cell = { key: key(), ...noSums() }));
    addSumsTo(cell, sums);
  }

  private noteSession(
    keys: GroupKeys,
    head: string,
    kind: Kind,
    dims: Dims,
    e: number,
    day: number,
    session: string,
  ): void {
    const id = keys.of(head, () => [kind, ...dims, e, day, session], 's', e, day, session);
    if (this.sessions.has(id)) return;
    this.sessions.set(id, sessionDayRow(kind, dims, e, day, session));
  }

  private sumTool(id: string, key: () => (string | number)[], share: GroupTool): void {
    const sum = this.tools.get(id);
    if (!sum) {
      const { calls, errors, denied, durations } = share.cell;
      const cell = { calls, errors, denied, durations: new Map(durations) };
      this.tools.set(id, { key: key(), cell, turns: share.turns });
      return;
    }
    addToolTo(sum.cell, share.cell);
    sum.turns += share.turns;
  }
}
