import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';

/** The daemon's sources, from the built test's place (dist/daemon/daemon/src/db). */
const SOURCES = join(import.meta.dirname, '..', '..', '..', '..', '..', 'daemon', 'src');

/**
 * Each table and the files that may write to it: its repository. Others read it (joins for a
 * report) or call the repository. A new table needs its owner named here.
 */
const OWNERS: Record<string, string[]> = {
  sessions: [
    'sessions/session-repo.ts',
    'sessions/imported-session-repo.ts',
    'sessions/session-marks-repo.ts',
  ],
  agent_processes: ['sessions/agent-process-repo.ts'],
  queue_entries: ['sessions/queue-repo.ts'],
  events: ['events/event-store.ts', 'events/event-archive.ts'],
  event_archives: ['events/event-archive.ts'],
  permission_requests: ['permissions/permission-repo.ts'],
  session_rules: ['permissions/permission-repo.ts'],
  allowed_hosts: ['permissions/allowed-hosts.ts'],
  audit: ['permissions/audit-log.ts'],
  api_keys: ['keys/keys-repo.ts'],
  history_files: ['history/file-cursors.ts'],
  instructions: ['library/instructions-repo.ts'],
  library_items: ['library/library-repo.ts'],
  library_placed: ['library/placed-files.ts'],
  logs: ['diagnostics/log-sink.ts'],
  quota_readings: ['quotas/quota-repo.ts'],
  quota_windows: ['quotas/quota-repo.ts'],
  subscriptions: ['subscriptions/subscription-repo.ts'],
  subscription_health: ['admission/subscription-health.ts'],
  turns: ['usage/turn-writer.ts'],
  tool_calls: ['usage/turn-writer.ts'],
  usage_rollup: ['usage/rollup-writer.ts'],
  usage_sessions: ['usage/rollup-writer.ts'],
  usage_tool_rollup: ['usage/rollup-writer.ts'],
  usage_session_days: ['usage/rollup-writer.ts'],
  usage_session_values: ['usage/rollup-writer.ts'],
  usage_session_spread: ['usage/rollup-writer.ts'],
  schema_migrations: ['db/database.ts'],
};

/** Files that build or migrate the schema: a migration may move any table's rows. */
const SCHEMA_BUILDERS = [
  /^db\/migrations(\.ts|\/)/,
  /^usage\/rollup-schema\.ts$/,
  /^usage\/stored-turn-bounds\.ts$/,
];

/** Written SQL: a keyword in capitals, then a table name in lower case. */
const WRITE =
  /\b(?:INSERT(?: OR [A-Z]+)? INTO|REPLACE INTO|UPDATE|DELETE FROM)\s+([a-z_][a-z0-9_]*)\b/g;

/** Words after a write keyword that are not tables (an English sentence in a rule's reason). */
const NOT_TABLES = new Set(['without']);

function productionFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : productionFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every write in the daemon's production code, as "table <- file". */
function writesOutsideOwners(): string[] {
  const wrong: string[] = [];
  for (const path of productionFiles(SOURCES)) {
    const file = relative(SOURCES, path).split('\\').join('/');
    if (SCHEMA_BUILDERS.some((builder) => builder.test(file))) continue;
    for (const [, table] of readFileSync(path, 'utf8').matchAll(WRITE)) {
      if (NOT_TABLES.has(table!)) continue;
      if (!(OWNERS[table!] ?? []).includes(file)) wrong.push(`${table} <- ${file}`);
    }
  }
  return [...new Set(wrong)].sort();
}

describe('one repository owns each table', () => {
  it('finds the sources it checks', () => {
    assert.ok(productionFiles(SOURCES).length > 100);
  });

  it('no production file writes to a table outside its repository', () => {
    assert.deepEqual(writesOutsideOwners(), []);
  });
});
