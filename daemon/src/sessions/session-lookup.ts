import type { SessionMeta } from '../agents/turn-record.js';
import type { Db } from '../db/database.js';

/**
 * Point reads of one session row for the other capabilities (the key guard, quotas, usage), each
 * statement prepared once: they run on every request or every stored event.
 */
export class SessionLookup {
  private readonly key;
  private readonly launch;

  constructor(db: Db) {
    this.key = db.prepare('SELECT key_id FROM sessions WHERE id = ?').pluck();
    this.launch = db.prepare(
      "SELECT subscription_id, agent, model, app, permission_mode FROM sessions WHERE id = ? AND origin = 'relais'",
    );
  }

  /** The caller key that launched the session: null for the owner, undefined for no such session. */
  keyOf(sessionId: string): string | null | undefined {
    return this.key.get(sessionId) as string | null | undefined;
  }

  /** What one of Relais' own sessions was launched with; undefined for an imported or unknown one. */
  launchOf(sessionId: string): SessionMeta | undefined {
    return this.launch.get(sessionId) as SessionMeta | undefined;
  }
}
