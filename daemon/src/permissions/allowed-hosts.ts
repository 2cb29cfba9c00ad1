import type { AllowedHost } from '../../../contract/api.js';
import type { Db } from '../db/database.js';

/** Host names and ports as the network gate passes them on (lowercase names, bracketed IPv6). */
const HOST = /^[a-z0-9.-]{1,253}$|^\[[0-9a-f:.]{2,45}\]$/;

/** A destination as the gate asks about it, or null when it is not one the gate would ever ask. */
export function destinationOf(
  input: Record<string, unknown>,
): { host: string; port: number } | null {
  const { host, port } = input;
  if (typeof host !== 'string' || !HOST.test(host)) return null;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65_535) return null;
  return { host, port };
}

/**
 * Destinations a person allowed "always" (a Network prompt): host and port, not the host alone, so
 * allowing a web API over 443 does not open its SSH or database ports. Kept in the database, listed
 * and removable on the Rules page (GET/DELETE /api/allowed-hosts).
 */
export class AllowedHosts {
  constructor(private readonly db: Db) {}

  add(host: string, port: number, at: string, decidedBy: string): void {
    this.db
      .prepare(
        'INSERT OR IGNORE INTO allowed_hosts (host, port, created_at, decided_by) VALUES (?, ?, ?, ?)',
      )
      .run(host, port, at, decidedBy);
  }

  has(host: string, port: number): boolean {
    return (
      this.db.prepare('SELECT 1 FROM allowed_hosts WHERE host = ? AND port = ?').get(host, port) !==
      undefined
    );
  }

  list(): AllowedHost[] {
    return this.db
      .prepare('SELECT host, port, created_at, decided_by FROM allowed_hosts ORDER BY host, port')
      .all() as AllowedHost[];
  }

  /** Whether there was such a destination to remove. */
  remove(host: string, port: number): boolean {
    return (
      this.db.prepare('DELETE FROM allowed_hosts WHERE host = ? AND port = ?').run(host, port)
        .changes > 0
    );
  }
}
