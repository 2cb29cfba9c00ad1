import Database from 'better-sqlite3';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

export type Db = Database.Database;

export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** Runs after the SQL, in the same transaction: for work that depends on what the data holds. */
  after?: (db: Db) => void;
}

/**
 * Opens (creating if needed) the SQLite file in WAL mode and applies the pending ones of
 * `migrations` (the whole schema is daemon/src/schema.ts's SCHEMA).
 */
export function openDatabase(file: string, migrations: readonly Migration[]): Db {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  // Conversations are private: the file is created 0600, and SQLite gives its WAL the same mode.
  closeSync(openSync(file, 'a', 0o600));
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db, migrations);
  return db;
}

function migrate(db: Db, migrations: readonly Migration[]): void {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  const applied = new Set(
    db
      .prepare('SELECT version FROM schema_migrations')
      .all()
      .map((row) => (row as { version: number }).version),
  );
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (applied.has(migration.version)) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      migration.after?.(db);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        new Date().toISOString(),
      );
    })();
  }
}

/** The SQLite library's version, as the diagnostics show it. */
export function sqliteVersion(db: Db): string {
  return (db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
}

/**
 * A read-only connection to the same file, for readers that must not hold the writer's
 * connection. `mmapBytes` maps that much of the file: SQLite then reads rows, and the blobs that
 * overflow their page, from memory instead of a system call per page. The pages read count in
 * the process's resident memory (they are the file's, and the kernel takes them back as it needs).
 */
export function openReader(file: string, mmapBytes = 0): Db {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  if (mmapBytes > 0) db.pragma(`mmap_size = ${Math.floor(mmapBytes)}`);
  return db;
}
