import type { Db } from '../db/database.js';

/**
 * The record of the files Relais placed in a configuration folder (path relative to it, and the
 * SHA-256 of what it wrote), in Relais' own database: a file is removed only when this record
 * names it and it still holds those bytes.
 */
export class PlacedFiles {
  constructor(private readonly db: Db) {}

  of(configDir: string): Map<string, string> {
    const rows = this.db
      .prepare('SELECT path, sha256 FROM library_placed WHERE config_dir = ?')
      .all(configDir) as { path: string; sha256: string }[];
    return new Map(rows.map((row) => [row.path, row.sha256]));
  }

  /** Replaces a folder's record with `placed`. */
  save(configDir: string, placed: ReadonlyMap<string, string>): void {
    const remove = this.db.prepare('DELETE FROM library_placed WHERE config_dir = ?');
    const insert = this.db.prepare(
      'INSERT INTO library_placed (config_dir, path, sha256) VALUES (?, ?, ?)',
    );
    this.db.transaction(() => {
      remove.run(configDir);
      for (const [path, sha256] of placed) insert.run(configDir, path, sha256);
    })();
  }
}
