import type { Db } from '../db/database.js';
import { nowIso } from '../ids.js';

/**
 * The `agent_processes` table: the pid each running session's agent started with, so that a
 * restart finds what a crash left behind. Its one owner.
 */
export class AgentProcessRepo {
  constructor(private readonly db: Db) {}

  started(sessionId: string, pid: number): void {
    this.db
      .prepare(
        'INSERT OR REPLACE INTO agent_processes (session_id, pid, started_at) VALUES (?, ?, ?)',
      )
      .run(sessionId, pid, nowIso());
  }

  ended(sessionId: string): void {
    this.db.prepare('DELETE FROM agent_processes WHERE session_id = ?').run(sessionId);
  }

  /** After a restart: every process a previous run recorded has been ended. */
  clear(): void {
    this.db.prepare('DELETE FROM agent_processes').run();
  }
}
