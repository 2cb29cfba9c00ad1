/**
 * The first four migrations: the schema as first shipped (1), then the permission prompts'
 * audit (2), the usage tables (3) and the operations' tables (4). Shipped: never edited. The list goes on
 * in migrations.ts, where new migrations are appended.
 */
import type { Migration } from './database.js';

export const FIRST_MIGRATIONS: Migration[] = [
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
];
