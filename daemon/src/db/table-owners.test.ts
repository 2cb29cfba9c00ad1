import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { SCHEMA } from '../schema.js';
import { openDatabase } from './database.js';

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
  event_archive_chunks: ['events/event-archive.ts'],
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
  /** Made by the first migration for settings kept in the database; nothing writes it yet. */
  settings: [],
};

/** Files that build or migrate the schema: a migration may move any table's rows. */
const SCHEMA_BUILDERS = [
  /^db\/migrations(\.ts|\/)/,
  /^usage\/rollup-schema\.ts$/,
  /^usage\/stored-turn-bounds\.ts$/,
];

/**
 * Written SQL, whatever its case or quotes: the word after the keyword is kept when it names a
 * table of the schema (so that a sentence such as "update the list" is not taken for one).
 */
const WRITE =
  /\b(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|REPLACE\s+INTO|UPDATE(?:\s+OR\s+\w+)?|DELETE\s+FROM)\s+["'`[]?(\w+)/gi;

/** The tables of the schema as the daemon builds it. */
function schemaTables(): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'relais-owners-'));
  try {
    const db = openDatabase(join(dir, 'relais.db'), SCHEMA);
    const names = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .pluck()
      .all() as string[];
    db.close();
    return names.sort();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function productionFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : productionFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every write in the daemon's production code outside its table's owner, as "table <- file". */
function writesOutsideOwners(tables: ReadonlySet<string>): string[] {
  const wrong: string[] = [];
  for (const path of productionFiles(SOURCES)) {
    const file = relative(SOURCES, path).split('\\').join('/');
    if (SCHEMA_BUILDERS.some((builder) => builder.test(file))) continue;
    for (const [, word] of readFileSync(path, 'utf8').matchAll(WRITE)) {
      const table = word!.toLowerCase();
      if (tables.has(table) && !(OWNERS[table] ?? []).includes(file))
        wrong.push(`${table} <- ${file}`);
    }
  }
  return [...new Set(wrong)].sort();
}

describe('one repository owns each table', () => {
  it('finds the sources it checks', () => {
    assert.ok(productionFiles(SOURCES).length > 100);
  });

  it('names the owner of every table of the schema', () => {
    const tables = schemaTables();
    assert.ok(tables.includes('sessions'));
    assert.deepEqual(
      tables.filter((table) => !(table in OWNERS)),
      [],
    );
  });

  it('no production file writes to a table outside its repository', () => {
    assert.deepEqual(writesOutsideOwners(new Set(schemaTables())), []);
  });
});
