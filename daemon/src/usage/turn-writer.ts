import type { Db } from '../db/database.js';
import { RollupWriter } from './rollup-writer.js';
import { boundTurn } from './turn-bounds.js';
import type { TurnRecord } from '../agents/turn-record.js';

export interface TurnWriterOptions {
  /**
   * How long a turn may wait for others (default: the next tick). A bulk writer (the history
   * import) gathers larger batches: the rollup cells a batch touches are read and written once.
   */
  delayMs?: number;
  /** Written at once from this many turns waiting. */
  maxBatch?: number;
  /** Runs after each batch is written. */
  afterWrite?: () => void;
  /**
   * Told, inside the batch's transaction, which turns were new (a key already stored is skipped):
   * the bulk writer counts what it wrote without looking each key up first.
   */
  onInserted?: (turns: readonly TurnRecord[]) => void;
  /** Told of each turn that had values out of TURN_BOUNDS (brought within them), and how many. */
  onClamped?: (turn: TurnRecord, count: number) => void;
}

/**
 * Buffers finished turns and writes them, with their tool calls and rollups, in one transaction per
 * batch. The one place turns are recorded, live or imported: each is brought within TURN_BOUNDS here.
 */
export class TurnWriter {
  private readonly pending: TurnRecord[] = [];
  private scheduled = false;
  private readonly insertTurn;
  private readonly insertTool;
  private readonly rollups: RollupWriter;
  private readonly writeBatch: (batch: TurnRecord[]) => void;

  constructor(
    db: Db,
    private readonly options: TurnWriterOptions = {},
  ) {
    this.insertTurn = db.prepare(
      `INSERT OR IGNORE INTO turns (turn_key, session_id, subscription_id, agent, model, models, app, permission_mode,
         started_at_ms, ended_at_ms, duration_ms, model_calls, input_tokens, output_tokens, cache_read_tokens,
         cache_creation_tokens, reasoning_tokens, cost_usd, is_error, error_kind, error_message, tool_call_count)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertTool = db.prepare(
      `INSERT INTO tool_calls (turn_id, session_id, tool_use_id, tool_name, started_at_ms, ended_at_ms, duration_ms,
         is_error, permission_decision, subscription_id, agent, model, app, turn_started_at_ms, turn_is_error)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.rollups = new RollupWriter(db);
    this.writeBatch = db.transaction((batch: TurnRecord[]) => {
      const inserted = batch.filter((turn) => this.insert(turn));
      if (inserted.length === 0) return;
      this.rollups.addMany(inserted);
      this.options.onInserted?.(inserted);
    });
  }

  add(turn: TurnRecord): void {
    this.pending.push(this.bounded(turn));
    if (this.pending.length >= (this.options.maxBatch ?? Infinity)) return this.flush();
    if (this.scheduled) return;
    this.scheduled = true;
    const write = (): void => {
      this.scheduled = false;
      this.flush();
    };
    if (this.options.delayMs) setTimeout(write, this.options.delayMs).unref();
    else setImmediate(write);
  }

  flush(): void {
    if (this.pending.length === 0) return;
    this.writeBatch(this.pending.splice(0, this.pending.length));
    this.options.afterWrite?.();
  }

  /** Whether turns wait to be written. */
  hasPending(): boolean {
    return this.pending.length > 0;
  }

  /** Also used by the seeding script, inside its own transaction. */
  write(turn: TurnRecord): void {
    const bounded = this.bounded(turn);
    if (this.insert(bounded)) this.rollups.add(bounded);
  }

  private bounded(turn: TurnRecord): TurnRecord {
    const { turn: bounded, clamped } = boundTurn(turn);
    if (clamped > 0) this.options.onClamped?.(bounded, clamped);
    return bounded;
  }

  /** The turn's row and its tool calls; false when a turn with its key is already stored. */
  private insert(turn: TurnRecord): boolean {
    const { tool_calls: tools, is_error: isError } = turn;
    // Positional: binding 22 named values from a spread copy of the turn cost more than the insert's JS.
    const result = this.insertTurn.run(
      turn.turn_key,
      turn.session_id,
      turn.subscription_id,
      turn.agent,
      turn.model,
      turn.models.join(','),
      turn.app,
      turn.permission_mode,
      turn.started_at_ms,
      turn.ended_at_ms,
      turn.duration_ms,
      turn.model_calls,
      turn.input_tokens,
      turn.output_tokens,
      turn.cache_read_tokens,
      turn.cache_creation_tokens,
      turn.reasoning_tokens ?? null,
      turn.cost_usd,
      isError ? 1 : 0,
      turn.error_kind,
      turn.error_message,
      tools.length,
    );
    if (result.changes === 0) return false;
    const turnId = Number(result.lastInsertRowid);
    for (const call of tools) {
      this.insertTool.run(
        turnId,
        turn.session_id,
        call.tool_use_id,
        call.tool_name,
        call.started_at_ms,
        call.ended_at_ms,
        call.duration_ms,
        call.is_error === null ? null : call.is_error ? 1 : 0,
        call.permission_decision,
        turn.subscription_id,
        turn.agent,
        turn.model,
        turn.app,
        turn.started_at_ms,
        isError ? 1 : 0,
      );
    }
    return true;
  }
}
