/**
 * Schema migrations, applied in order inside one transaction each. Append only: never edit a
 * migration that has shipped; add the next one. One list on purpose (about 400 lines): the order
 * is the schema's history, read in one place. The migrations that need a feature's code (the usage
 * rollups) are that feature's, listed in its folder; daemon/src/schema.ts puts both in order.
 */
import type { Migration } from './database.js';

/** Sets turns.tool_call_count from the stored tool calls (migration 10; the seeding script too). */
export const TOOL_CALL_COUNT_BACKFILL_SQL = `
  UPDATE turns SET tool_call_count = c.n
    FROM (SELECT turn_id, COUNT(*) AS n FROM tool_calls GROUP BY turn_id) AS c
    WHERE c.turn_id = turns.id;`;

/** The migrations that need no feature's code; the schema is these and the features' (schema.ts). */
export const CORE_MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'foundation',
    sql: `
      CREATE TABLE subscriptions (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        agent TEXT NOT NULL,
        config_dir TEXT NOT NULL,
        builtin INTEGER NOT NULL DEFAULT 0,
        account_json TEXT,
        account_key TEXT,
        models_json TEXT NOT NULL DEFAULT '[]',
        detected_at TEXT,
        detect_error TEXT,
        created_at TEXT NOT NULL
      );

      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        subscription_id TEXT NOT NULL,
        agent TEXT NOT NULL,
        model TEXT NOT NULL,
        cwd TEXT NOT NULL,
        effort TEXT,
        permission_mode TEXT NOT NULL,
        app TEXT NOT NULL,
        state TEXT NOT NULL,
        end_reason TEXT,
        end_detail TEXT,
        agent_session_id TEXT,
        pid INTEGER,
        created_at TEXT NOT NULL,
        ended_at TEXT,
        deadline_at TEXT NOT NULL,
        max_deadline_at TEXT NOT NULL,
        last_seq INTEGER NOT NULL DEFAULT 0,
        turns INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX sessions_by_state ON sessions(state, created_at);
      CREATE INDEX sessions_by_subscription ON sessions(subscription_id, created_at);
      CREATE INDEX sessions_by_app ON sessions(app, created_at);

      CREATE TABLE events (
        session_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        received_at_ms INTEGER NOT NULL,
        source TEXT NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (session_id, seq)
      ) WITHOUT ROWID;

      CREATE TABLE permission_requests (
        id TEXT PRIMARY KEY,
        session_id TEXT NOT NULL,
        control_request_id TEXT NOT NULL,
        tool_name TEXT NOT NULL,
        tool_use_id TEXT,
        input_json TEXT NOT NULL,
        description TEXT,
        blocked_path TEXT,
        is_question INTEGER NOT NULL,
        state TEXT NOT NULL,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        decided_at TEXT,
        decided_by TEXT,
        scope TEXT,
        message TEXT
      );
      CREATE INDEX permissions_by_state ON permission_requests(state, created_at);
      CREATE INDEX permissions_by_session ON permission_requests(session_id, created_at);

      CREATE TABLE queue_entries (
        id TEXT PRIMARY KEY,
        session_id TEXT NOT NULL,
        text TEXT NOT NULL,
        position INTEGER NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX queue_by_session ON queue_entries(session_id, position);

      CREATE TABLE session_rules (
        session_id TEXT NOT NULL,
        tool_name TEXT NOT NULL,
        match TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (session_id, tool_name, match)
      );

      CREATE TABLE agent_processes (
        session_id TEXT PRIMARY KEY,
        pid INTEGER NOT NULL,
        started_at TEXT NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'audit',
    sql: `
      CREATE TABLE audit (
        id INTEGER PRIMARY KEY,
        time_ms INTEGER NOT NULL,
        kind TEXT NOT NULL,
        session_id TEXT,
        subscription_id TEXT,
        tool_name TEXT,
        input_summary TEXT,
        step TEXT,
        rule TEXT,
        decision TEXT NOT NULL,
        decided_by TEXT NOT NULL,
        detail TEXT
      );
      CREATE INDEX audit_by_time ON audit(time_ms);
      CREATE INDEX audit_by_session ON audit(session_id, time_ms);
      CREATE INDEX audit_by_tool ON audit(tool_name, time_ms);
    `,
  },
  {
    version: 3,
    name: 'usage',
    sql: `
      CREATE TABLE turns (
        id INTEGER PRIMARY KEY,
        turn_key TEXT NOT NULL UNIQUE,
        session_id TEXT NOT NULL,
        subscription_id TEXT NOT NULL,
        agent TEXT NOT NULL,
        model TEXT NOT NULL,
        models TEXT NOT NULL,
        app TEXT NOT NULL,
        permission_mode TEXT NOT NULL,
        started_at_ms INTEGER NOT NULL,
        ended_at_ms INTEGER NOT NULL,
        duration_ms INTEGER NOT NULL,
        model_calls INTEGER NOT NULL,
        input_tokens INTEGER NOT NULL,
        output_tokens INTEGER NOT NULL,
        cache_read_tokens INTEGER NOT NULL,
        cache_creation_tokens INTEGER NOT NULL,
        cost_usd REAL,
        is_error INTEGER NOT NULL,
        error_kind TEXT,
        error_message TEXT
      );
      CREATE INDEX turns_by_time ON turns(started_at_ms);
      CREATE INDEX turns_by_session ON turns(session_id, started_at_ms);
      CREATE INDEX turns_by_subscription ON turns(subscription_id, started_at_ms);
      CREATE INDEX turns_by_model ON turns(model, started_at_ms);
      CREATE INDEX turns_by_app ON turns(app, started_at_ms);

      CREATE TABLE tool_calls (
        id INTEGER PRIMARY KEY,
        turn_id INTEGER NOT NULL,
        session_id TEXT NOT NULL,
        tool_use_id TEXT NOT NULL,
        tool_name TEXT NOT NULL,
        started_at_ms INTEGER NOT NULL,
        ended_at_ms INTEGER,
        duration_ms INTEGER,
        is_error INTEGER,
        permission_decision TEXT,
        subscription_id TEXT NOT NULL,
        agent TEXT NOT NULL,
        model TEXT NOT NULL,
        app TEXT NOT NULL,
        turn_started_at_ms INTEGER NOT NULL,
        turn_is_error INTEGER NOT NULL
      );
      CREATE INDEX tool_calls_by_turn ON tool_calls(turn_id);
      CREATE INDEX tool_calls_by_tool ON tool_calls(tool_name, turn_id, duration_ms, is_error, permission_decision);
      CREATE INDEX tool_calls_by_time ON tool_calls(turn_started_at_ms);

      CREATE TABLE quota_windows (
        subscription_id TEXT NOT NULL,
        window_name TEXT NOT NULL,
        utilization REAL,
        resets_at_ms INTEGER,
        read_at_ms INTEGER NOT NULL,
        source TEXT NOT NULL,
        PRIMARY KEY (subscription_id, window_name)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 4,
    name: 'operations',
    sql: `
      CREATE TABLE subscription_health (
        subscription_id TEXT PRIMARY KEY,
        consecutive_failures INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        suspended_at TEXT,
        next_wait_seconds INTEGER NOT NULL DEFAULT 60
      );

      ALTER TABLE sessions ADD COLUMN conversation TEXT NOT NULL DEFAULT 'hot';
      CREATE INDEX sessions_by_end ON sessions(state, ended_at);

      CREATE TABLE event_archives (
        session_id TEXT PRIMARY KEY,
        first_seq INTEGER NOT NULL,
        last_seq INTEGER NOT NULL,
        event_count INTEGER NOT NULL,
        raw_bytes INTEGER NOT NULL,
        compressed BLOB NOT NULL,
        compressed_at TEXT NOT NULL
      );

      CREATE TABLE logs (
        id INTEGER PRIMARY KEY,
        time_ms INTEGER NOT NULL,
        level INTEGER NOT NULL,
        msg TEXT NOT NULL,
        session_id TEXT,
        line TEXT NOT NULL
      );
      CREATE INDEX logs_by_session ON logs(session_id, id);

      CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    `,
  },
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
];
