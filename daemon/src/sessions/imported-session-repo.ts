import { randomBytes } from 'node:crypto';
import type { AgentKind } from '../../../contract/api.js';
import { isModelName } from '../../../contract/names.js';
import type { Db } from '../db/database.js';
import { nowIso } from '../ids.js';
import { plausibleTimeMs } from '../usage/turn-bounds.js';
import { titleFromPrompt } from './session-title.js';

/** What a read of an agent's transcript tells about its conversation (history's reading of it). */
export interface ImportedFacts {
  firstAtMs: number | null;
  lastAtMs: number | null;
  cwd: string | null;
  model: string | null;
  prompt: string | null;
  title: string | null;
}

/**
 * The session rows of imported conversations. One per conversation of the agent (its own id is
 * kept as `agent_session_id`, which Resume continues); the id sorts by the conversation's start,
 * so the sessions list shows old conversations among Relais' own by date.
 */
export class ImportedSessionRepo {
  private readonly native;
  private readonly starting;
  private readonly imported;
  private readonly insert;
  private readonly update;
  private readonly turns;

  constructor(db: Db) {
    this.native = db
      .prepare(
        "SELECT 1 FROM sessions WHERE subscription_id = ? AND agent_session_id = ? AND origin = 'relais' LIMIT 1",
      )
      .pluck();
    this.starting = db
      .prepare(
        "SELECT 1 FROM sessions WHERE subscription_id = ? AND origin = 'relais' AND agent_session_id IS NULL AND state != 'ended' LIMIT 1",
      )
      .pluck();
    this.imported = db
      .prepare(
        "SELECT id FROM sessions WHERE subscription_id = ? AND agent_session_id = ? AND origin = 'imported' LIMIT 1",
      )
      .pluck();
    this.insert = db.prepare(
      `INSERT INTO sessions (id, origin, subscription_id, agent, model, cwd, effort, permission_mode, app, title,
         state, agent_session_id, created_at, ended_at, deadline_at, max_deadline_at)
       VALUES (@id, 'imported', @subscription_id, @agent, 'unknown', '', NULL, 'read_only', 'imported', NULL,
         'ended', @conversation, @at, @at, @at, @at)`,
    );
    this.update = db.prepare(
      `UPDATE sessions SET
         cwd = CASE WHEN cwd = '' AND @cwd IS NOT NULL THEN @cwd ELSE cwd END,
         model = CASE WHEN model = 'unknown' AND @model IS NOT NULL THEN @model ELSE model END,
         title = COALESCE(@title, title, @prompt),
         created_at = CASE WHEN @first IS NOT NULL AND @first < created_at THEN @first ELSE created_at END,
         ended_at = CASE WHEN @last IS NOT NULL AND @last > ended_at THEN @last ELSE ended_at END
       WHERE id = @id`,
    );
    this.turns = db.prepare('UPDATE sessions SET turns = turns + ? WHERE id = ?');
  }

  /** Whether Relais launched this conversation itself (then the agent's transcript is a copy). */
  isNative(subscriptionId: string, conversation: string): boolean {
    return this.native.get(subscriptionId, conversation) !== undefined;
  }

  /** Whether one of Relais' own sessions of the subscription runs without its agent's id yet. */
  isStarting(subscriptionId: string): boolean {
    return this.starting.get(subscriptionId) !== undefined;
  }

  find(subscriptionId: string, conversation: string): string | null {
    return (this.imported.get(subscriptionId, conversation) as string | undefined) ?? null;
  }

  create(subscriptionId: string, agent: AgentKind, conversation: string, fileAtMs: number): string {
    const atMs = plausibleTimeMs(fileAtMs);
    const id = `ses_${Math.max(0, Math.floor(atMs)).toString(36).padStart(8, '0')}${randomBytes(8).toString('hex')}`;
    this.insert.run({
      id,
      subscription_id: subscriptionId,
      agent,
      conversation,
      at: nowIso(atMs),
    });
    return id;
  }

  learn(id: string, facts: ImportedFacts): void {
    this.update.run({
      id,
      cwd: facts.cwd,
      // What a transcript says is checked: a model name by its rule, times within plausible bounds.
      model: facts.model !== null && isModelName(facts.model) ? facts.model : null,
      title: facts.title === null ? null : titleFromPrompt(facts.title),
      prompt: facts.prompt === null ? null : titleFromPrompt(facts.prompt),
      first: facts.firstAtMs === null ? null : nowIso(plausibleTimeMs(facts.firstAtMs)),
      last: facts.lastAtMs === null ? null : nowIso(plausibleTimeMs(facts.lastAtMs)),
    });
  }

  /** Counts model responses newly stored for the conversation. */
  addTurns(id: string, count: number): void {
    this.turns.run(count, id);
  }
}
