/**
 * Schema migrations, applied in order inside one transaction each. Append only: never edit a
 * migration that has shipped; add the next one at the end. The first four (the schema as first
 * shipped, about 220 lines) are in first-migrations.ts; the order is the schema's history. The
 * migrations that need a feature's code (the usage rollups) are that feature's, listed in its
 * folder; daemon/src/schema.ts puts both in order.
 */
import type { Migration } from './database.js';
import { FIRST_MIGRATIONS } from './first-migrations.js';

/** Sets turns.tool_call_count from the stored tool calls (migration 10; the seeding script too). */
export const TOOL_CALL_COUNT_BACKFILL_SQL = `
  UPDATE turns SET tool_call_count = c.n
    FROM (SELECT turn_id, COUNT(*) AS n FROM tool_calls GROUP BY turn_id) AS c
    WHERE c.turn_id = turns.id;`;

/** The migrations that need no feature's code; the schema is these and the features' (schema.ts). */
export const CORE_MIGRATIONS: Migration[] = [
  ...FIRST_MIGRATIONS,
  {
    version: 6,
    name: 'session-titles',
    // A name a person can tell sessions apart by: the first prompt by default, editable.
    sql: `ALTER TABLE sessions ADD COLUMN title TEXT;`,
  },
  {
    version: 7,
    name: 'history-import',
    // Conversations read from a subscription's own transcripts, and where each file was read to:
    // its identity (device, inode, size, mtime), the byte offset after its last whole line, a hash
    // of the bytes before that offset (an in-place rewrite changes it), and the reader's state.
    sql: `
      ALTER TABLE sessions ADD COLUMN origin TEXT NOT NULL DEFAULT 'relais';
      CREATE INDEX sessions_by_origin ON sessions(origin, id);
      CREATE INDEX sessions_by_agent_session ON sessions(subscription_id, agent_session_id);

      CREATE TABLE history_files (
        path TEXT PRIMARY KEY,
        subscription_id TEXT NOT NULL,
        session_id TEXT,
        native INTEGER NOT NULL DEFAULT 0,
        dev INTEGER NOT NULL,
        ino INTEGER NOT NULL,
        size INTEGER NOT NULL,
        mtime_ms REAL NOT NULL,
        offset INTEGER NOT NULL,
        tail_hash TEXT NOT NULL,
        lines INTEGER NOT NULL DEFAULT 0,
        malformed INTEGER NOT NULL DEFAULT 0,
        reader_state TEXT,
        open_response INTEGER NOT NULL DEFAULT 0,
        error TEXT,
        read_at_ms INTEGER NOT NULL
      );
      CREATE INDEX history_files_by_subscription ON history_files(subscription_id);
      CREATE INDEX history_files_by_session ON history_files(session_id);
    `,
  },
  {
    version: 8,
    name: 'library-and-instructions',
    // Skills and commands Relais places where the agents read them; instructions for new sessions.
    sql: `
      CREATE TABLE library_items (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        subscription_id TEXT,
        enabled INTEGER NOT NULL DEFAULT 1,
        content TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE UNIQUE INDEX library_by_name ON library_items(kind, name, ifnull(subscription_id, ''));

      CREATE TABLE instructions (
        scope TEXT PRIMARY KEY,
        text TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
    `,
  },
  {
    version: 9,
    name: 'reasoning-tokens',
    // Codex reports the reasoning part of its output tokens; Claude does not (null: not reported).
    sql: `ALTER TABLE turns ADD COLUMN reasoning_tokens INTEGER;`,
  },
  {
    version: 10,
    name: 'turn-tool-call-count',
    // Read with every turn (pages, export): a correlated COUNT per row cost the export 40 % of its time.
    sql: `
      ALTER TABLE turns ADD COLUMN tool_call_count INTEGER NOT NULL DEFAULT 0;
      ${TOOL_CALL_COUNT_BACKFILL_SQL}
    `,
  },
  {
    version: 11,
    name: 'events-by-rowid',
    // Events are large rows (a line of an agent, a tool's output): kept in a WITHOUT ROWID table they
    // were stored in the key's b-tree, nearly all on overflow pages, and each insert landed where its
    // session sorts. Rows now go to the end of the table in arrival order; only the small
    // (session, seq) index takes the scattered inserts (1 GB history import: 24 → 30 MB/s).
    sql: `
      CREATE TABLE events_by_arrival (
        id INTEGER PRIMARY KEY,
        session_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        received_at_ms INTEGER NOT NULL,
        source TEXT NOT NULL,
        data TEXT NOT NULL
      );
      INSERT INTO events_by_arrival (session_id, seq, received_at_ms, source, data)
        SELECT session_id, seq, received_at_ms, source, data FROM events ORDER BY session_id, seq;
      DROP TABLE events;
      ALTER TABLE events_by_arrival RENAME TO events;
      CREATE UNIQUE INDEX events_by_session ON events(session_id, seq);
    `,
  },
  {
    version: 14,
    name: 'quota-readings',
    // Every reading of a window, not only the latest: admission learns a session's cost from how
    // utilization moved between two readings. Runs of equal readings keep their first and last.
    sql: `
      CREATE TABLE quota_readings (
        subscription_id TEXT NOT NULL,
        window_name TEXT NOT NULL,
        read_at_ms INTEGER NOT NULL,
        utilization REAL NOT NULL,
        resets_at_ms INTEGER,
        PRIMARY KEY (subscription_id, window_name, read_at_ms)
      ) WITHOUT ROWID;
      INSERT INTO quota_readings (subscription_id, window_name, read_at_ms, utilization, resets_at_ms)
        SELECT subscription_id, window_name, read_at_ms, utilization, resets_at_ms FROM quota_windows
        WHERE utilization IS NOT NULL;
    `,
  },
  {
    version: 15,
    name: 'library-placed-files',
    // What Relais placed in each configuration folder, and the hash of what it wrote there: kept
    // here, not in a file of that folder an agent can edit. The old file is never read.
    sql: `
      CREATE TABLE library_placed (
        config_dir TEXT NOT NULL,
        path TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        PRIMARY KEY (config_dir, path)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 17,
    name: 'session-isolation',
    // 1: commands confined by the operating system; 0: RELAIS_ISOLATION=off; null: imported or older.
    sql: `
      ALTER TABLE sessions ADD COLUMN isolated INTEGER;
      ALTER TABLE sessions ADD COLUMN confined_without_asking INTEGER NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 18,
    name: 'allowed-hosts',
    // Network prompts answered "always": the destination (host and port) passes for every session.
    sql: `
      CREATE TABLE allowed_hosts (
        host TEXT NOT NULL,
        port INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        decided_by TEXT NOT NULL,
        PRIMARY KEY (host, port)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 19,
    name: 'caller-keys',
    // One key per calling tool: only a hash of its secret is kept. Sessions and audit lines say
    // which key launched or decided (null: the owner).
    sql: `
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        secret_hash TEXT NOT NULL,
        prefix TEXT NOT NULL,
        scopes_json TEXT NOT NULL,
        subscriptions_json TEXT NOT NULL,
        created_at TEXT NOT NULL,
        expires_at TEXT,
        revoked_at TEXT,
        last_used_at TEXT,
        last_used_from TEXT
      );
      ALTER TABLE sessions ADD COLUMN key_id TEXT;
      CREATE INDEX sessions_by_key ON sessions(key_id) WHERE key_id IS NOT NULL;
      ALTER TABLE audit ADD COLUMN key_id TEXT;
    `,
  },
  {
    version: 20,
    name: 'archive-chunks',
    // A compressed conversation in chunks of about a megabyte (event-archive.ts); the archive's
    // own row keeps its totals, and its blob is empty unless written whole before the chunks.
    sql: `
      CREATE TABLE event_archive_chunks (
        session_id TEXT NOT NULL,
        first_seq INTEGER NOT NULL,
        last_seq INTEGER NOT NULL,
        event_count INTEGER NOT NULL,
        raw_bytes INTEGER NOT NULL,
        compressed BLOB NOT NULL,
        PRIMARY KEY (session_id, first_seq)
      );
    `,
  },
];
